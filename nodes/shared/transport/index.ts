/**
 * The transport: the only module that talks to the API. It owns the base URL,
 * authentication (through n8n's credential helper), local validation,
 * pagination, batching, pacing, retries and error mapping.
 *
 *   apiRequest         one endpoint call, validated first
 *   listPage           one page of a list, shape-checked
 *   paginate           the cursor loop (one page per yield)
 *   getByIds           Get for many ids in ⌈unique/200⌉ list calls (A2)
 *   uploadFile         multipart photo / report / document, checked first
 *   downloadSignedLink a signed url, fetched without the key (A16)
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, endpointPath, LIMITS } from '../endpoints';
import {
	checkIds,
	idList,
	validateBody,
	validateMax,
	validatePathParams,
	validateQuery,
} from '../validation';
import { type Answer, exchange } from './request';
import { apiSettings, checkedUrl } from './settings';
import type { ApiContext } from './types';

export type { ApiContext } from './types';
export { uploadFile, type UploadOptions, type UploadRule } from './upload';

export interface ApiRequestOptions {
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
	this: ApiContext,
	endpoint: EndpointKey,
	options?: ApiRequestOptions,
): Promise<T>;
export async function apiRequest(
	this: ApiContext,
	endpoint: EndpointKey,
	options?: ApiRequestOptions,
): Promise<IDataObject>;
export async function apiRequest<T>(
	this: ApiContext,
	endpoint: EndpointKey,
	options: ApiRequestOptions = {},
): Promise<T> {
	const answer = await endpointExchange.call(this, endpoint, options);
	return answer.json as T;
}

/** apiRequest's exchange, with the answer's headers (listPage reads the server's Date). */
async function endpointExchange(
	this: ApiContext,
	endpoint: EndpointKey,
	options: ApiRequestOptions,
): Promise<Answer> {
	const node = this.getNode();
	const spec: Endpoint = ENDPOINTS[endpoint];
	const pathParams = validatePathParams(node, endpoint, options.pathParams);
	const qs = validateQuery(node, endpoint, options.query);
	if (spec.body?.encoding === 'multipart') {
		throw new NodeOperationError(node, `${endpoint} is a file upload; use uploadFile`);
	}
	const body = options.body === undefined ? undefined : validateBody(node, endpoint, options.body);
	const settings = await apiSettings.call(this);
	return await exchange.call(
		this,
		{
			method: spec.method,
			url: settings.baseUrl + endpointPath(endpoint, pathParams),
			qs,
			body,
			endpoint,
			pathParams,
		},
		settings,
	);
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

export interface ListPage {
	records: IDataObject[];
	nextCursor: string | null;
	/** The server's time from the answer's Date header (ms); undefined without a valid one. */
	serverTime?: number;
}

function dateHeader(headers: Record<string, unknown>): number | undefined {
	const value = headers.date;
	const ms = typeof value === 'string' ? Date.parse(value) : NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

/**
 * One page of a list endpoint. `paginate` is the cursor loop built on it; the
 * polling trigger calls it directly, because its walks stop on a time budget
 * and resume next poll from a stored cursor.
 */
export async function listPage(
	this: ApiContext,
	endpoint: EndpointKey,
	options: { pathParams?: Record<string, string>; query?: IDataObject; cursor?: string | null },
): Promise<ListPage> {
	const { cursor } = options;
	const answer = await endpointExchange.call(this, endpoint, {
		pathParams: options.pathParams,
		query: cursor == null ? options.query : { ...options.query, cursor },
	});
	const page = answer.json;
	if (!isListAnswer(page)) {
		throw new NodeOperationError(
			this.getNode(),
			'The API answered a list request without a data array',
			{
				description: `Endpoint ${ENDPOINTS[endpoint].path}; the answer had no "data" list or an invalid "next_cursor".`,
			},
		);
	}
	const serverTime = dateHeader(answer.headers);
	return {
		records: page.data,
		nextCursor: page.next_cursor ?? null,
		...(serverTime === undefined ? {} : { serverTime }),
	};
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
 * Walks a list endpoint page by page, yielding each page as it arrives. The
 * same filters and sort go with every cursor; only a null next_cursor ends the
 * walk (a short page does not); a cursor seen twice is an error, not a loop.
 * `max` undefined reads everything with limit=200; otherwise no request is made
 * beyond what `max` needs, each asking for min(remaining, 200). An id list
 * longer than one request may carry is walked 200 ids at a time, with `max`
 * counted across the walks.
 */
export async function* paginate(
	this: ApiContext,
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
	let remaining = max ?? Number.POSITIVE_INFINITY;
	for (const query of idChunks(node, endpoint, options.query)) {
		// Validated once per walk, so every page carries exactly the same filters and sort.
		const filters = validateQuery(node, endpoint, query);
		const checkCursor = cursorGuard(node);
		let cursor: string | null = null;
		while (remaining > 0) {
			const limit = Math.min(remaining, LIMITS.pageSizeMax);
			const page: ListPage = await listPage.call(this, endpoint, {
				pathParams: options.pathParams,
				query: { ...filters, limit },
				cursor,
			});
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

/**
 * The query once per 200 ids of its id list (as a comma-separated value), so
 * a list longer than one request may carry is split. Every id is checked
 * before the first request.
 */
function idChunks(node: INode, endpoint: EndpointKey, query: IDataObject = {}): IDataObject[] {
	const idsParam = (ENDPOINTS[endpoint] as Endpoint).list?.idsParam;
	if (idsParam === undefined || query[idsParam] === undefined) return [query];
	const ids = idList(query[idsParam]);
	if (ids.length === 0) return [query]; // validation names the empty value
	checkIds(node, idsParam, ids);
	const chunks: IDataObject[] = [];
	for (let start = 0; start < ids.length; start += LIMITS.idsMax) {
		chunks.push({ ...query, [idsParam]: ids.slice(start, start + LIMITS.idsMax).join(',') });
	}
	return chunks;
}

/** The field that identifies a record of this list: contact stats carry contact_id (A8). */
function recordIdField(endpoint: EndpointKey): string {
	const list = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list;
	return list?.idsParam === 'contact_ids' ? 'contact_id' : 'id';
}

/**
 * Get by id for many items at once (A2): unique ids in chunks of 200, one list
 * call per chunk (walking next_cursor should the server page it). The map
 * follows the order of the ids; ids the account does not have are absent.
 */
export async function getByIds(
	this: ApiContext,
	endpoint: EndpointKey,
	ids: string[],
	options: { query?: IDataObject } = {},
): Promise<Map<string, IDataObject>> {
	const node = this.getNode();
	const idsParam = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list?.idsParam;
	if (idsParam === undefined)
		throw new NodeOperationError(node, `${endpoint} cannot be read by IDs`);
	const unique = [...new Set(ids.flatMap((id) => idList(id)))];
	if (unique.length === 0) return new Map();
	const idField = recordIdField(endpoint);
	const found = new Map<string, IDataObject>();
	const pages = paginate.call(this, endpoint, {
		query: { ...options.query, [idsParam]: unique.join(',') },
	});
	for await (const page of pages) {
		for (const record of page) found.set(String(record[idField]), record);
	}
	const ordered = new Map<string, IDataObject>();
	for (const id of unique) {
		const record = found.get(id);
		if (record !== undefined) ordered.set(id, record);
	}
	return ordered;
}

/** The file name from Content-Disposition (RFC 6266, filename* first), else the URL's last segment. */
function fileNameOf(disposition: unknown, url: URL): string | undefined {
	const header = typeof disposition === 'string' ? disposition : '';
	const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(header)?.[1];
	const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header)?.[1];
	const fromPath = url.pathname.split('/').filter(Boolean).pop();
	const raw = extended ?? plain ?? fromPath;
	if (raw === undefined) return undefined;
	try {
		return decodeURIComponent(raw.trim());
	} catch {
		return raw.trim();
	}
}

/**
 * Fetches a signed link (`url`, `photo_url`, `cover_photo_url`) as bytes. It
 * uses n8n's plain request helper, so no credential and no Authorization
 * header is ever attached (A16); it is not paced, as it is not an API call.
 */
export async function downloadSignedLink(
	this: IExecuteFunctions,
	url: string,
): Promise<{ data: Buffer; mimeType?: string; fileName?: string }> {
	const node = this.getNode();
	if (typeof url !== 'string' || url.trim() === '') {
		throw new NodeOperationError(node, 'There is no file to download', {
			description: 'The record has no signed link (null); it may have no file.',
		});
	}
	const target = checkedUrl(node, url, 'signed link');
	const answer = await exchange.call(this, { method: 'GET', url: target.href });
	const contentType = answer.headers['content-type'];
	return {
		data: answer.body,
		mimeType: typeof contentType === 'string' ? contentType.split(';')[0].trim() : undefined,
		fileName: fileNameOf(answer.headers['content-disposition'], target),
	};
}
