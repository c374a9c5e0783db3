/**
 * What every Count shares. The API documents this as the way to count: every
 * list answer carries the number of all matching records in `total`, so a
 * Count asks its list for one record (`limit=1`) with the item's Filters and
 * outputs `{ count }`. Each `count.operation.ts` sends the request itself.
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
import { shownFor } from './operation';
import { dateTimeZone } from './timezone';
import { filterValues } from './wireValues';

/** A Count's fields (its list's Filters) and the query parameters they expose. */
export function countFields(resource: string, endpoint: EndpointKey) {
	const filters = filtersCollection(endpoint);
	const filterNames = (filters.options ?? []).map((option) => (option as INodeProperties).name);
	return {
		// Tags have no filter: their Count has no fields rather than an empty Filters.
		description: updateDisplayOptions(
			shownFor(resource, 'count'),
			filterNames.length ? [filters] : [],
		),
		queryScope: filterNames,
	};
}

/** One item's Count query: its Filters, and one record per page (only `total` is read). */
export function countQuery(
	ctx: IExecuteFunctions,
	endpoint: EndpointKey,
	itemIndex: number,
): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return { ...filterValues(endpoint, filters, dateTimeZone(ctx)), limit: 1 };
}

/** `{ count }` from the list answer's `total`; an answer without it fails the item. */
export function countOutput(
	ctx: IExecuteFunctions,
	endpoint: EndpointKey,
	itemIndex: number,
	page: IDataObject,
	records: string,
): INodeExecutionData[] {
	if (typeof page.total !== 'number') {
		throw new NodeOperationError(ctx.getNode(), `The API did not say how many ${records} match`, {
			itemIndex,
			description: `The answer to ${ENDPOINTS[endpoint].path}?limit=1 had no "total" number.`,
		});
	}
	return [{ json: { count: page.total }, pairedItem: { item: itemIndex } }];
}
