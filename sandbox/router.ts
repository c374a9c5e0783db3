import { ENDPOINTS, type EndpointKey } from '../nodes/shared/endpoints';

interface Route {
	key: EndpointKey;
	method: string;
	pattern: RegExp;
	names: readonly string[];
}

export type RouteMatch =
	| { key: EndpointKey; params: Record<string, string> }
	| { key: null; allow: string[] };

/** v1 routes straight from the endpoint table; literal paths are tried before templated ones. */
const ROUTES: Route[] = (Object.keys(ENDPOINTS) as EndpointKey[])
	.map((key) => {
		const endpoint = ENDPOINTS[key];
		const source = endpoint.path
			.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
			.replace(/\{\w+\}/g, '([^/]+)');
		return {
			key,
			method: endpoint.method,
			pattern: new RegExp(`^${source}$`),
			names: endpoint.pathParams,
		};
	})
	.sort((a, b) => a.names.length - b.names.length);

export function matchRoute(method: string, path: string): RouteMatch {
	const allow: string[] = [];
	for (const route of ROUTES) {
		const m = route.pattern.exec(path);
		if (!m) continue;
		if (route.method !== method) {
			allow.push(route.method);
			continue;
		}
		const params: Record<string, string> = {};
		route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1])));
		return { key: route.key, params };
	}
	return { key: null, allow };
}
