/**
 * Local checks against the endpoint table, run before anything is sent, so bad
 * input fails with an error that names the field and the reason and nothing is
 * partly applied. Each check returns the value as it goes on the wire.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	type BodyField,
	type Endpoint,
	ENDPOINTS,
	type EndpointKey,
	LIMITS,
	type QueryParam,
	UUID_PATTERN,
} from './endpoints';

const UUID = new RegExp(UUID_PATTERN);
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
	/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i;
const COUNTRY = /^[A-Za-z]{2}$/;

/** A value the user left empty: n8n hands optional fields over as '' or undefined. */
const isUnset = (value: unknown) => value === undefined || value === '';

/** The error for bad input: names the field and the reason, and says nothing was sent. */
/** What the user sees for a wire name: the endpoint table's label, else the name made readable. */
const LABELS = new Map<string, string>(
	Object.values(ENDPOINTS as Record<string, Endpoint>).flatMap((spec) => [
		...spec.query.map((param): [string, string] => [param.name, param.label]),
		...(spec.body?.fields ?? []).map((field): [string, string] => [field.name, field.label]),
	]),
);
const labelOf = (field: string) =>
	LABELS.get(field) ??
	field
		.replace(/_id$/, ' ID')
		.replace(/_/g, ' ')
		.replace(/\b\w/g, (c) => c.toUpperCase());

/** An item-level input error naming the field (as the user sees it, and as the API names it). */
export function invalidInput(node: INode, field: string, reason: string): NodeOperationError {
	const label = labelOf(field);
	const name = label === field ? `"${field}"` : `${label} "${field}"`;
	return new NodeOperationError(node, `Invalid value for ${name}: ${reason}`, {
		description: 'Nothing was sent to the API.',
	});
}

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}

function isValidDate(value: string): boolean {
	const match = DATE.exec(value);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

function isTimestamp(value: unknown): boolean {
	if (typeof value !== 'string' || !DATE_TIME.test(value.trim())) return false;
	return isValidDate(value.trim().slice(0, 10)) && !Number.isNaN(Date.parse(value.trim()));
}

/** Ids as a list, from an array or a comma-separated string; blanks dropped. */
export function idList(value: unknown): string[] {
	const parts = Array.isArray(value) ? value : String(value).split(',');
	return parts.map((part) => String(part).trim()).filter(Boolean);
}

/** Every id must be a UUID; `maxItems` is the per-request cap of an id-list parameter. */
export function checkIds(
	node: INode,
	field: string,
	ids: string[],
	maxItems = Number.POSITIVE_INFINITY,
): void {
	const bad = ids.find((id) => !UUID.test(id));
	if (bad !== undefined)
		throw invalidInput(node, field, `"${bad}" is not an ID (a UUID such as 3f2b…-…)`);
	if (ids.length > maxItems)
		throw invalidInput(node, field, `at most ${maxItems} IDs per request, got ${ids.length}`);
}

function queryValue(
	node: INode,
	param: QueryParam,
	sortFields: readonly string[] | undefined,
	value: unknown,
) {
	const { name } = param;
	switch (param.type) {
		case 'id-list': {
			const ids = idList(value);
			checkIds(node, name, ids, param.maxItems ?? LIMITS.idsMax);
			return ids.join(',');
		}
		case 'uuid':
			if (!isUuid(value)) throw invalidInput(node, name, `"${String(value)}" is not an ID (UUID)`);
			return value;
		case 'integer': {
			const number =
				typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
			if (typeof number !== 'number' || !Number.isInteger(number))
				throw invalidInput(node, name, 'must be a whole number');
			if (param.min !== undefined && number < param.min)
				throw invalidInput(node, name, `must be at least ${param.min}`);
			if (param.max !== undefined && number > param.max)
				throw invalidInput(node, name, `must be at most ${param.max}`);
			return number;
		}
		case 'boolean':
			// D3: booleans travel as the strings true and false.
			if (value === true || value === 'true') return 'true';
			if (value === false || value === 'false') return 'false';
			throw invalidInput(node, name, 'must be true or false');
		case 'enum':
			if (typeof value !== 'string' || !param.values?.includes(value)) {
				throw invalidInput(node, name, `must be one of ${param.values?.join(', ')}`);
			}
			return value;
		case 'timestamp':
			if (!isTimestamp(value))
				throw invalidInput(
					node,
					name,
					'must be an ISO 8601 date or date-time, e.g. 2024-05-01T00:00:00Z',
				);
			return String(value).trim();
		case 'sort': {
			const allowed = sortFields ?? param.values ?? [];
			const field = typeof value === 'string' ? value.replace(/^-/, '') : undefined;
			if (field === undefined || !allowed.includes(field)) {
				throw invalidInput(
					node,
					name,
					`must be one of ${allowed.join(', ')}, with "-" in front for descending`,
				);
			}
			return value;
		}
		case 'string-array': {
			const list = (Array.isArray(value) ? value : [value])
				.map((entry) => String(entry).trim())
				.filter(Boolean);
			return list;
		}
		default:
			if (typeof value !== 'string' && typeof value !== 'number')
				throw invalidInput(node, name, 'must be text');
			return String(value);
	}
}

/** Checks a query against the endpoint's parameters and returns it as sent (unset values dropped). */
export function validateQuery(
	node: INode,
	endpoint: EndpointKey,
	query: IDataObject = {},
): IDataObject {
	const spec: Endpoint = ENDPOINTS[endpoint];
	const wire: IDataObject = {};
	for (const [name, value] of Object.entries(query)) {
		if (isUnset(value) || value === null) continue;
		const param = spec.query.find((candidate) => candidate.name === name);
		if (param === undefined)
			throw invalidInput(node, name, `not a parameter of ${spec.method} ${spec.path}`);
		const sent = queryValue(node, param, spec.list?.sortFields, value) as IDataObject[string];
		if (!(Array.isArray(sent) && sent.length === 0)) wire[name] = sent;
	}
	return wire;
}

/** The node's Limit (records wanted in total, not a page size): a whole number of at least 1. */
export function validateMax(node: INode, max: number | undefined): void {
	if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
		throw invalidInput(node, 'Limit', `must be a whole number of at least 1, got ${max}`);
	}
}

