import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { apiRequest } from '../../../shared/transport/request';
import { countFields, countOutput, countQuery } from '../../helpers/count';

/**
 * Count: one GET of the `listEvents` list (endpoint table) with the item's Filters and limit=1;
 * outputs the answer's total as { count }.
 */
export const endpoint = 'listEvents' satisfies EndpointKey;

export const { description, queryScope } = countFields('inspectionEvent', endpoint);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const page = await apiRequest.call(this, endpoint, {
		query: countQuery(this, endpoint, itemIndex),
	});
	return countOutput(this, endpoint, itemIndex, page, 'events');
}
