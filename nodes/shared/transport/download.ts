/**
 * Signed-link downloads: a record's `url`, `photo_url` or `cover_photo_url` is
 * a link that needs no credential, so the API key is never sent to it. It is
 * fetched with n8n's plain request helper, which attaches no credential and no
 * Authorization header. It is not an API call, so it is not paced; a GET is
 * repeated on the same transient failures as an API GET.
 *
 * Every address, the link's own and each redirect's (followed here, at most
 * DOWNLOAD_MAX_REDIRECTS), is checked before anything is sent there, and the
 * request connects to the address checked (./link-address.ts): only https to
 * a public address, or the Base URL's own address when that is this machine;
 * never a special-purpose address (private, loopback, link-local, metadata…),
 * as written or as its name resolves, nor a name that cannot be looked up. The body is
 * read as a stream and stops past DOWNLOAD_MAX_BYTES (the API's largest
 * file), so a hostile or wrong link cannot fill n8n's memory; the whole
 * download ends at DOWNLOAD_DEADLINE, and n8n's Stop ends it at once.
 */
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { safeFileName } from '../filenames';
import { megabytes } from '../rules/formats';
import { DOWNLOAD_MAX_BYTES, DOWNLOAD_MAX_REDIRECTS } from '../rules/links';
import { errorBody } from './error-body';
import { statusError, transportError } from './errors';
import { type DownloadRun, endedEarly, startRun } from './download-run';
import { eachAddress, type Hop, pinnedTarget, plannedHop } from './link-address';
import { cancelled, checkedUrl, resultOf } from './request';
import { backoffBeforeRetry, isRedirect, isSuccess, RETRY } from './retry';
import type { HttpAnswer, HttpResult } from './types';

/** How much of an error answer's body is kept for the error message. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

/** The file name from Content-Disposition (RFC 6266, filename* first), else the URL's last segment; safe to write (safeFileName). */
export function fileNameOf(disposition: unknown, url: URL): string | undefined {
	const header = typeof disposition === 'string' ? disposition : '';
	const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)?''([^;]+)/.exec(header)?.[1];
	const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header)?.[1];
	const fromPath = url.pathname.split('/').filter(Boolean).pop();
	const raw = extended ?? plain ?? fromPath;
	if (raw === undefined) return undefined;
	try {
		return safeFileName(decodeURIComponent(raw.trim()));
	} catch {
		return safeFileName(raw.trim());
	}
}

/** The link as a URL the download may go to: present, and https (plain http only to this machine). */
export function signedLinkTarget(node: INode, url: unknown): URL {
	if (typeof url !== 'string' || url.trim() === '') {
		throw new NodeOperationError(node, 'There is no file to download', {
			description: 'The record has no signed link (null); it may have no file.',
		});
	}
	return checkedUrl(node, url, 'signed link');
}

function fileFrom(answer: HttpAnswer, target: URL): DownloadedFile {
	const contentType = answer.headers['content-type'];
	return {
		data: answer.body,
		mimeType: typeof contentType === 'string' ? contentType.split(';')[0].trim() : undefined,
		fileName: fileNameOf(answer.headers['content-disposition'], target),
	};
}

/** How long to wait before fetching again after this attempt, or undefined to give up. */
function retryWait(result: HttpResult, attempt: number, stopped: boolean): number | undefined {
	if (result.kind === 'error') return undefined;
	const failure =
		result.kind === 'failed'
			? result.failure
			: { kind: 'status' as const, status: result.answer.status };
	return backoffBeforeRetry(failure, 'GET', attempt, stopped);
}

/** The error a download ends with; there is no key to scrub (none was sent), so none is given. */
function downloadError(node: INode, result: HttpResult, attempt: number): NodeApiError {
	if (result.kind !== 'answered') {
		const detail =
			result.kind === 'failed' && result.failure.kind === 'network'
				? `Network error ${result.failure.code} after ${attempt} attempt(s).`
				: result.message;
		return transportError(node, 'The file could not be downloaded', detail, '');
	}
	const { status, statusText, body } = result.answer;
	return statusError(node, {
		status,
		statusText,
		body: errorBody(body),
		pathParams: {},
		apiKey: '',
		note: status >= 500 ? `Tried ${attempt} times.` : undefined,
	});
}

function tooLarge(node: INode, bytes?: number): NodeOperationError {
	const size = bytes === undefined ? '' : ` (it announced ${megabytes(bytes)})`;
	return new NodeOperationError(
		node,
		`The file is larger than ${megabytes(DOWNLOAD_MAX_BYTES)}, the most a download reads${size}`,
		{
			description: `No file the API stores is larger than ${megabytes(DOWNLOAD_MAX_BYTES)} (a report's limit), so this link does not lead to one of its files. The download stopped; nothing was output.`,
		},
	);
}

/** A body stream as n8n's helper hands it back with `encoding: 'stream'`. */
type BodyStream = AsyncIterable<Buffer | string> & { destroy?: () => void };

/**
 * Reads an answer's body up to `limit` bytes: a redirect's not at all, an
 * error's up to ERROR_BODY_MAX_BYTES. Undefined when the file is over the
 * download limit (the stream is closed at once, so the rest is never read).
 */
