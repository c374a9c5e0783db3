/**
 * Query rules: every parameter of an endpoint checked by its type in the
 * endpoint table (bounds, enums, id lists up to 200, timestamps), unknown
 * names refused, and the ranges whose start may not come after their end.
 * Works on the wire text (the values of one name, in order) and returns the
 * values as the API reads them.
 */
import { ENDPOINTS, type EndpointKey, LIMITS, type QueryParam } from '../endpoints';
import { isBlank, isUuid, NOT_AN_ID, parseTimestamp } from './formats';
import { RuleViolation } from './violation';

export type QueryValue = string | string[] | number | boolean;
export type ParsedQuery = Record<string, QueryValue | undefined>;

/** Pairs of timestamp parameters that bound a range: the start may not be later than the end. */
const QUERY_RANGES: Partial<Record<EndpointKey, readonly (readonly [string, string])[]>> = {
	listContactStats: [['from', 'to']],
};

/** One id, in a path or a query: a UUID. */
export function checkId(name: string, value: string): string {
	if (!isUuid(value)) throw new RuleViolation(name, `"${value}" ${NOT_AN_ID}`);
	return value;
}

/**
 * A UUID compares without regard to case (RFC 4122) and the API answers ids in
 * lower case, so this is the form ids are deduplicated and matched in.
 */
export function idKey(id: string): string {
	return id.toLowerCase();
}

/**
 * An id list's ids: comma-separated, each trimmed, at most `maxItems`, each a
 * UUID. Returns them deduplicated (by `idKey`), the one place ids are.
 */
export function checkIdList(name: string, ids: readonly string[], maxItems: number): string[] {
	if (ids.some((id) => id === '')) throw new RuleViolation(name, 'must not contain an empty ID');
	for (const id of ids) checkId(name, id);
	if (ids.length > maxItems)
		throw new RuleViolation(name, `at most ${maxItems} IDs per request, got ${ids.length}`);
	return [...new Set(ids.map(idKey))];
}

function checkQueryValue(param: QueryParam, values: readonly string[]): QueryValue {
	const { name } = param;
	const fail = (reason: string) => new RuleViolation(name, reason);
	if (param.type === 'string-array') {
		if (values.some(isBlank)) throw fail('must not hold an empty value');
		return [...values];
	}
	if (values.length > 1) throw fail('may be given only once');
	const value = values[0] ?? '';
	if (value === '') throw fail('must not be empty');
	switch (param.type) {
		case 'integer': {
			if (!/^-?\d+$/.test(value)) throw fail('must be a whole number');
			const number = Number(value);
			if (param.min !== undefined && number < param.min)
				throw fail(`must be at least ${param.min}`);
			if (param.max !== undefined && number > param.max) throw fail(`must be at most ${param.max}`);
			return number;
		}
		case 'boolean': // the API does not say how a boolean is written: only the strings true and false
			if (value !== 'true' && value !== 'false') throw fail('must be true or false');
			return value === 'true';
		case 'enum':
			if (!param.values?.includes(value))
				throw fail(`must be one of ${(param.values ?? []).join(', ')}`);
			return value;
		case 'sort':
			if (!param.values?.includes(value.replace(/^-/, '')))
				throw fail(
					`must be one of ${(param.values ?? []).join(', ')}, with "-" in front for descending`,
				);
			return value;
		case 'uuid':
			return idKey(checkId(name, value));
		case 'id-list':
			return checkIdList(
				name,
				value.split(',').map((id) => id.trim()),
				param.maxItems ?? LIMITS.idsMax,
			);
		case 'timestamp': {
			const ms = parseTimestamp(value);
			if (ms === null)
				throw fail(
					`"${value}" is not an ISO 8601 date or date-time, e.g. 2024-05-01 or 2024-05-01T00:00:00Z`,
				);
			return ms;
		}
		case 'string':
		case 'cursor':
			return value;
	}
}

/**
 * A whole query: each name known to the endpoint, each value by its rule, and
 * the endpoint's ranges in order. Defaults are not filled in.
 */
export function checkQuery(
	endpoint: EndpointKey,
	entries: Iterable<readonly [string, readonly string[]]>,
): ParsedQuery {
	const spec = ENDPOINTS[endpoint];
	const params: readonly QueryParam[] = spec.query;
	const parsed: ParsedQuery = {};
	for (const [name, values] of entries) {
		const param = params.find((candidate) => candidate.name === name);
		if (param === undefined)
			throw new RuleViolation(name, `not a parameter of ${spec.method} ${spec.path}`);
		parsed[name] = checkQueryValue(param, values);
	}
	for (const [start, end] of QUERY_RANGES[endpoint] ?? []) {
		const [from, to] = [parsed[start], parsed[end]];
		if (typeof from === 'number' && typeof to === 'number' && from > to)
			throw new RuleViolation(start, `must not be later than "${end}"`);
	}
	return parsed;
}
