/**
 * Lists: one page (`listPage`), the one cursor loop (`paginate`), every
 * record of a list (`readAll`), and Get for many IDs (`getByIds`; the API has
 * no single-record path, so Get reads the list with ids=). What a list
 * prepares once is here too: its input checked before anything is sent, the
 * first-page query of each batch of IDs, the credential read once; and what
 * every page is checked for: its shape, and a cursor handed out twice.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import {
	checkIds,
	listValues,
	validateMax,
	underRule,
	validatePathParams,
	validateQuery,
} from '../validation';
import { idKey } from '../rules/query';
import { idPropertyOf, WalkProgress } from './progress';
import { apiSettings, callApi, sendApiRequest } from './request';
import type { ApiAnswer, ApiSettings, N8nContext } from './types';

interface ListAnswer {
	data: IDataObject[];
	next_cursor: string | null;
	total?: unknown;
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
	/** The API's count of every record the list holds (its `total`), when it is a count. */
	total?: number;
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
	const { total } = json;
	return {
		records: json.data,
		nextCursor: json.next_cursor ?? null,
		serverTime: Number.isNaN(date) ? undefined : date,
		total: Number.isSafeInteger(total) && (total as number) >= 0 ? (total as number) : undefined,
	};
}

/**
 * The cursors handed out during one list. The API hands out a new cursor for
 * every page until the last; a cursor seen twice would make the loop go on
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
 * The first-page query of each batch one list query makes: its filters checked
 * once, and its id list (if any) deduplicated and cut into batches of at most
 * 200, one cursor loop per batch. Every page asks for a full page (limit=200).
 */
export function pageQueries(
	node: INode,
	endpoint: EndpointKey,
	query: IDataObject = {},
): IDataObject[] {
	const idsParam = (ENDPOINTS[endpoint] as Endpoint).list?.idsParam;
	const ids =
		idsParam === undefined || query[idsParam] === undefined
			? []
			: underRule(node, () => listValues(idsParam, query[idsParam]));
	// Without ids (or with an empty list, which validation names) the query is checked as it is.
	if (idsParam === undefined || ids.length === 0)
		return [{ ...validateQuery(node, endpoint, query), limit: LIMITS.pageSizeMax }];
	const unique = checkIds(node, idsParam, ids);
	const filters = validateQuery(node, endpoint, { ...query, [idsParam]: undefined });
	const queries: IDataObject[] = [];
	for (let start = 0; start < unique.length; start += LIMITS.idsMax) {
		const batch = unique.slice(start, start + LIMITS.idsMax);
		queries.push({ ...filters, [idsParam]: batch.join(','), limit: LIMITS.pageSizeMax });
	}
	return queries;
}

export interface ListOptions {
	pathParams?: Record<string, string>;
	query?: IDataObject;
	max?: number;
	/** Ends the list early, as n8n's Stop does (the webhook trigger's batch deadline). */
	signal?: AbortSignal;
}

/** What every page of a list shares, prepared once per list: checked input and the credential. */
interface PreparedList {
	pathParams: Record<string, string>;
	queries: IDataObject[];
	settings: ApiSettings;
}

