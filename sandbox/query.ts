import { ENDPOINTS, type EndpointKey, type QueryParam } from '../nodes/shared/endpoints';
import { badRequest } from './http';
import { parseTimestamp, UUID_RE } from './formats';

export type QueryValue = string | string[] | number | boolean;
/** Query values by parameter name, checked and converted by the endpoint table's types. */
export type ParsedQuery = Record<string, QueryValue | undefined>;

function single(param: QueryParam, values: string[]): string {
	if (values.length > 1) throw badRequest(param.name, `${param.name} may be given only once`);
	if (values[0] === '') throw badRequest(param.name, `${param.name} must not be empty`);
	return values[0];
}

function convert(param: QueryParam, values: string[]): QueryValue {
	const { name } = param;
	if (param.type === 'string-array') {
		if (values.some((v) => v.trim() === ''))
			throw badRequest(name, `${name} values must not be empty`);
		return values;
	}
	const value = single(param, values);
	switch (param.type) {
		case 'integer': {
			if (!/^-?\d+$/.test(value)) throw badRequest(name, `${name} must be an integer`);
			const n = Number(value);
			if (
				(param.min !== undefined && n < param.min) ||
				(param.max !== undefined && n > param.max)
			) {
				throw badRequest(name, `${name} must be between ${param.min} and ${param.max}`);
			}
			return n;
		}
		case 'boolean': // D3
			if (value !== 'true' && value !== 'false')
				throw badRequest(name, `${name} must be true or false`);
			return value === 'true';
		case 'enum':
			if (!param.values?.includes(value)) {
				throw badRequest(name, `${name} must be one of: ${(param.values ?? []).join(', ')}`);
			}
			return value;
		case 'sort': {
			const field = value.startsWith('-') ? value.slice(1) : value;
			if (!param.values?.includes(field)) {
				throw badRequest(
					name,
					`${name} must be one of ${(param.values ?? []).join(', ')}, optionally prefixed with -`,
				);
			}
			return value;
		}
		case 'uuid':
			if (!UUID_RE.test(value)) throw badRequest(name, `${name} must be a uuid`);
			return value.toLowerCase();
		case 'id-list': {
			const ids = value.split(',').map((id) => id.trim());
			if (ids.some((id) => id === '')) throw badRequest(name, `${name} must not contain empty ids`);
			if (param.maxItems !== undefined && ids.length > param.maxItems) {
				throw badRequest(name, `${name} takes at most ${param.maxItems} ids`);
			}
			const bad = ids.find((id) => !UUID_RE.test(id));
			if (bad !== undefined)
				throw badRequest(name, `${name} contains ${JSON.stringify(bad)}, which is not a uuid`);
			return [...new Set(ids.map((id) => id.toLowerCase()))];
		}
		case 'timestamp': {
			const ms = parseTimestamp(value);
			if (ms === null) throw badRequest(name, `${name} must be an ISO 8601 date or date-time`);
			return ms;
		}
		case 'string':
		case 'cursor':
			return value;
	}
}

/** Validates a query string against the endpoint table: unknown names, types, bounds and enums all answer 400 naming the parameter (D11). */
export function parseQuery(endpoint: EndpointKey, search: URLSearchParams): ParsedQuery {
	const params: readonly QueryParam[] = ENDPOINTS[endpoint].query;
	const known = new Map(params.map((p) => [p.name, p]));
	const parsed: ParsedQuery = {};
	for (const name of new Set(search.keys())) {
		const param = known.get(name);
		if (!param) throw badRequest(name, `Unknown query parameter ${name}`);
		parsed[name] = convert(param, search.getAll(name));
	}
	for (const param of params) {
		if (parsed[param.name] === undefined && param.default !== undefined)
			parsed[param.name] = param.default;
	}
	return parsed;
}

/** The filters a cursor is bound to (D2): every parameter but cursor and limit. */
export function filtersOf(query: ParsedQuery): Record<string, QueryValue> {
	const filters: Record<string, QueryValue> = {};
	for (const name of Object.keys(query).sort()) {
		const value = query[name];
		if (name !== 'cursor' && name !== 'limit' && value !== undefined) filters[name] = value;
	}
	return filters;
}
