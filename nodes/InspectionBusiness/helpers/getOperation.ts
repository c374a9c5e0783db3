/**
 * Get, for every resource whose list takes ids: all input items are read
 * together (see `batchedGet`), with the list's query options (e.g. Include
 * Deleted) and Simplify where the resource has them.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idsParamOf } from '../../shared/endpoints';
import type { EndpointKey } from '../../shared/endpoints';
import type { LocatorKind } from '../../shared/locators';
import { batchedIdField, queryParam, queryProperty } from '../../shared/fields';
import { batchedGet } from './batchedGet';
import { dateTimeZone } from './timezone';
import { recordIdField } from './locatorsByVersion';
import { shownFor, type BatchOperation } from './operation';
import { outputShape, simplifyProperties, type SimplifyConfig } from './simplifyOption';
import { filterValues } from './wireValues';

interface GetConfig {
	resource: string;
	endpoint: EndpointKey;
	/** The record's name, e.g. "Contact". */
	record: string;
	/** What the record-id field picks (a locator from version 2). */
	picker: LocatorKind;
	/** List query parameters offered as Options, e.g. include_deleted. */
	options?: readonly string[];
	simplify?: SimplifyConfig;
	notFoundHint: string;
}

export function getOperation(config: GetConfig): BatchOperation {
	const { endpoint, simplify } = config;
	const idsParam = idsParamOf(endpoint);
	if (!idsParam) throw new Error(`Endpoint table: ${endpoint} cannot be read by IDs`);
	const optionNames = config.options ?? [];

	const executeBatch = batchedGet({
		endpoint,
		record: config.record,
		picker: config.picker,
		notFoundHint: config.notFoundHint,
		query: optionNames.length ? optionValues(endpoint) : undefined,
		shape: simplify ? simplified(simplify) : undefined,
	});

	return {
		description: updateDisplayOptions(shownFor(config.resource, 'get'), fieldsOf(config)),
		executeBatch,
		endpoint,
		queryScope: [idsParam, ...optionNames],
	};
}

function fieldsOf({
	endpoint,
	record,
	picker,
	options = [],
	simplify,
}: GetConfig): INodeProperties[] {
	const optionsCollection: INodeProperties = {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: options.map((name) => queryProperty(queryParam(endpoint, name))),
	};
	return [
		...recordIdField(picker, batchedIdField(record)),
		...(simplify ? simplifyProperties(simplify) : []),
		...(options.length ? [optionsCollection] : []),
	];
}

/** One item's Options as query values; items with equal options share requests. */
function optionValues(endpoint: EndpointKey) {
	return function (this: IExecuteFunctions, itemIndex: number): IDataObject {
		return filterValues(
			endpoint,
			this.getNodeParameter('options', itemIndex, {}) as IDataObject,
			dateTimeZone(this),
		);
	};
}

/** One found record, shaped by the item's Simplify. */
function simplified(simplify: SimplifyConfig) {
	return function (this: IExecuteFunctions, itemIndex: number, record: IDataObject): IDataObject {
		return outputShape(this, itemIndex, simplify)?.(record) ?? record;
	};
}
