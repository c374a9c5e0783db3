/**
 * Signed-link downloads: a record's `url`, `photo_url` or `cover_photo_url` is
 * a link that needs no credential, so the API key is never sent to it. It is
 * fetched with n8n's plain request helper, which attaches no credential and no
 * Authorization header. It is not an API call, so it is not paced; a GET is
 * repeated on the same transient failures as an API GET.
 */
import type { IExecuteFunctions, IHttpRequestOptions, INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { statusError, transportError } from './errors';
import {
	cancelled,
	errorBody,
	type Exchange,
	type HttpAnswer,
	isSuccess,
	settle,
} from './exchange';
import { backoffBeforeRetry, RETRY } from './retry';
import { checkedUrl } from './settings';

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
}

/** The file name from Content-Disposition (RFC 6266, filename* first), else the URL's last segment. */
export function fileNameOf(disposition: unknown, url: URL): string | undefined {
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

/** How long to wait before fetching again after this exchange, or undefined to give up. */
function retryWait(exchange: Exchange, attempt: number, stopped: boolean): number | undefined {
	if (exchange.kind === 'error') return undefined;
	const failure =
		exchange.kind === 'failed'
			? exchange.failure
			: { kind: 'status' as const, status: exchange.answer.status };
	return backoffBeforeRetry(failure, 'GET', attempt, stopped);
}

/** The error a download ends with; there is no key to scrub (none was sent), so none is given. */
function downloadError(node: INode, exchange: Exchange, attempt: number): NodeApiError {
	if (exchange.kind !== 'answered') {
		const detail =
			exchange.kind === 'failed' && exchange.failure.kind === 'network'
				? `Network error ${exchange.failure.code} after ${attempt} attempt(s).`
				: exchange.message;
		return transportError(node, 'The file could not be downloaded', detail, '');
	}
	const { status, statusText, body } = exchange.answer;
	return statusError(node, {
		status,
		statusText,
		body: errorBody(body),
		pathParams: {},
		apiKey: '',
		note: status >= 500 ? `Tried ${attempt} times.` : undefined,
	});
}

/** Fetches a signed link as bytes, with its content type and file name. */
export async function downloadSignedLink(
	this: IExecuteFunctions,
	url: string,
): Promise<DownloadedFile> {
	const target = signedLinkTarget(this.getNode(), url);
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: target.href,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: RETRY.timeoutMs,
	};
	for (let attempt = 1; ; attempt++) {
		const exchange = await settle(this.helpers.httpRequest(options));
		if (exchange.kind === 'answered' && isSuccess(exchange.answer.status))
			return fileFrom(exchange.answer, target);
		const waitMs = retryWait(exchange, attempt, cancelled(this));
		if (waitMs === undefined) throw downloadError(this.getNode(), exchange, attempt);
		await sleep(waitMs);
	}
}
