import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';
import { listFields, listOutput, listRequest } from '../../helpers/list';

/**
 * Get Many: GET /v1/agencies (endpoint table: `listAgencies`) with the item's Filters and
 * sort, every page or up to Limit; one output item per agency.
 */
export const endpoint = 'listAgencies' satisfies EndpointKey;

export const description = listFields('agency', 'getAll', endpoint);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const records = await readAll.call(this, endpoint, listRequest(this, endpoint, itemIndex));
	return listOutput(this, itemIndex, records);
}
