import { ENDPOINTS, type EndpointKey } from '../nodes/shared/endpoints';
import { checkQuery, type ParsedQuery, type QueryValue } from '../nodes/shared/rules/query';
import { underRule } from './rules';

export type { ParsedQuery, QueryValue };

/** A query string by the rule book's query rules (queryValueChecks): any broken rule answers 400 naming the parameter. Defaults filled in. */
export function parseQuery(endpoint: EndpointKey, search: URLSearchParams): ParsedQuery {
	const entries = [...new Set(search.keys())].map((name) => [name, search.getAll(name)] as const);
	const parsed = underRule(() => checkQuery(endpoint, entries), 'invalid_parameter');
	for (const param of ENDPOINTS[endpoint].query) {
		if (parsed[param.name] === undefined && 'default' in param) parsed[param.name] = param.default;
	}
	return parsed;
}

/** The filters a cursor is bound to (cursorBoundToFilters): every parameter but cursor and limit. */
export function filtersOf(query: ParsedQuery): Record<string, QueryValue> {
	const filters: Record<string, QueryValue> = {};
	for (const name of Object.keys(query).sort()) {
		const value = query[name];
		if (name !== 'cursor' && name !== 'limit' && value !== undefined) filters[name] = value;
	}
	return filters;
}
