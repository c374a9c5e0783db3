/**
 * The read shapes most resources share, built from the endpoint table: Get
 * Many (one list per input item), Count (one request per input item) and Get
 * (all input items batched by ID).
 * Each `<op>.operation.ts` instantiates one of these, or writes its own.
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
import {
	filtersCollection,
	pathIdField,
	queryParam,
	queryProperty,
	recordIdField,
	returnAllFields,
	sortFields,
} from '../../shared/fields';
import { apiRequest, readAll } from '../../shared/transport';
import { forEachItem } from './execution';
import { getRecords } from './get';
import { idsParamOf, maxRecords } from './list';
import { locatorParameter } from './locators';
import { outputShape, simplifyProperties } from './shape';
import type { SimplifyConfig } from './shape';
import { dateTimeZone } from './timezone';
import { filterValues, sortValue } from './values';

export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
	/** The endpoint the operation calls; its table entry lists the operation's wire fields. */
	endpoint: EndpointKey;
	/** The query parameters the operation exposes, when it does not expose them all. */
	queryScope?: readonly string[];
}

const show = (resource: string, operation: string) => ({
	show: { resource: [resource], operation: [operation] },
});

export function listOperation(config: {
	resource: string;
	operation: string;
	endpoint: EndpointKey;
	/** What the endpoint's path placeholders are, e.g. the inspection whose attachments are listed. */
	pathParamDescription?: string;
	simplify?: SimplifyConfig;
}): Operation {
	const { endpoint, simplify } = config;
	const pathNames = ENDPOINTS[endpoint].pathParams;
	const filters = filtersCollection(endpoint);
	const hasFilters = (filters.options ?? []).length > 0;
	const sortable = ENDPOINTS[endpoint].query.some((p) => p.name === 'sort');
	const properties: INodeProperties[] = [
		...pathNames.map((name) => pathIdField(name, config.pathParamDescription ?? '')),
		...returnAllFields,
		...(simplify ? simplifyProperties(simplify) : []),
		...(hasFilters ? [filters] : []),
		...(sortable ? sortFields(endpoint) : []),
	];

	async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		return await forEachItem(this, items, async (itemIndex) => {
			const pathParams = Object.fromEntries(
				pathNames.map((name) => [name, locatorParameter(this, name, itemIndex)]),
			);
			const query = hasFilters
				? filterValues(
						endpoint,
						this.getNodeParameter('filters', itemIndex, {}) as IDataObject,
						dateTimeZone(this),
					)
				: {};
			if (sortable) {
				const sort = sortValue(
					this.getNodeParameter('sort', itemIndex, '') as string,
					this.getNodeParameter('sortDirection', itemIndex, 'asc') as string,
				);
				if (sort) query.sort = sort;
			}
			const max = maxRecords(this, itemIndex);
			const records = await readAll.call(this, endpoint, { pathParams, query, max });
			const shape = outputShape(this, itemIndex, simplify);
			return records.map((record) => ({
				json: shape ? shape(record) : record,
				pairedItem: { item: itemIndex },
			}));
		});
	}

	return {
		description: updateDisplayOptions(show(config.resource, config.operation), properties),
		execute,
		endpoint,
	};
}

export function getOperation(config: {
	resource: string;
	endpoint: EndpointKey;
	/** The record's name, e.g. "Contact". */
	record: string;
	/** List query parameters offered as Options, e.g. include_deleted. */
	options?: readonly string[];
	simplify?: SimplifyConfig;
	notFoundHint: string;
}): Operation {
	const { endpoint, simplify } = config;
	const idsParam = idsParamOf(endpoint);
	if (!idsParam) throw new Error(`Endpoint table: ${endpoint} cannot be read by IDs`);
	const optionNames = config.options ?? [];
	const properties: INodeProperties[] = [
		recordIdField(config.record),
		...(simplify ? simplifyProperties(simplify) : []),
		...(optionNames.length
			? [
					{
						displayName: 'Options',
						name: 'options',
						type: 'collection' as const,
						placeholder: 'Add Option',
						default: {},
						options: optionNames.map((name) => queryProperty(queryParam(endpoint, name))),
					},
				]
			: []),
	];

	async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		return await getRecords.call(this, items, {
			endpoint,
			record: config.record,
			notFoundHint: config.notFoundHint,
			query: optionNames.length
				? function (this: IExecuteFunctions, itemIndex: number) {
						return filterValues(
							endpoint,
							this.getNodeParameter('options', itemIndex, {}) as IDataObject,
							dateTimeZone(this),
						);
					}
				: undefined,
			shape: simplify
				? function (this: IExecuteFunctions, itemIndex: number, record: IDataObject) {
						return outputShape(this, itemIndex, simplify)?.(record) ?? record;
					}
				: undefined,
		});
	}

	return {
		description: updateDisplayOptions(show(config.resource, 'get'), properties),
		execute,
		endpoint,
		queryScope: [idsParam, ...optionNames],
	};
}

/**
 * Count (pagination rule 6): one request per input item with the list's
 * filters and `limit=1`, and the answer's `total` as `{ count }`.
 */
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
			show(config.resource, 'count'),
			filterNames.length ? [filters] : [],
		),
		execute,
		endpoint,
		queryScope: filterNames,
	};
}
