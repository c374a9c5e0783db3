/**
 * Signed-link downloads (A16): a `url`, `photo_url` or `cover_photo_url` is
 * fetched with n8n's plain request helper, so no credential and no
 * Authorization header is ever attached. It is not an API call, so it is not
 * paced; a GET is repeated on the same transient failures as an API GET.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { statusError, transportError } from './errors';
import { bodyBytes, cancelled, parseJson } from './request';
import { backoffMs, isRetryable, networkFailure, RETRY } from './retry';
import { checkedUrl } from './settings';

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

/** Fetches a signed link as bytes, with its content type and file name. */
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
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: target.href,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: RETRY.timeoutMs,
	};
	for (let attempt = 1; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequest(options)) as IN8nHttpFullResponse;
		} catch (error) {
			const failure = networkFailure(error);
			if (failure !== undefined && isRetryable(failure, 'GET', attempt) && !cancelled(this)) {
				await sleep(backoffMs(attempt));
				continue;
			}
			const detail =
				failure?.kind === 'network'
					? `Network error ${failure.code} after ${attempt} attempt(s).`
					: error instanceof Error
						? error.message
						: String(error);
			throw transportError(node, 'The file could not be downloaded', detail, '');
		}
		const status = response.statusCode;
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const body = bodyBytes(response);
		if (status >= 200 && status < 300) {
			const contentType = headers['content-type'];
			return {
				data: body,
				mimeType: typeof contentType === 'string' ? contentType.split(';')[0].trim() : undefined,
				fileName: fileNameOf(headers['content-disposition'], target),
			};
		}
		if (isRetryable({ kind: 'status', status }, 'GET', attempt) && !cancelled(this)) {
			await sleep(backoffMs(attempt));
			continue;
		}
		const parsed = parseJson(body);
		throw statusError(node, {
			status,
			statusText: (response as { statusMessage?: string }).statusMessage,
			body: parsed.ok ? parsed.value : body.toString('utf8'),
			pathParams: {},
			apiKey: '',
			note: status >= 500 ? `Tried ${attempt} times.` : undefined,
		});
	}
}
