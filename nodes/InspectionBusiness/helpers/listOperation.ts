/**
 * Get Many, for every resource whose list needs nothing special: for each
 * input item, its path ids, Filters and sort are read, every page is collected
 * (or up to Limit), and each record becomes an output item paired with its
 * input item, shaped by Simplify where the resource has it.
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
import { filtersCollection, pathIdField, returnAllFields, sortFields } from '../../shared/fields';
import { readAll } from '../../shared/transport/pages';
import { forEachItem } from './execution';
import { locatorParameter } from './locatorsByVersion';
import { dateTimeZone } from './timezone';
import { shownFor, type Operation } from './operation';
import { outputShape, simplifyProperties, type SimplifyConfig } from './simplifyOption';
import { filterValues, sortValue } from './wireValues';

interface ListConfig {
	resource: string;
	operation: string;
	endpoint: EndpointKey;
	/** What the endpoint's path placeholders are, e.g. the inspection whose attachments are listed. */
	pathParamDescription?: string;
	simplify?: SimplifyConfig;
}

/** What the list offers, worked out once from the endpoint table. */
interface ListShape extends ListConfig {
	pathNames: readonly string[];
	filters: INodeProperties;
	hasFilters: boolean;
	sortable: boolean;
}

export function listOperation(config: ListConfig): Operation {
	const { endpoint } = config;
	const filters = filtersCollection(endpoint);
	const list: ListShape = {
		...config,
		pathNames: ENDPOINTS[endpoint].pathParams,
		filters,
		hasFilters: (filters.options ?? []).length > 0,
		sortable: ENDPOINTS[endpoint].query.some((p) => p.name === 'sort'),
	};

	async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		return await forEachItem(
			this,
			items,
			async (itemIndex) => await listItem(this, list, itemIndex),
		);
	}

	return {
		description: updateDisplayOptions(shownFor(config.resource, config.operation), fieldsOf(list)),
		execute,
		endpoint,
	};
}

function fieldsOf(list: ListShape): INodeProperties[] {
	return [
		...list.pathNames.map((name) => pathIdField(name, list.pathParamDescription ?? '')),
		...returnAllFields,
		...(list.simplify ? simplifyProperties(list.simplify) : []),
		...(list.hasFilters ? [list.filters] : []),
		...(list.sortable ? sortFields(list.endpoint) : []),
	];
}

/** One input item's records: its path ids and query, every page or up to Limit, shaped. */
async function listItem(
	ctx: IExecuteFunctions,
	list: ListShape,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const pathParams = Object.fromEntries(
		list.pathNames.map((name) => [name, locatorParameter(ctx, name, itemIndex)]),
	);
	const query = listQuery(ctx, list, itemIndex);
	const max = maxRecords(ctx, itemIndex);
	const records = await readAll.call(ctx, list.endpoint, { pathParams, query, max });
	const shape = outputShape(ctx, itemIndex, list.simplify);
	return records.map((record) => ({
		json: shape ? shape(record) : record,
		pairedItem: { item: itemIndex },
	}));
}

/** The item's Filters and sort as query values. */
function listQuery(ctx: IExecuteFunctions, list: ListShape, itemIndex: number): IDataObject {
	const query = list.hasFilters
		? filterValues(
				list.endpoint,
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
	return query;
}

/** Return All (undefined) or Limit; the transport checks it (`validateMax`), as an expression can bypass the editor's minimum. */
function maxRecords(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return ctx.getNodeParameter('limit', itemIndex) as number;
}
