/**
 * The transport: the only module that talks to the API. It owns the base URL,
 * authentication (through n8n's credential helper), local validation,
 * pagination, batching, pacing, retries and error mapping.
 *
 *   apiRequest         one endpoint call, validated first
 *   listPage           one page of a list, shape-checked
 *   paginate           the cursor loop (one page per yield)
 *   readAll            every record of a walk, in one array
 *   getByIds           Get for many ids in ⌈unique/200⌉ list calls (the API
 *                      has no single-record path, so Get reads the list with ids=)
 *   uploadFile         multipart photo / report / document, checked first
 *   downloadSignedLink a signed link, fetched without the key (it needs none)
 *
 * Below these: ./walk.ts prepares a list walk once (checks, id runs, the
 * credential); ./request.ts sends an API request (its steps: ./pacer.ts,
 * ./exchange.ts, ./retry.ts, ./failures.ts and ./errors.ts); ./download.ts
 * fetches a signed link. Nothing else in the package makes an HTTP request.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey } from '../endpoints';
import { idList, validateBody, validatePathParams, validateQuery } from '../validation';
import { callApi, sendApiRequest } from './request';
import type { N8nContext } from './types';
import {
	cursorGuard,
	idKey,
	prepareWalk,
	type RecordPage,
	recordPage,
	type WalkOptions,
} from './walk';

export type { N8nContext } from './types';
export { cursorGuard, idKey } from './walk';
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
	options: WalkOptions,
): AsyncGenerator<IDataObject[]> {
	const node = this.getNode();
	const { pathParams, queries, settings } = await prepareWalk.call(this, endpoint, options);
	let remaining = options.max ?? Number.POSITIVE_INFINITY;
	for (const query of queries) {
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
	options: WalkOptions = {},
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for await (const page of paginate.call(this, endpoint, options)) {
		for (const record of page) records.push(record);
	}
	return records;
}

/**
 * The property that holds a record's id in this list's answers: contact stats
 * are read by contact_ids and each carries its contact's contact_id.
 */
function idPropertyOf(endpoint: EndpointKey): string {
	const list = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list;
	return list?.idsParam === 'contact_ids' ? 'contact_id' : 'id';
}

/**
 * Get by id for many items at once (the API has no single-record path, so
 * Get reads the list with ids=): unique ids (compared by `idKey`) in
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
	const idProperty = idPropertyOf(endpoint);
	const found = new Map<string, IDataObject>();
	const records = await readAll.call(this, endpoint, {
		query: { ...options.query, [idsParam]: unique },
	});
	for (const record of records) found.set(idKey(String(record[idProperty])), record);
	const ordered = new Map<string, IDataObject>();
	for (const id of unique) {
		const record = found.get(id);
		if (record !== undefined) ordered.set(id, record);
	}
	return ordered;
}
