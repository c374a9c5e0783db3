/**
 * One API request: authentication through n8n's credential helper, pacing
 * (./pacer.ts), the retry policy (./retry.ts) and error mapping. Signed-link
 * downloads are a different thing (no key, no pacing) in ./download.ts.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { type EndpointKey, endpointPath } from '../endpoints';
import { statusError, transportError } from './errors';
import { pacerFor } from './pacer';
import { backoffMs, type Failure, isRetryable, networkFailure, RETRY, retryAfterMs } from './retry';
import { type ApiSettings, apiSettings, CREDENTIAL_TYPE } from './settings';
import type { N8nContext } from './types';

/** One endpoint call, already validated: path parameters, query and body as they go on the wire. */
interface ApiCall {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	endpoint: EndpointKey;
	pathParams: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject | FormData;
	/** Set for uploads: a report upload emails the client, so its message says so. */
	upload?: 'photo' | 'report' | 'document';
}

interface ApiAnswer {
	/** The parsed JSON body. */
	json: unknown;
	headers: Record<string, unknown>;
}

/** Whether the user stopped the execution; waits check it so a long 429 wait ends promptly. */
export function cancelled(context: N8nContext): boolean {
	return (
		'getExecutionCancelSignal' in context && context.getExecutionCancelSignal()?.aborted === true
	);
}

/** One decode and one parse per answer; an empty body is an empty object. */
export function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
	const text = body.toString('utf8');
	if (/^\s*$/.test(text)) return { ok: true, value: {} };
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

function describeWrite(exchange: Pick<ApiCall, 'method' | 'endpoint' | 'upload'>): {
	what: string;
	why: string;
} {
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
	exchange: ApiCall,
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

/** The response body as bytes, whatever the HTTP client handed back. */
export function bodyBytes(response: IN8nHttpFullResponse): Buffer {
	return Buffer.isBuffer(response.body) ? response.body : Buffer.from(String(response.body ?? ''));
}

/** Why a request stopped waiting for the rate limit: the deadline, what was sent, how to wait longer. */
function rateLimitNote(settings: ApiSettings, sent: number, limited: number): string {
	const minutes = settings.rateLimitDeadlineMs / 60_000;
	return (
		`This request was sent ${sent} times and answered 429 ${limited} times; the wait for the rate limit ` +
		`is bounded at ${minutes} minute(s) per request ("Wait for Rate Limit" in the credential: raise it to wait longer). ` +
		`The key's budget is ${settings.requestsPerMinute} requests per minute, shared by every workflow and n8n instance using the key.`
	);
}

/**
 * Sends one API request, pacing it against the key's budget and repeating it
 * where that is harmless. Returns the parsed 2xx answer; throws a mapped error
 * otherwise. A 429 pauses every caller of the key in this process and lowers
 * the process's rate (./pacer.ts); waiting is bounded by a deadline counted
 * from the request's first 429, not by a number of attempts.
 */
export async function sendApiRequest(
	this: N8nContext,
	settings: ApiSettings,
	call: ApiCall,
): Promise<ApiAnswer> {
	const node = this.getNode();
	const { apiKey } = settings;
	const pacer = pacerFor(apiKey, settings.requestsPerMinute);
	const options: IHttpRequestOptions = {
		method: call.method,
		url: settings.baseUrl + endpointPath(call.endpoint, call.pathParams),
		qs: call.qs,
		// D3: repeated array parameters are sent as tag=a&tag=b.
		arrayFormat: 'repeat',
		body: call.body as IHttpRequestOptions['body'],
		// A plain object is sent as JSON; FormData gets its multipart boundary from the HTTP client.
		json: call.body !== undefined && !(call.body instanceof FormData) ? true : undefined,
		headers: { Accept: 'application/json' },
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: call.upload ? RETRY.uploadTimeoutMs : RETRY.timeoutMs,
	};
	/** Attempts that failed for another reason than 429 (bounded by RETRY). */
	let attempt = 0;
	let sent = 0;
	let limited = 0;
	let deadline: number | undefined;
	for (;;) {
		attempt++;
		const release = await pacer.acquire(() => cancelled(this));
		sent++;
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			release({ kind: 'failed' });
			const failure = networkFailure(error);
			if (failure === undefined) {
				const message = error instanceof Error ? error.message : String(error);
				throw transportError(node, 'The request could not be sent', message, apiKey);
			}
			if (isRetryable(failure, call.method, attempt) && !cancelled(this)) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw failureError(node, call, failure, attempt, apiKey);
		}
		const status = response.statusCode;
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const body = bodyBytes(response);
		/** The API's own error answer, with the server's message and a note on what was tried. */
		const answerError = (note: string | undefined) => {
			const parsed = parseJson(body);
			return statusError(node, {
				status,
				statusText: (response as { statusMessage?: string }).statusMessage,
				body: parsed.ok ? parsed.value : body.toString('utf8'),
				endpoint: call.endpoint,
				pathParams: call.pathParams,
				apiKey,
				note,
			});
		};
		if (status === 429) {
			// A7: Retry-After in seconds, or back off; the server did nothing, so any method may repeat.
			attempt--;
			limited++;
			const now = Date.now();
			deadline ??= now + settings.rateLimitDeadlineMs;
			// A floor, so a server answering Retry-After: 0 forever still ends at the deadline.
			const wait = Math.max(
				RETRY.backoffBaseMs,
				retryAfterMs(headers['retry-after']) ??
					backoffMs(limited, RETRY.rateLimitBaseMs, RETRY.rateLimitMaxStepMs),
			);
			const waiting = now + wait <= deadline && !cancelled(this);
			// A wait past the deadline is not imposed on the key's other callers: this one gives up instead.
			release({ kind: 'rate-limited', untilMs: waiting ? now + wait : now });
			if (waiting) continue;
			throw answerError(rateLimitNote(settings, sent, limited));
		}
		release({ kind: 'answered' });
		const parsed = parseJson(body);
		if (status >= 200 && status < 300) {
			if (parsed.ok) return { json: parsed.value, headers };
			if (isRetryable({ kind: 'malformed' }, call.method, attempt)) {
				await sleep(backoffMs(attempt));
				continue;
			}
			throw failureError(node, call, { kind: 'malformed' }, attempt, apiKey);
		}
		if (isRetryable({ kind: 'status', status }, call.method, attempt) && !cancelled(this)) {
			await sleep(backoffMs(attempt));
			continue;
		}
		const note =
			status >= 500 && call.method !== 'GET'
				? Object.values(describeWrite(call)).join('. ') + '.'
				: status >= 500
					? `Tried ${attempt} times.`
					: undefined;
		throw answerError(note);
	}
}

/** One API call with the credential read for it; a list walk reads it once and calls sendApiRequest. */
export async function callApi(this: N8nContext, call: ApiCall): Promise<ApiAnswer> {
	return await sendApiRequest.call(this, await apiSettings.call(this), call);
}
