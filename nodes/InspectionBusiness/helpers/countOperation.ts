/**
 * Count, for every resource: one request per input item with the list's
 * filters and `limit=1`, and the answer's `total` as `{ count }`. The API
 * documents this as the way to count: every list answer carries the number of
 * all matching records in `total`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointKey } from '../../shared/endpoints';
import { filtersCollection } from '../../shared/fields';
import { apiRequest } from '../../shared/transport/request';
import { forEachItem } from './execution';
import { dateTimeZone } from './timezone';
import { shownFor, type Operation } from './operation';
import { filterValues } from './wireValues';

export function countOperation(config: {
	resource: string;
	endpoint: EndpointKey;
	/** The record's plural for messages, e.g. "contacts". */
	records: string;
}): Operation {
	const { endpoint } = config;
	const filters = filtersCollection(endpoint);
	const filterNames = (filters.options ?? []).map((option) => (option as INodeProperties).name);

	async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		return await forEachItem(this, items, async (itemIndex) => {
			const query = filterValues(
				endpoint,
				this.getNodeParameter('filters', itemIndex, {}) as IDataObject,
				dateTimeZone(this),
			);
			const page = await apiRequest.call(this, endpoint, { query: { ...query, limit: 1 } });
			if (typeof page.total !== 'number') {
				throw new NodeOperationError(
					this.getNode(),
					`The API did not say how many ${config.records} match`,
					{
						itemIndex,
						description: `The answer to ${ENDPOINTS[endpoint].path}?limit=1 had no "total" number.`,
					},
				);
			}
			return [{ json: { count: page.total }, pairedItem: { item: itemIndex } }];
		});
	}

	return {
		// Tags have no filter: their Count has no fields rather than an empty Filters.
		description: updateDisplayOptions(
			shownFor(config.resource, 'count'),
			filterNames.length ? [filters] : [],
		),
		execute,
		endpoint,
		queryScope: filterNames,
	};
}
