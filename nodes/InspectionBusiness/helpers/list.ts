/**
 * What every Get Many shares: its fields (path ids, Return All and Limit,
 * Simplify, Filters, sort) worked out from the endpoint table, one item's
 * request (path ids, Filters and sort as query, Limit), and the records as
 * output items. Each `getAll.operation.ts` sends the request itself.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointKey } from '../../shared/endpoints';
import { filtersCollection, returnAllFields, sortFields } from '../../shared/fields';
import { shownFor } from './operation';
import { outputShape, simplifyProperties, type SimplifyConfig } from './simplifyOption';
import { dateTimeZone } from './timezone';
import { filterValues, sortValue } from './wireValues';

interface ListShape {
	hasFilters: boolean;
	sortable: boolean;
}

/** What each list offers, worked out once per endpoint (every item's request reads it). */
const LIST_SHAPES = new Map<EndpointKey, ListShape>();

/** What a list offers, from its endpoint table entry. */
function listShape(endpoint: EndpointKey): ListShape {
	let shape = LIST_SHAPES.get(endpoint);
	if (!shape) {
		shape = {
			hasFilters: (filtersCollection(endpoint).options ?? []).length > 0,
			sortable: ENDPOINTS[endpoint].query.some((p) => p.name === 'sort'),
		};
		LIST_SHAPES.set(endpoint, shape);
	}
	return shape;
}

/** A Get Many's fields, shown for its resource and operation. */
export function listFields(
	resource: string,
	operation: string,
	endpoint: EndpointKey,
	options: {
		/** The fields of the endpoint's path ids, e.g. the inspection whose attachments are listed. */
		pathFields?: INodeProperties[];
		simplify?: SimplifyConfig;
	} = {},
): INodeProperties[] {
	const list = listShape(endpoint);
	return updateDisplayOptions(shownFor(resource, operation), [
		...(options.pathFields ?? []),
		...returnAllFields,
		...(options.simplify ? simplifyProperties(options.simplify) : []),
		...(list.hasFilters ? [filtersCollection(endpoint)] : []),
		...(list.sortable ? sortFields(endpoint) : []),
	]);
}

/** One item's list request: the path ids given, its Filters and sort as query, and Limit (none: Return All). */
export function listRequest(
	ctx: IExecuteFunctions,
	endpoint: EndpointKey,
	itemIndex: number,
	pathParams: Record<string, string> = {},
) {
	const list = listShape(endpoint);
	const query = list.hasFilters
		? filterValues(
				endpoint,
				ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject,
				dateTimeZone(ctx),
			)
		: {};
	if (list.sortable) {
		const sort = sortValue(
			ctx.getNodeParameter('sort', itemIndex, '') as string,
			ctx.getNodeParameter('sortDirection', itemIndex, 'asc') as string,
		);
		if (sort) query.sort = sort;
	}
	return { pathParams, query, max: maxRecords(ctx, itemIndex) };
}

/** The records as output items of the input item, shaped by its Simplify where the resource has it. */
export function listOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	records: IDataObject[],
	simplify?: SimplifyConfig,
): INodeExecutionData[] {
	const shape = outputShape(ctx, itemIndex, simplify);
	return records.map((record) => ({
		json: shape ? shape(record) : record,
		pairedItem: { item: itemIndex },
	}));
}

/** Return All (undefined) or Limit; the transport checks Limit once (validateMax), as an expression can bypass the editor's minimum. */
function maxRecords(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return ctx.getNodeParameter('limit', itemIndex) as number;
}
