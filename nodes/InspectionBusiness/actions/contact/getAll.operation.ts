import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';
import { listFields, listOutput, listRequest } from '../../helpers/list';
import { CONTACT_SIMPLIFY } from '../../helpers/simplifyOption';

/**
 * Get Many: GET /v1/contacts (endpoint table: `listContacts`) with the item's Filters and
 * sort, every page or up to Limit; one output item per contact, shaped by Simplify.
 */
export const endpoint = 'listContacts' satisfies EndpointKey;

export const description = listFields('contact', 'getAll', endpoint, {
	simplify: CONTACT_SIMPLIFY,
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const records = await readAll.call(this, endpoint, listRequest(this, endpoint, itemIndex));
	return listOutput(this, itemIndex, records, CONTACT_SIMPLIFY);
}
