/**
 * One HTTP exchange with pacing and the retry policy (see ./retry.ts). This is
 * the only place that calls n8n's HTTP helpers: with authentication for the
 * API, without it for signed links (A16), which must never see the key.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { EndpointKey } from '../endpoints';
import { statusError, transportError } from './errors';
import { pacerFor } from './pacer';
import { backoffMs, type Failure, isRetryable, networkFailure, RETRY, retryAfterMs } from './retry';
import { type ApiSettings, CREDENTIAL_TYPE } from './settings';
import type { ApiContext } from './types';

export interface Exchange {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	url: string;
	qs?: IDataObject;
	body?: IDataObject | FormData;
	/** The endpoint, for error hints; undefined for a signed link. */
	endpoint?: EndpointKey;
	pathParams?: Record<string, string>;
	/** Set for uploads: a report upload emails the client, so its message says so. */
	upload?: 'photo' | 'report' | 'document';
}

export interface Answer {
	status: number;
	headers: Record<string, unknown>;
	body: Buffer;
	/** Parsed JSON for API answers; undefined for signed links. */
	json?: unknown;
}

/** Whether the user stopped the execution; waits check it so a long 429 wait ends promptly. */
function cancelled(context: ApiContext): boolean {
	return (
		'getExecutionCancelSignal' in context && context.getExecutionCancelSignal()?.aborted === true
	);
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
	const text = body.toString('utf8').trim();
	if (text === '') return { ok: true, value: {} };
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

function describeWrite(exchange: Exchange): { what: string; why: string } {
	if (exchange.upload === 'report') {
		return {
			what: 'The report upload may have been received',
			why: "Each report upload makes the account email the client, so it was not re-sent. Check the inspection's attachments before uploading it again; with Skip Duplicates on, a re-run outputs the report if it arrived instead of uploading it again.",
		};
	}
	if (exchange.endpoint === 'createContact') {
		return {
			what: 'The request may have been applied',
			why: 'A POST is not repeated automatically when it may have reached the server: the contact may exist now, and a re-run would create a second one. Look it up by email (Contact > Get Many, Email filter) before running it again; Contact > Create or Update is the operation that is safe to retry.',
		};
	}
	if (exchange.upload) {
		return {
			what: 'The upload may have been received',
			why: 'It was not re-sent, to avoid a duplicate. Check the record before uploading it again.',
		};
	}
	return {
		what: 'The request may have been applied',
		why: `A ${exchange.method} is not repeated automatically when it may have reached the server. Check the record before running it again.`,
	};
}

function failureError(
	node: INode,
	exchange: Exchange,
	failure: Failure,
	attempts: number,
	apiKey: string,
) {
	if (failure.kind === 'refused') {
		return transportError(
			node,
			'The API host refused the connection',
			`Nothing was sent. Tried ${attempts} times; check the Base URL and that the API is reachable from n8n.`,
			apiKey,
		);
	}
	if (failure.kind === 'network') {
		if (exchange.method !== 'GET') {
			const { what, why } = describeWrite(exchange);
			return transportError(
				node,
				`${what}: the connection broke before the API answered`,
				`${why} (network error ${failure.code})`,
				apiKey,
			);
		}
		return transportError(
			node,
			'The connection to the API failed',
			`Network error ${failure.code} after ${attempts} attempt(s). Check the Base URL and the network, then try again.`,
			apiKey,
		);
	}
	if (exchange.method !== 'GET') {
		const { what, why } = describeWrite(exchange);
		return transportError(node, `${what}, but its answer could not be read`, why, apiKey);
	}
	return transportError(
		node,
		'The API answered with data that could not be read',
		`The answer was not valid JSON after ${attempts} attempt(s). Try again later.`,
		apiKey,
	);
}

/**
 * Sends one request, pacing it against the key's budget and repeating it where
 * that is harmless. Returns the 2xx answer; throws a mapped error otherwise.
 */
export async function exchange(
	this: ApiContext,
	request: Exchange,
	settings?: ApiSettings,
): Promise<Answer> {
	const node = this.getNode();
	const apiKey = settings?.apiKey ?? '';
	const pacer = settings ? pacerFor(settings.apiKey, settings.requestsPerMinute) : undefined;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url,
		qs: request.qs,
		// D3: repeated array parameters are sent as tag=a&tag=b.
		arrayFormat: 'repeat',
		body: request.body as IHttpRequestOptions['body'],
		// A plain object is sent as JSON; FormData gets its multipart boundary from the HTTP client.
		json: request.body !== undefined && !(request.body instanceof FormData) ? true : undefined,
		headers: settings ? { Accept: 'application/json' } : {},
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: request.upload ? RETRY.uploadTimeoutMs : RETRY.timeoutMs,
	};
	let attempt = 0;
	let rateLimited = 0;
	let rateLimitWaitMs = 0;
	for (;;) {
		attempt++;
		const release = pacer ? await pacer.acquire(() => cancelled(this)) : () => {};
		let response: IN8nHttpFullResponse;
		try {
			response = settings
				? ((await this.helpers.httpRequestWithAuthentication.call(
						this,
						CREDENTIAL_TYPE,
						options,
					)) as IN8nHttpFullResponse)
				: ((await this.helpers.httpRequest(options)) as IN8nHttpFullResponse);
		} catch (error) {
			const failure = networkFailure(error);
			if (failure === undefined) {
				const message = error instanceof Error ? error.message : String(error);
				throw transportError(node, 'The request could not be sent', message, apiKey);
			}
			if (isRetryable(failure, request.method, attempt) && !cancelled(this)) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw failureError(node, request, failure, attempt, apiKey);
		} finally {
			release();
		}
		const status = response.statusCode;
		const body = Buffer.isBuffer(response.body)
			? response.body
			: Buffer.from(String(response.body ?? ''));
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		if (status === 429 && settings) {
			// A7: Retry-After in seconds, or back off; the server did nothing, so any method may repeat.
			attempt--;
			rateLimited++;
			// A floor, so a server answering Retry-After: 0 forever still ends at the wait budget.
			const wait = Math.max(
				RETRY.backoffBaseMs,
				retryAfterMs(headers['retry-after']) ??
					backoffMs(rateLimited, RETRY.rateLimitBaseMs, RETRY.rateLimitMaxStepMs),
			);
			if (rateLimitWaitMs + wait <= RETRY.maxRateLimitWaitMs && !cancelled(this)) {
				rateLimitWaitMs += wait;
				pacer?.pause(Date.now() + wait);
				continue;
			}
		}
		if (status >= 200 && status < 300) {
			if (!settings) return { status, headers, body };
			const parsed = parseJson(body);
			if (parsed.ok) return { status, headers, body, json: parsed.value };
			if (isRetryable({ kind: 'malformed' }, request.method, attempt)) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw failureError(node, request, { kind: 'malformed' }, attempt, apiKey);
		}
		if (isRetryable({ kind: 'status', status }, request.method, attempt) && !cancelled(this)) {
			await sleep(backoffMs(attempt));
			continue;
		}
		const parsed = parseJson(body);
		const note =
			status >= 500 && request.method !== 'GET'
				? Object.values(describeWrite(request)).join('. ') + '.'
				: status >= 500
					? `Tried ${attempt} times.`
					: undefined;
		throw statusError(node, {
			status,
			statusText: (response as { statusMessage?: string }).statusMessage,
			body: parsed.ok ? parsed.value : body.toString('utf8'),
			endpoint: request.endpoint,
			pathParams: request.pathParams ?? {},
			apiKey,
			note,
		});
	}
}
