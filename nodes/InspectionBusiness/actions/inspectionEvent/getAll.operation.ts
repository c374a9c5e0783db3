import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';
import { listFields, listOutput, listRequest } from '../../helpers/list';

/**
 * Get Many: GET /v1/events (endpoint table: `listEvents`) with the item's Filters and
 * sort, every page or up to Limit; one output item per event.
 * Calendar appointments on inspections. The API does not name the list's path or filters; the
 * package assumes `/v1/events` (eventsPath).
 */
export const endpoint = 'listEvents' satisfies EndpointKey;

export const description = listFields('inspectionEvent', 'getAll', endpoint);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const records = await readAll.call(this, endpoint, listRequest(this, endpoint, itemIndex));
	return listOutput(this, itemIndex, records);
}