async function readBody(
	response: IN8nHttpFullResponse,
	signal: AbortSignal,
): Promise<Buffer | undefined> {
	const body = response.body as BodyStream | Buffer | undefined;
	const success = isSuccess(response.statusCode);
	const limit = success ? DOWNLOAD_MAX_BYTES : ERROR_BODY_MAX_BYTES;
	if (body === undefined || body === null) return Buffer.alloc(0);
	if (Buffer.isBuffer(body)) return success && body.length > limit ? undefined : body;
	if (isRedirect(response.statusCode)) {
		body.destroy?.();
		return Buffer.alloc(0);
	}
	// Stop or the deadline ends the read at once, however slowly the bytes come.
	const abort = () => body.destroy?.();
	signal.addEventListener('abort', abort, { once: true });
	if (signal.aborted) abort();
	try {
		return await readChunks(body, success, limit);
	} finally {
		signal.removeEventListener('abort', abort);
	}
}

/** The chunks of a body stream up to `limit` bytes; undefined when a file is over it. */
async function readChunks(
	body: BodyStream,
	success: boolean,
	limit: number,
): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let bytes = 0;
	for await (const chunk of body) {
		const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		bytes += piece.length;
		if (bytes > limit) {
			body.destroy?.();
			if (success) return undefined;
			chunks.push(piece.subarray(0, piece.length - (bytes - limit)));
			break;
		}
		chunks.push(piece);
	}
	return Buffer.concat(chunks);
}

/** The announced size of a successful answer, when it is over the download limit. */
function announcedTooLarge(response: IN8nHttpFullResponse): number | undefined {
	const length = Number(response.headers?.['content-length']);
	return isSuccess(response.statusCode) && length > DOWNLOAD_MAX_BYTES ? length : undefined;
}

/** One GET of `hop` at one of its checked addresses, its body read under the limit; never throws but for a file over the limit. */
async function fetchOnce(
	this: IExecuteFunctions,
	hop: Hop,
	address: string | undefined,
	run: DownloadRun,
): Promise<HttpResult> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		...pinnedTarget(hop, address),
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are followed below, each checked against the rule book.
		disableFollowRedirect: true,
		timeout: RETRY.timeoutMs,
		abortSignal: run.signal,
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequest(options)) as IN8nHttpFullResponse;
	} catch (error) {
		return await resultOf(Promise.reject(error));
	}
	const announced = announcedTooLarge(response);
	if (announced !== undefined) {
		(response.body as BodyStream | undefined)?.destroy?.();
		throw tooLarge(this.getNode(), announced);
	}
	let body: Buffer | undefined;
	try {
		body = await readBody(response, run.signal);
	} catch (error) {
		return await resultOf(Promise.reject(error)); // the connection broke while the body streamed
	}
	if (body === undefined) throw tooLarge(this.getNode());
	return await resultOf(Promise.resolve({ ...response, body }));
}

/** GETs `hop` until it is answered with a file or a redirect, repeating transient failures. */
async function fetchAnswer(
	this: IExecuteFunctions,
	hop: Hop,
	run: DownloadRun,
): Promise<HttpAnswer> {
	for (let attempt = 1; ; attempt++) {
		if (run.signal.aborted) throw endedEarly(this.getNode(), run);
		const result = await eachAddress(
			hop,
			run.signal,
			async (address) => await fetchOnce.call(this, hop, address, run),
		);
		if (run.signal.aborted) throw endedEarly(this.getNode(), run);
		if (
			result.kind === 'answered' &&
			(isSuccess(result.answer.status) || isRedirect(result.answer.status))
		)
			return result.answer;
		const waitMs = retryWait(result, attempt, cancelled(this));
		if (waitMs === undefined) throw downloadError(this.getNode(), result, attempt);
		await sleep(waitMs);
	}
}

/** Refuses an address before anything is sent there: the link's own (`hops` 0) or a redirect's. */
function refused(node: INode, hops: number, reason: string): NodeOperationError {
	const what = hops === 0 ? 'leads' : 'redirects';
	return new NodeOperationError(
		node,
		`The file link ${what} where a download may not go: ${reason}`,
		{
			description:
				"A signed link, and every redirect it takes, may lead only to https on a public address, or to the Base URL's own address when that is this machine (the sandbox). The download stopped before sending anything there.",
		},
	);
}

/** Where a redirect answer points; throws when there is no valid place, or too many redirects. */
function nextLocation(node: INode, from: URL, answer: HttpAnswer, hops: number): URL {
	const location = answer.headers.location;
	if (typeof location !== 'string' || location === '')
		throw refused(node, hops, `HTTP ${answer.status} without a Location`);
	if (hops > DOWNLOAD_MAX_REDIRECTS)
		throw refused(node, hops, `more than ${DOWNLOAD_MAX_REDIRECTS} redirects in a row`);
	try {
		return new URL(location, from);
	} catch {
		throw refused(node, hops, 'the Location is not a valid URL');
	}
}

/** Fetches a signed link as bytes, with its content type and file name. */
export async function downloadSignedLink(
	this: IExecuteFunctions,
	url: string,
): Promise<DownloadedFile> {
	const node = this.getNode();
	let target = signedLinkTarget(node, url);
	const run = await startRun(this);
	for (let hops = 0; ; hops++) {
		const plan = await plannedHop.call(this, target, run);
		if (run.signal.aborted) throw endedEarly(node, run);
		if ('problem' in plan) throw refused(node, hops, plan.problem);
		const answer = await fetchAnswer.call(this, plan.hop, run);
		if (isSuccess(answer.status)) return fileFrom(answer, target);
		target = nextLocation(node, target, answer, hops + 1);
	}
}
