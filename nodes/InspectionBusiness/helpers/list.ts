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
	const filters = filtersCollection(endpoint);
	const sortable = ENDPOINTS[endpoint].query.some((param) => param.name === 'sort');
	// A list without filters (tags) has no Filters collection rather than an empty one.
	return updateDisplayOptions(shownFor(resource, operation), [
		...(options.pathFields ?? []),
		...returnAllFields,
		...(options.simplify ? simplifyProperties(options.simplify) : []),
		...(filters.options?.length ? [filters] : []),
		...(sortable ? sortFields(endpoint) : []),
	]);
}

/**
 * One item's list request: the path ids given, its Filters and sort as query, and Limit (none:
 * Return All). A list without Filters or Sort By reads them as empty, so nothing is sent for them.
 */
export function listRequest(
	ctx: IExecuteFunctions,
	endpoint: EndpointKey,
	itemIndex: number,
	pathParams: Record<string, string> = {},
) {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query = filterValues(endpoint, filters, dateTimeZone(ctx));
	const sort = sortValue(
		ctx.getNodeParameter('sort', itemIndex, '') as string,
		ctx.getNodeParameter('sortDirection', itemIndex, 'asc') as string,
	);
	if (sort) query.sort = sort;
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