/** Path ids are checked like any id, so a typo fails here and not as a 404. */
export function validatePathParams(
	node: INode,
	endpoint: EndpointKey,
	params: Record<string, string> = {},
): Record<string, string> {
	const checked: Record<string, string> = {};
	for (const name of ENDPOINTS[endpoint].pathParams) {
		const value = typeof params[name] === 'string' ? params[name].trim() : params[name];
		if (!value) throw invalidInput(node, name, 'is required');
		if (!isUuid(value)) throw invalidInput(node, name, `"${value}" is not an ID (UUID)`);
		checked[name] = value;
	}
	return checked;
}

function bodyValue(node: INode, field: BodyField, value: unknown): unknown {
	const { name } = field;
	if (value === null) {
		if (!field.nullable) throw invalidInput(node, name, 'cannot be empty (null)');
		return null;
	}
	switch (field.type) {
		case 'email':
			if (typeof value !== 'string' || !EMAIL.test(value.trim()))
				throw invalidInput(node, name, `"${String(value)}" is not an email address`);
			return value.trim();
		case 'email-list': {
			const emails = String(value)
				.split(',')
				.map((part) => part.trim())
				.filter(Boolean);
			const bad = emails.find((email) => !EMAIL.test(email));
			if (bad !== undefined) throw invalidInput(node, name, `"${bad}" is not an email address`);
			const max = field.maxItems ?? LIMITS.ccEmailMax;
			if (emails.length > max)
				throw invalidInput(node, name, `at most ${max} addresses, got ${emails.length}`);
			return emails.join(',');
		}
		case 'country':
			if (typeof value !== 'string' || !COUNTRY.test(value.trim())) {
				throw invalidInput(
					node,
					name,
					`"${String(value)}" is not an ISO 3166 alpha-2 country code such as US or CA`,
				);
			}
			return value.trim().toUpperCase();
		case 'date':
			if (typeof value !== 'string' || !isValidDate(value.trim()))
				throw invalidInput(node, name, `"${String(value)}" is not a date (YYYY-MM-DD)`);
			return value.trim();
		case 'uuid':
			if (!isUuid(value)) throw invalidInput(node, name, `"${String(value)}" is not an ID (UUID)`);
			return value;
		case 'uuid-array': {
			if (!Array.isArray(value)) throw invalidInput(node, name, 'must be a list of IDs');
			const bad = value.find((id) => !isUuid(id));
			if (bad !== undefined) throw invalidInput(node, name, `"${String(bad)}" is not an ID (UUID)`);
			return value;
		}
		case 'string-array':
			if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
				throw invalidInput(node, name, 'must be a list of names');
			}
			return value;
		case 'string-map':
			if (
				typeof value !== 'object' ||
				Array.isArray(value) ||
				Object.values(value).some((v) => typeof v !== 'string')
			) {
				throw invalidInput(
					node,
					name,
					'must be an object of text values, e.g. {"linkedin": "https://…"}',
				);
			}
			return value;
		case 'boolean':
			if (typeof value !== 'boolean') throw invalidInput(node, name, 'must be true or false');
			return value;
		case 'enum':
			if (typeof value !== 'string' || !field.values?.includes(value))
				throw invalidInput(node, name, `must be one of ${field.values?.join(', ')}`);
			return value;
		default:
			if (typeof value !== 'string') throw invalidInput(node, name, 'must be text');
			return value;
	}
}

/** Checks a JSON body: no unknown fields, required ones present, types, and exclusive pairs (tags vs tag_ids). */
export function validateBody(node: INode, endpoint: EndpointKey, body: IDataObject): IDataObject {
	const spec: Endpoint = ENDPOINTS[endpoint];
	if (spec.body?.encoding !== 'json')
		throw invalidInput(node, 'body', `${spec.method} ${spec.path} takes no JSON body`);
	const wire: IDataObject = {};
	for (const [name, value] of Object.entries(body)) {
		if (value === undefined) continue;
		const field = spec.body.fields.find((candidate) => candidate.name === name);
		if (field === undefined) throw invalidInput(node, name, `not a field of ${spec.body.schema}`);
		wire[name] = bodyValue(node, field, value) as IDataObject[string];
	}
	for (const field of spec.body.fields) {
		if (field.required && (wire[field.name] === undefined || wire[field.name] === ''))
			throw invalidInput(node, field.name, 'is required');
	}
	for (const [first, second] of spec.body.exclusive ?? []) {
		if (wire[first] !== undefined && wire[second] !== undefined) {
			throw invalidInput(node, first, `send either "${first}" or "${second}", not both`);
		}
	}
	return wire;
}
