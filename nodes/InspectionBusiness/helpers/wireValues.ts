/**
 * Node parameter values → wire values, by the endpoint table's types: where
 * what the user gave is normalised (dates, country case, blank list entries)
 * before the rule book checks it. The fields themselves are built in
 * `shared/fields.ts`.
 */
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/endpoints';
import type { BodyField, Endpoint, EndpointKey } from '../../shared/endpoints';
import { bodyField, bodyFields } from '../../shared/fields';
import { linkForms, readRecordLink } from '../../shared/locators';
import type { LocatorKind } from '../../shared/locators';
import { toWireDate, toWireTimestamp } from '../../shared/rules/dates';
import { RuleViolation } from '../../shared/rules/violation';
import { listValues } from '../../shared/validation';

export function sortValue(field: string, direction: string): string | undefined {
	if (!field) return undefined;
	return direction === 'desc' ? `-${field}` : field;
}

/** The locators inside collections (Additional Fields, Filters): the agency, by its wire name. */
const COLLECTION_LOCATORS: Record<string, LocatorKind> = { agency_id: 'agency' };

/**
 * A resource locator's id, or a plain string given by expression. n8n does not
 * read the links of locators inside a collection, so a By URL link is read
 * here; one the node cannot read fails the item, naming the field.
 */
function locatorValue(name: string, value: unknown): string {
	if (value === undefined || value === null || typeof value === 'string') return value ?? '';
	// A number from an expression is checked as an ID (and refused loudly), never dropped.
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'object' || !('value' in value))
		throw new RuleViolation(
			name,
			`must be an ID, got ${Array.isArray(value) ? 'a list' : typeof value}`,
		);
	const { mode, value: given } = value as IDataObject;
	const text = String(given ?? '');
	const kind = COLLECTION_LOCATORS[name];
	if (mode !== 'url' || !kind) return text;
	const read = readRecordLink(kind, text);
	if ('id' in read) return read.id;
	throw new RuleViolation(
		name,
		`the link "${text.trim()}" ${read.problem}; By URL takes ${linkForms(kind)}`,
	);
}

/**
 * The one rule for fields the user did not fill: nothing is sent for them. A
 * value is untouched when it is undefined, null, '', an empty list, or an
 * empty object (a collection with no entries, or whose entries were all
 * blank). Clearing a field is always explicit (Update's Fields to Clear), so
 * an expression that evaluates to nothing never wipes data.
 */
const isUntouched = (value: unknown) =>
	value === undefined ||
	value === null ||
	value === '' ||
	(Array.isArray(value) && value.length === 0) ||
	(typeof value === 'object' &&
		Object.getPrototypeOf(value) === Object.prototype &&
		Object.keys(value).length === 0);

/** One body field's parameter value, normalised for the wire (not yet checked). */
function bodyValue(field: BodyField, value: unknown, timeZone: string): unknown {
	switch (field.type) {
		case 'uuid':
			return locatorValue(field.name, value);
		case 'uuid-array':
		case 'string-array':
			return listValues(field.name, value);
		case 'email-list':
			return listValues(field.name, value).join(',');
		case 'string-map':
			return value === undefined ? undefined : socialMap(value);
		case 'country':
			return typeof value === 'string' ? value.trim().toUpperCase() : value;
		case 'date':
			return isUntouched(value) ? value : toWireDate(value, timeZone);
		default:
			return value;
	}
}

/**
 * Converts the values of fields built by `bodyProperty` into the JSON body the
 * table describes, leaving out every untouched field (see `isUntouched`).
 * Dates without an offset are read in `timeZone`, the workflow's.
 */
export function bodyValues(
	endpoint: EndpointKey,
	values: IDataObject,
	timeZone: string,
): IDataObject {
	const body: IDataObject = {};
	for (const field of bodyFields(endpoint)) {
		const value = bodyValue(field, values[field.name], timeZone);
		if (!isUntouched(value)) body[field.name] = value as IDataObject[string];
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

/**
 * Social profiles (fixedCollection entries of network and URL) as the map the
 * API stores. Entries left all blank are dropped; a profile missing its
 * network or its URL, or a network given twice, is refused, since the map
 * replaces the contact's whole social map.
 */
function socialMap(value: unknown): IDataObject {
	const profiles = ((value as IDataObject | undefined)?.profiles ?? []) as IDataObject[];
	const map: IDataObject = {};
	for (const profile of profiles) {
		const network = String(profile.network ?? '').trim();
		const url = String(profile.url ?? '').trim();
		if (network === '' && url === '') continue;
		if (network === '')
			throw new RuleViolation('social', `the profile with URL "${url}" has no network name`);
		if (url === '')
			throw new RuleViolation(
				'social',
				`the ${network} profile has no URL (leave the profile out to drop it)`,
			);
		if (network in map) throw new RuleViolation('social', `${network} is given twice`);
		map[network] = url;
	}
	return map;
}

/**
 * Converts Filters values into query values. Id lists stay arrays here because
 * the caller chunks them; timestamps become ISO 8601 (UTC, or a bare date as
 * given), read in `timeZone` when they carry no offset; a filter added but
 * left empty is not sent.
 */
export function filterValues(
	endpoint: EndpointKey,
	values: IDataObject,
	timeZone: string,
): IDataObject {
	const query: IDataObject = {};
	for (const param of ENDPOINTS[endpoint].query) {
		let value: unknown = values[param.name];
		if (param.type === 'id-list' || param.type === 'string-array')
			value = listValues(param.name, value);
		else if (param.type === 'uuid') value = locatorValue(param.name, value);
		else if (param.type === 'timestamp' && !isUntouched(value))
			value = toWireTimestamp(value, timeZone);
		if (!isUntouched(value)) query[param.name] = value as IDataObject[string];
	}
	return query;
}
