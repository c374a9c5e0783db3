/**
 * Node parameter values → wire values, by the endpoint table's types. The
 * fields themselves are built in `shared/fields.ts`.
 */
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/endpoints';
import type { Endpoint, EndpointKey } from '../../../shared/endpoints';
import { bodyField, bodyFields } from '../../../shared/fields';

export function sortValue(field: string, direction: string): string | undefined {
	if (!field) return undefined;
	return direction === 'desc' ? `-${field}` : field;
}

/** A resource locator's value, or a plain string given by expression. */
export function locatorValue(value: unknown): string {
	if (value && typeof value === 'object' && 'value' in value)
		return String((value as IDataObject).value ?? '');
	return typeof value === 'string' ? value : '';
}

/** A comma-separated list or an array (from an expression) as a clean list. */
export function listValue(value: unknown): string[] {
	const parts = Array.isArray(value)
		? value.map(String)
		: typeof value === 'string'
			? value.split(',')
			: [];
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const isEmpty = (value: unknown) =>
	value === undefined ||
	value === null ||
	value === '' ||
	(Array.isArray(value) && value.length === 0);

/**
 * Converts the values of fields built by `bodyProperty` into the JSON body the
 * table describes. An empty value means "not set" and is not sent: clearing a
 * field is explicit (Fields to Clear), so an expression that evaluates to ""
 * never wipes data by accident.
 */
export function bodyValues(endpoint: EndpointKey, values: IDataObject): IDataObject {
	const body: IDataObject = {};
	for (const field of bodyFields(endpoint)) {
		let value = values[field.name];
		if (field.type === 'uuid') value = locatorValue(value);
		else if (field.type === 'uuid-array' || field.type === 'string-array') value = listValue(value);
		else if (field.type === 'string-map' && value !== undefined) value = socialMap(value);
		if (!isEmpty(value)) body[field.name] = value;
	}
	return body;
}

/** What clearing a field sends: an empty list for list fields (tags), else null. */
export function clearedValue(endpoint: EndpointKey, name: string): [] | null {
	const { type } = bodyField(endpoint, name);
	return type === 'uuid-array' || type === 'string-array' ? [] : null;
}

/** The first pair of mutually exclusive fields both present in the body, by label. */
export function exclusiveConflict(
	endpoint: EndpointKey,
	body: IDataObject,
): [string, string] | undefined {
	const spec: Endpoint = ENDPOINTS[endpoint];
	const pair = (spec.body?.exclusive ?? []).find(([a, b]) => a in body && b in body);
	if (!pair) return undefined;
	return [bodyField(endpoint, pair[0]).label, bodyField(endpoint, pair[1]).label];
}

function socialMap(value: unknown): IDataObject {
	const profiles = ((value as IDataObject | undefined)?.profiles ?? []) as IDataObject[];
	return Object.fromEntries(profiles.map((p) => [String(p.network), String(p.url)]));
}

/**
 * Converts Filters values into query values. Id lists stay arrays here because
 * the caller chunks them; a filter added but left empty is not sent.
 */
export function filterValues(endpoint: EndpointKey, values: IDataObject): IDataObject {
	const query: IDataObject = {};
	for (const param of ENDPOINTS[endpoint].query) {
		let value = values[param.name];
		if (param.type === 'id-list' || param.type === 'string-array') value = listValue(value);
		else if (param.type === 'uuid') value = locatorValue(value);
		if (!isEmpty(value)) query[param.name] = value;
	}
	return query;
}
