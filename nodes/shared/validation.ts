/**
 * The node's side of the rule book (`rules/`): before anything is sent, each
 * value is turned into its wire text and checked by the same rules the
 * sandbox answers 400 with. A broken rule fails with an item-level error that
 * names the field by its label and its wire name, and nothing is sent.
 * Normalising what the user gave (dates, country case, blank list entries)
 * happens earlier, where the node reads its parameters; this only checks.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, type QueryParam } from './endpoints';
import { labelOf } from './fields';
import { checkBody } from './rules/body';
import { hasLoneSurrogate } from './rules/formats';
import { checkId, checkIdList, checkQuery } from './rules/query';
import { RuleViolation } from './rules/violation';

/** What the user sees for a wire name: the endpoint table's label, else the name made readable. */
const LABELS = new Map<string, string>(
	Object.values(ENDPOINTS as Record<string, Endpoint>).flatMap((spec) => [
		...spec.query.map((param): [string, string] => [param.name, param.label]),
		...(spec.body?.fields ?? []).map((field): [string, string] => [field.name, field.label]),
	]),
);
const labelFor = (field: string) => LABELS.get(field) ?? labelOf(field);

/**
 * An item-level input error naming the field (as the user sees it, and as the
 * API names it); `label` when the node's field is labelled otherwise.
 */
export function invalidInput(
	node: INode,
	field: string,
	reason: string,
	label = labelFor(field),
): NodeOperationError {
	const name = label === field ? `"${field}"` : `${label} "${field}"`;
	return new NodeOperationError(node, `Invalid value for ${name}: ${reason}`, {
		description: 'Nothing was sent to the API.',
	});
}

/** Runs a rule; a broken one becomes the item-level error naming its field. */
export function underRule<T>(node: INode, rule: () => T, label?: string): T {
	try {
		return rule();
	} catch (error) {
		if (error instanceof RuleViolation)
			throw invalidInput(node, error.field, error.reason, label ?? labelFor(error.field));
		throw new NodeOperationError(node, error as Error);
	}
}

/**
 * A comma-separated list or an array (from an expression) as a clean list:
 * entries trimmed, blanks (and null entries) dropped, a number as its text.
 * Anything else (an object, true or false) is refused, naming the field: a
 * value the user mapped is never silently dropped, which would widen a filter
 * or skip a change.
 */
export function listValues(name: string, value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const parts: unknown[] = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: [value];
	return parts.map((part) => listEntry(name, part)).filter((part) => part !== '');
}

function listEntry(name: string, part: unknown): string {
	if (part === undefined || part === null) return '';
	if (typeof part === 'string') return part.trim();
	if (typeof part === 'number' && Number.isFinite(part)) return String(part);
	throw new RuleViolation(
		name,
		`must be text or a list of text, got ${Array.isArray(part) ? 'a nested list' : typeof part}`,
	);
}

/**
 * Every id must be a UUID; `maxItems` is the per-request cap of an id-list
 * parameter. Returns the ids deduplicated, as the rule book does.
 */
export function checkIds(
	node: INode,
	field: string,
	ids: string[],
	maxItems = Number.POSITIVE_INFINITY,
): string[] {
	return underRule(node, () => checkIdList(field, ids, maxItems));
}

/**
 * One id (a path parameter, or the record a node item names) by the rule
 * book: required, and a UUID, so a typo fails here and not as a 404.
 * `label` names the node's field when it is labelled otherwise than `field`.
 */
export function checkedId(node: INode, field: string, value: unknown, label?: string): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (!text) throw invalidInput(node, field, 'is required', label ?? labelFor(field));
	return underRule(node, () => checkId(field, String(text)), label);
}

/** A query value as its wire text: the values of one name, in order (a tag list repeats the name: tag=a&tag=b). */
function queryWireText(param: QueryParam, value: unknown): string[] {
	switch (param.type) {
		case 'id-list':
			return [listValues(param.name, value).join(',')];
		case 'string-array':
			return (Array.isArray(value) ? value : [value]).map(String);
		case 'boolean':
		case 'integer':
			return [String(value)];
		default:
			if (typeof value === 'string' || typeof value === 'number') return [String(value)];
			// Mapped to true, false or a list: refused as what it is, not sent or read as empty.
			throw new RuleViolation(
				param.name,
				`must be text, got ${Array.isArray(value) ? 'a list' : typeof value}`,
			);
	}
}

/**
 * Text a URL cannot carry as given: n8n's query encoding turns a lone surrogate into another
 * character (a trailing \uD83D arrived as 🐀), so the filter would silently ask for something
 * else. The API's own cursor is passed on as it came.
 */
function checkUrlText(param: QueryParam, values: readonly string[]): void {
	if (param.type !== 'cursor' && values.some(hasLoneSurrogate))
		throw new RuleViolation(
			param.name,
			'holds half of a character (a lone surrogate, as from an emoji cut in two)',
		);
}

/** Checks a query against the endpoint's rules and returns it as sent (unset values dropped). */
export function validateQuery(
	node: INode,
	endpoint: EndpointKey,
	query: IDataObject = {},
): IDataObject {
	const spec: Endpoint = ENDPOINTS[endpoint];
	const wire = new Map<string, string[]>();
	const sent: IDataObject = {};
	for (const [name, value] of Object.entries(query)) {
		// n8n hands an optional field the user left empty over as '' or undefined.
		if (value === undefined || value === '' || value === null) continue;
		const param = spec.query.find((candidate) => candidate.name === name);
		if (param === undefined)
			throw invalidInput(node, name, `not a parameter of ${spec.method} ${spec.path}`);
		if (typeof value === 'object' && !Array.isArray(value))
			throw invalidInput(node, name, 'must be text, not an object');
		const values = underRule(node, () => queryWireText(param, value));
		underRule(node, () => checkUrlText(param, values));
		if (param.type === 'string-array' && values.length === 0) continue;
		wire.set(name, values);
		sent[name] = param.type === 'string-array' ? values : values[0];
	}
	underRule(node, () => checkQuery(endpoint, wire));
	return sent;
}

/** The node's Limit (records wanted in total, not a page size): a whole number of at least 1. */
export function validateMax(node: INode, max: number | undefined): void {
	if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
		throw invalidInput(
			node,
			'Limit',
			`must be a whole number of at least 1, got ${max}; or turn on Return All`,
		);
	}
}

/** Path ids are checked like any id (`checkedId`). */
export function validatePathParams(
	node: INode,
	endpoint: EndpointKey,
	params: Record<string, string> = {},
): Record<string, string> {
	const checked: Record<string, string> = {};
	for (const name of ENDPOINTS[endpoint].pathParams)
		checked[name] = checkedId(node, name, params[name]);
	return checked;
}

/** Checks a JSON body by the endpoint's rules and returns it as sent (undefined values dropped). */
export function validateBody(node: INode, endpoint: EndpointKey, body: IDataObject): IDataObject {
	const defined = Object.fromEntries(
		Object.entries(body).filter(([, value]) => value !== undefined),
	);
	return underRule(node, () => checkBody(endpoint, defined)) as IDataObject;
}
