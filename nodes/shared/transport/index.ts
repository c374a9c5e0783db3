/**
 * The transport: the only module that talks to the API. It owns the base URL,
 * authentication (through n8n's credential helper), local validation,
 * pagination, batching, pacing, retries and error mapping.
 *
 *   apiRequest         one endpoint call, validated first
 *   listPage           one page of a list, shape-checked
 *   paginate           the cursor loop (one page per yield)
 *   readAll            every record of a walk, in one array
 *   getByIds           Get for many ids in ⌈unique/200⌉ list calls (A2)
 *   uploadFile         multipart photo / report / document, checked first
 *   downloadSignedLink a signed url, fetched without the key (A16)
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import {
	checkIds,
	idList,
	validateBody,
	validateMax,
	validatePathParams,
	validateQuery,
} from '../validation';
import { callApi, sendApiRequest } from './request';
import { apiSettings } from './settings';
import type { N8nContext } from './types';

export type { N8nContext } from './types';
export { downloadSignedLink } from './download';
export { uploadFile, type UploadOptions, type UploadRule } from './upload';

interface ApiRequestOptions {
	pathParams?: Record<string, string>;
	query?: IDataObject;
	body?: IDataObject;
}

/**
 * Calls one endpoint and returns its parsed JSON answer. The second overload
 * is what `apiRequest.call(this, …)` resolves to (TypeScript takes the last
 * one), so plain calls get IDataObject; `apiRequest<T>.call(…)` picks a type.
 */
export async function apiRequest<T = IDataObject>(
	this: N8nContext,
	endpoint: EndpointKey,
	options?: ApiRequestOptions,
): Promise<T>;
export async function apiRequest(
	this: N8nContext,
	endpoint: EndpointKey,
	options?: ApiRequestOptions,
): Promise<IDataObject>;
export async function apiRequest<T>(
	this: N8nContext,
	endpoint: EndpointKey,
	options: ApiRequestOptions = {},
): Promise<T> {
	const node = this.getNode();
	const spec: Endpoint = ENDPOINTS[endpoint];
	const pathParams = validatePathParams(node, endpoint, options.pathParams);
	const qs = validateQuery(node, endpoint, options.query);
	if (spec.body?.encoding === 'multipart') {
		throw new NodeOperationError(node, `${endpoint} is a file upload; use uploadFile`);
	}
	const body = options.body === undefined ? undefined : validateBody(node, endpoint, options.body);
	const answer = await callApi.call(this, { method: spec.method, endpoint, pathParams, qs, body });
	return answer.json as T;
}

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
interface RecordPage {
	records: IDataObject[];
	nextCursor: string | null;
	/** The server's clock when it answered (its Date header), if it sent one. */
	serverTime?: number;
}