/** Checks a list's input before anything is sent, and reads the credential once for all its pages. */
export async function prepareList(
	this: N8nContext,
	endpoint: EndpointKey,
	options: ListOptions,
): Promise<PreparedList> {
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

/**
 * One page of a list endpoint. `paginate` is the cursor loop; the polling
 * trigger calls this directly, because its lists stop on a time budget and
 * resume next poll from a stored cursor.
 */
export async function listPage(
	this: N8nContext,
	endpoint: EndpointKey,
	options: { pathParams?: Record<string, string>; query?: IDataObject; cursor?: string | null },
): Promise<RecordPage> {
	const node = this.getNode();
	const pathParams = validatePathParams(node, endpoint, options.pathParams);
	const { cursor } = options;
	const qs = validateQuery(
		node,
		endpoint,
		cursor == null ? options.query : { ...options.query, cursor },
	);
	const answer = await callApi.call(this, { method: 'GET', endpoint, pathParams, qs });
	return recordPage(node, endpoint, answer);
}

/**
 * Reads a list endpoint page by page, yielding each page as it arrives. The
 * same filters and sort go with every cursor; only a null next_cursor ends the
 * list (a short page does not), or, for an id list, every id having come; a
 * cursor seen twice is an error, not a loop, and so are pages that stop
 * bringing new records or pass the page ceiling (./progress.ts).
 * Every request asks for a full page (limit=200) and `max` is cut locally, so
 * a Limit never costs more requests than Return All needs to reach the same
 * record. An id list is deduplicated (case-insensitively) and read 200 ids
 * at a time, with `max` counted across the batches. The credential is read
 * once per list.
 */
export async function* paginate(
	this: N8nContext,
	endpoint: EndpointKey,
	options: ListOptions,
): AsyncGenerator<IDataObject[]> {
	const node = this.getNode();
	const { pathParams, queries, settings } = await prepareList.call(this, endpoint, options);
	let remaining = options.max ?? Number.POSITIVE_INFINITY;
	const idsParam = (ENDPOINTS[endpoint] as Endpoint).list?.idsParam;
	for (const query of queries) {
		const checkCursor = cursorGuard(node);
		const ids = idsParam === undefined ? undefined : query[idsParam];
		const progress = new WalkProgress(
			node,
			endpoint,
			typeof ids === 'string' ? ids.split(',') : undefined,
		);
		let cursor: string | null = null;
		while (remaining > 0) {
			const qs = cursor === null ? query : { ...query, cursor };
			const call = { method: 'GET', endpoint, pathParams, qs } as const;
			const page = recordPage(
				node,
				endpoint,
				await sendApiRequest.call(this, settings, call, options.signal),
			);
			const records =
				page.records.length > remaining ? page.records.slice(0, remaining) : page.records;
			remaining -= records.length;
			if (records.length > 0) yield records;
			if (page.nextCursor === null) break;
			checkCursor(page.nextCursor);
			// An id list is complete once every id has come, whatever the cursor says.
			if (progress.judge(page)) break;
			cursor = page.nextCursor;
		}
		if (remaining <= 0) return;
	}
}

/** Every record `paginate` yields (up to `max`), in one array: the one "collect all pages". */
export async function readAll(
	this: N8nContext,
	endpoint: EndpointKey,
	options: ListOptions = {},
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for await (const page of paginate.call(this, endpoint, options)) {
		for (const record of page) records.push(record);
	}
	return records;
}

/**
 * Get by id for many items at once (the API has no single-record path, so
 * Get reads the list with ids=): unique ids (compared by `idKey`) in
 * batches of 200, one list call per batch (following next_cursor should the server
 * page it, until every id of the batch has come). The map is keyed by `idKey`,
 * in the order of the ids; ids the account does not have are absent.
 */
export async function getByIds(
	this: N8nContext,
	endpoint: EndpointKey,
	ids: string[],
	options: { query?: IDataObject; signal?: AbortSignal } = {},
): Promise<Map<string, IDataObject>> {
	const node = this.getNode();
	const idsParam = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list?.idsParam;
	if (idsParam === undefined)
		throw new NodeOperationError(node, `${endpoint} cannot be read by IDs`);
	// pageQueries checks and deduplicates them (by idKey); the map keeps the first place of each.
	const wanted = underRule(node, () => ids.flatMap((id) => listValues(idsParam, id)));
	if (wanted.length === 0) return new Map();
	const idProperty = idPropertyOf(endpoint);
	const found = new Map<string, IDataObject>();
	// The cursor loop itself, not readAll: one frame fewer between a Get and its request.
	for await (const page of paginate.call(this, endpoint, {
		query: { ...options.query, [idsParam]: wanted },
		signal: options.signal,
	}))
		for (const record of page) found.set(idKey(String(record[idProperty])), record);
	const ordered = new Map<string, IDataObject>();
	for (const id of wanted) {
		const record = found.get(idKey(id));
		if (record !== undefined) ordered.set(idKey(id), record);
	}
	return ordered;
}
