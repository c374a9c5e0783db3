/**
 * What a list walk prepares once and checks per page: its input checked
 * before anything is sent, the first-page query of each run of ids, the
 * credential read once, the shape of every page, and the guard against a
 * cursor handed out twice. The cursor loop itself is `paginate` in ./index.ts.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import { checkIds, idList, validateMax, validatePathParams, validateQuery } from '../validation';
import { type ApiSettings, apiSettings } from './settings';
import type { ApiAnswer, N8nContext } from './types';

interface ListAnswer {
	data: IDataObject[];
	next_cursor: string | null;
}

function isListAnswer(value: unknown): value is ListAnswer {
	const page = value as ListAnswer | undefined;
	return (
		Array.isArray(page?.data) &&
		(page.next_cursor === null ||
			page.next_cursor === undefined ||
			typeof page.next_cursor === 'string')
	);
}

/** One page of a list as the transport hands it on (the sandbox's `Page` is the server's side). */
export interface RecordPage {
	records: IDataObject[];
	nextCursor: string | null;
	/** The server's clock when it answered (its Date header), if it sent one. */
	serverTime?: number;
}

/** A list answer as a page, or an error when it is not one (the shape check of every page). */
export function recordPage(
	node: INode,
	endpoint: EndpointKey,
	{ json, headers }: ApiAnswer,
): RecordPage {
	if (!isListAnswer(json)) {
		throw new NodeOperationError(node, 'The API answered a list request without a data array', {
			description: `Endpoint ${ENDPOINTS[endpoint].path}; the answer had no "data" list or an invalid "next_cursor".`,
		});
	}
	const date = typeof headers.date === 'string' ? Date.parse(headers.date) : Number.NaN;
	return {
		records: json.data,
		nextCursor: json.next_cursor ?? null,
		serverTime: Number.isNaN(date) ? undefined : date,
	};
}

/**
 * The cursors handed out during one walk. The API hands out a new cursor for
 * every page until the last; a cursor seen twice would make the walk loop
 * forever, so it is an error instead.
 */
export function cursorGuard(node: INode): (next: string) => void {
	const seen = new Set<string>();
	return (next) => {
		if (seen.has(next)) {
			throw new NodeOperationError(node, 'The API returned the same page cursor twice', {
				description:
					'Stopped to avoid an endless loop. Nothing after that page was read; try again later.',
			});
		}
		seen.add(next);
	};
}

/**
 * A UUID compares without regard to case (RFC 4122) and the API answers ids in
 * lower case, so this is the form ids are deduplicated and matched in.
 */
export function idKey(id: string): string {
	return id.toLowerCase();
}

/**
 * The first-page query of each walk one list query makes: its filters checked
 * once, and its id list (if any) deduplicated and cut into runs of at most
 * 200, one walk per run. Every page asks for a full page (limit=200).
 */
export function pageQueries(
	node: INode,
	endpoint: EndpointKey,
	query: IDataObject = {},
): IDataObject[] {
	const idsParam = (ENDPOINTS[endpoint] as Endpoint).list?.idsParam;
	const ids =
		idsParam === undefined || query[idsParam] === undefined ? [] : idList(query[idsParam]);
	// Without ids (or with an empty list, which validation names) the query is checked as it is.
	if (idsParam === undefined || ids.length === 0)
		return [{ ...validateQuery(node, endpoint, query), limit: LIMITS.pageSizeMax }];
	checkIds(node, idsParam, ids);
	const unique = [...new Set(ids.map(idKey))];
	const filters = validateQuery(node, endpoint, { ...query, [idsParam]: undefined });
	const queries: IDataObject[] = [];
	for (let start = 0; start < unique.length; start += LIMITS.idsMax) {
		const run = unique.slice(start, start + LIMITS.idsMax);
		queries.push({ ...filters, [idsParam]: run.join(','), limit: LIMITS.pageSizeMax });
	}
	return queries;
}

export interface WalkOptions {
	pathParams?: Record<string, string>;
	query?: IDataObject;
	max?: number;
}

/** What every page of a walk shares, prepared once per walk: checked input and the credential. */
interface Walk {
	pathParams: Record<string, string>;
	queries: IDataObject[];
	settings: ApiSettings;
}

/** Checks a walk's input before anything is sent, and reads the credential once for all its pages. */
export async function prepareWalk(
	this: N8nContext,
	endpoint: EndpointKey,
	options: WalkOptions,
): Promise<Walk> {
	const node = this.getNode();
	if (ENDPOINTS[endpoint].method !== 'GET' || !('list' in ENDPOINTS[endpoint])) {
		throw new NodeOperationError(node, `${endpoint} is not a list endpoint`);
	}
	if (options.query?.cursor !== undefined || options.query?.limit !== undefined) {
		throw new NodeOperationError(node, 'paginate sets cursor and limit itself; pass max instead');
	}
	validateMax(node, options.max);
	const pathParams = validatePathParams(node, endpoint, options.pathParams);
	const queries = pageQueries(node, endpoint, options.query);
	return { pathParams, queries, settings: await apiSettings.call(this) };
}