/** A list answer as a page, or an error when it is not one (the shape check of every page). */
function recordPage(
	node: INode,
	endpoint: EndpointKey,
	{ json, headers }: { json: unknown; headers: Record<string, unknown> },
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
 * One page of a list endpoint. `paginate` is the cursor loop; the polling
 * trigger calls this directly, because its walks stop on a time budget and
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
 * The cursors handed out during one walk. A cursor seen twice would make the
 * walk loop forever, so it is an error instead (pagination rule 2).
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
 * The walks one list query makes: its filters checked once, and its id list (if
 * any) deduplicated and cut into runs of at most 200. An id list stays an array
 * until a request is built from one run.
 */
function walksOf(
	node: INode,
	endpoint: EndpointKey,
	query: IDataObject = {},
): { filters: IDataObject; idsParam?: string; idRuns: string[][] } {
	const idsParam = (ENDPOINTS[endpoint] as Endpoint).list?.idsParam;
	const ids =
		idsParam === undefined || query[idsParam] === undefined ? [] : idList(query[idsParam]);
	// Without ids (or with an empty list, which validation names) the query is checked as it is.
	if (idsParam === undefined || ids.length === 0)
		return { filters: validateQuery(node, endpoint, query), idRuns: [[]] };
	checkIds(node, idsParam, ids);
	const unique = [...new Set(ids.map(idKey))];
	const idRuns: string[][] = [];
	for (let start = 0; start < unique.length; start += LIMITS.idsMax) {
		idRuns.push(unique.slice(start, start + LIMITS.idsMax));
	}
	const filters = validateQuery(node, endpoint, { ...query, [idsParam]: undefined });
	return { filters, idsParam, idRuns };
}

/**
 * Walks a list endpoint page by page, yielding each page as it arrives. The
 * same filters and sort go with every cursor; only a null next_cursor ends the
 * walk (a short page does not); a cursor seen twice is an error, not a loop.
 * Every request asks for a full page (limit=200) and `max` is cut locally, so
 * a Limit never costs more requests than Return All needs to reach the same
 * record. An id list is deduplicated (case-insensitively) and walked 200 ids
 * at a time, with `max` counted across the walks. The credential is read once
 * per walk.
 */
export async function* paginate(
	this: N8nContext,
	endpoint: EndpointKey,
	options: { pathParams?: Record<string, string>; query?: IDataObject; max?: number },
): AsyncGenerator<IDataObject[]> {
	const node = this.getNode();
	const { max } = options;
	if (ENDPOINTS[endpoint].method !== 'GET' || !('list' in ENDPOINTS[endpoint])) {
		throw new NodeOperationError(node, `${endpoint} is not a list endpoint`);
	}
	if (options.query?.cursor !== undefined || options.query?.limit !== undefined) {
		throw new NodeOperationError(node, 'paginate sets cursor and limit itself; pass max instead');
	}
	validateMax(node, max);
	const pathParams = validatePathParams(node, endpoint, options.pathParams);
	const { filters, idsParam, idRuns } = walksOf(node, endpoint, options.query);
	const settings = await apiSettings.call(this);
	let remaining = max ?? Number.POSITIVE_INFINITY;
	for (const ids of idRuns) {
		const query: IDataObject =
			idsParam === undefined
				? { ...filters, limit: LIMITS.pageSizeMax }
				: { ...filters, [idsParam]: ids.join(','), limit: LIMITS.pageSizeMax };
		const checkCursor = cursorGuard(node);
		let cursor: string | null = null;
		while (remaining > 0) {
			const answer = await sendApiRequest.call(this, settings, {
				method: 'GET',
				endpoint,
				pathParams,
				qs: cursor === null ? query : { ...query, cursor },
			});
			const page = recordPage(node, endpoint, answer);
			const records =
				page.records.length > remaining ? page.records.slice(0, remaining) : page.records;
			remaining -= records.length;
			if (records.length > 0) yield records;
			if (page.nextCursor === null) break;
			checkCursor(page.nextCursor);
			cursor = page.nextCursor;
		}
		if (remaining <= 0) return;
	}
}

/** Every record `paginate` yields (up to `max`), in one array: the one "collect all pages". */
export async function readAll(
	this: N8nContext,
	endpoint: EndpointKey,
	options: { pathParams?: Record<string, string>; query?: IDataObject; max?: number } = {},
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for await (const page of paginate.call(this, endpoint, options)) {
		for (const record of page) records.push(record);
	}
	return records;
}

/** The field that identifies a record of this list: contact stats carry contact_id (A8). */
function recordIdField(endpoint: EndpointKey): string {
	const list = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list;
	return list?.idsParam === 'contact_ids' ? 'contact_id' : 'id';
}

/**
 * Get by id for many items at once (A2): unique ids (compared by `idKey`) in
 * runs of 200, one list call per run (walking next_cursor should the server
 * page it). The map is keyed by `idKey`, in the order of the ids; ids the
 * account does not have are absent.
 */
export async function getByIds(
	this: N8nContext,
	endpoint: EndpointKey,
	ids: string[],
	options: { query?: IDataObject } = {},
): Promise<Map<string, IDataObject>> {
	const node = this.getNode();
	const idsParam = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list?.idsParam;
	if (idsParam === undefined)
		throw new NodeOperationError(node, `${endpoint} cannot be read by IDs`);
	const unique = [...new Set(ids.flatMap((id) => idList(id)).map(idKey))];
	if (unique.length === 0) return new Map();
	const idField = recordIdField(endpoint);
	const found = new Map<string, IDataObject>();
	const records = await readAll.call(this, endpoint, {
		query: { ...options.query, [idsParam]: unique },
	});
	for (const record of records) found.set(idKey(String(record[idField])), record);
	const ordered = new Map<string, IDataObject>();
	for (const id of unique) {
		const record = found.get(id);
		if (record !== undefined) ordered.set(id, record);
	}
	return ordered;
}
