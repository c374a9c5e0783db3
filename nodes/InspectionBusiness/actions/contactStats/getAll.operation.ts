import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';
import { listFields, listOutput, listRequest } from '../../helpers/list';

/**
 * Get Many: GET /v1/contacts/stats (endpoint table: `listContactStats`) with the item's Filters and
 * sort, every page or up to Limit; one output item per contact's statistics.
 * Inspection counts and revenue per contact. The API names neither the path nor the date
 * filters; the package assumes `/v1/contacts/stats` with `from` and `to` (contactStatsPath).
 */
export const endpoint = 'listContactStats' satisfies EndpointKey;

export const description = listFields('contactStats', 'getAll', endpoint);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const records = await readAll.call(this, endpoint, listRequest(this, endpoint, itemIndex));
	return listOutput(this, itemIndex, records);
}
