import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';
import { listFields, listOutput, listRequest } from '../../helpers/list';
import { INSPECTION_SIMPLIFY } from '../../helpers/simplifyOption';

/**
 * Get Many: GET /v1/inspections (endpoint table: `listInspections`) with the item's Filters and
 * sort, every page or up to Limit; one output item per inspection, shaped by Simplify.
 */
export const endpoint = 'listInspections' satisfies EndpointKey;

export const description = listFields('inspection', 'getAll', endpoint, {
	simplify: INSPECTION_SIMPLIFY,
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const records = await readAll.call(this, endpoint, listRequest(this, endpoint, itemIndex));
	return listOutput(this, itemIndex, records, INSPECTION_SIMPLIFY);
}
