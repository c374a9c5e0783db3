/**
 * The API request: the one place that calls n8n's
 * `httpRequestWithAuthentication`. `apiRequest` checks one call's input by the
 * rule book, `sendApiRequest` paces it against the key's budget, sends it
 * once (`sendOnce`), asks ./retry.ts whether and when to repeat, and ends
 * with ./errors.ts's `requestError` when it fails. The credential is read
 * here (`apiSettings`, with the URL rule `checkedUrl`). Signed-link
 * downloads are a different kind of request (no key, no pacing), in
 * ./download.ts; lists are ./pages.ts.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, endpointPath, LIMITS } from '../endpoints';
import { validateBody, validatePathParams, validateQuery } from '../validation';
import { requestError } from './errors';
import { decideRetry, isRedirect, noAttempts, pacerFor, RETRY } from './retry';
import type {
	ApiAnswer,
	ApiCall,
	ApiSettings,
	HttpAnswer,
	HttpResult,
	N8nContext,
	NetworkFailure,
} from './types';

export const CREDENTIAL_TYPE = 'inspectionBusinessApi';

/**
 * The URLs the key may travel to: https, or plain http to this machine (the
 * sandbox, a local proxy). Tested on the text as typed, so the node and the
 * credential test (an n8n expression, which has no URL parser) decide alike.
 */
const ALLOWED_URL = /^(https:\/\/|http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?(\/|$))/i;

/**
 * What a Base URL may end with and still mean the API root: `/`, `/v1`, `/v1/`.
 * A run of slashes is only tried from its first slash (the lookbehind), so a
 * long run fails in linear time, not once per slash (the plain `(\/v1)?\/*$`
 * took seconds on 40,000 slashes). It runs in the credential test's
 * expression too, hence a pattern and not code.
 */
export const API_ROOT_SUFFIX = /(?:\/v1|(?<!\/))\/*$/i;

/** Why the key may not be sent to `raw` (the credential's words), or undefined when it may. */
export function refusedUrlReason(raw: string): string | undefined {
	const typed = raw.trim();
	if (ALLOWED_URL.test(typed)) return undefined;
	return /^http:/i.test(typed)
		? 'Base URL: plain http is refused; use https. Plain http is accepted only for localhost, 127.0.0.0/8 and [::1].'
		: `Base URL: "${typed}" must start with https://, e.g. https://api.example.com`;
}

/**
 * The key must never travel unencrypted, so plain http is refused unless the
 * host is this machine.
 */
export function checkedUrl(node: INode, raw: string, what: string): URL {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		throw new NodeOperationError(node, `The ${what} "${raw}" is not a valid URL`, {
			description: 'Use a full address such as https://api.example.com',
		});
	}
	const allowed = ALLOWED_URL.test(raw.trim());
	if (allowed && (url.protocol === 'https:' || url.protocol === 'http:')) return url;
	if (url.protocol === 'http:') {
		throw new NodeOperationError(node, `The ${what} must use https, not plain http`, {
			description:
				'Plain http would expose the API key and your data on the network. It is accepted only for loopback hosts (localhost, 127.0.0.0/8, [::1]), such as the local sandbox.',
		});
	}
	throw new NodeOperationError(node, `The ${what} must start with https://`, {
		description: `"${url.protocol}" is not supported`,
	});
}

/** The credential as the transport uses it: the key, the checked Base URL, the rate and the wait. */
export async function apiSettings(this: N8nContext): Promise<ApiSettings> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : '';
	const node = this.getNode();
	if (!apiKey) {
		throw new NodeOperationError(node, 'The credential has no API key', {
			description: "Paste the key created in the account's API-access area into the credential",
		});
	}
	const url = checkedUrl(node, String(credentials.baseUrl ?? ''), 'Base URL');
	const path = url.pathname.replace(API_ROOT_SUFFIX, '');
	const rate = Number(credentials.requestsPerMinute);
	const waitMinutes = Number(credentials.rateLimitWaitMinutes);
	return {
		apiKey,
		baseUrl: `${url.origin}${path}`,
		requestsPerMinute: Number.isFinite(rate) && rate >= 1 ? Math.floor(rate) : LIMITS.ratePerMinute,
		rateLimitDeadlineMs:
			Number.isFinite(waitMinutes) && waitMinutes > 0
				? waitMinutes * 60_000
				: RETRY.rateLimitDeadlineMs,
	};
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'EAI_AGAIN',
	'ENOTFOUND',
	'UND_ERR_SOCKET',
]);

/** Finds an errno-style code anywhere on an error or its causes (n8n wraps the axios error). */
export function errorCode(error: unknown, seen = new Set<unknown>()): string | undefined {
	if (typeof error !== 'object' || error === null || seen.has(error)) return undefined;
	seen.add(error);
	const record = error as Record<string, unknown>;
	if (typeof record.code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(record.code))
		return record.code;
	for (const key of ['cause', 'error', 'reason', 'errorResponse']) {
		const found = errorCode(record[key], seen);
		if (found) return found;
	}
	const message = typeof record.message === 'string' ? record.message : '';
	if (/socket hang up/i.test(message)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded/i.test(message)) return 'ETIMEDOUT';
	return undefined;
}

/** Classifies a thrown request error; undefined when it is not a network failure at all. */
export function networkFailure(error: unknown): NetworkFailure | undefined {
	const code = errorCode(error);
	if (code === 'ECONNREFUSED') return { kind: 'refused' };
	if (code !== undefined && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) {
		return { kind: 'network', code, detail: code };
	}
	return undefined;
}

/** The response body as bytes, whatever the HTTP client handed back. */
function bodyBytes(response: IN8nHttpFullResponse): Buffer {
	return Buffer.isBuffer(response.body) ? response.body : Buffer.from(String(response.body ?? ''));
}

/**
 * Waits for one request of n8n's helper (sent with `returnFullResponse` and
 * `ignoreHttpStatusErrors`) and says how it ended; it never throws. The API
 * request and the signed-link download both go through it, so nothing after
 * it handles a thrown request error (whose request config carries the
 * Authorization header) and every answer, whatever its status, arrives in the
 * same shape.
 */
export async function resultOf(pending: Promise<unknown>): Promise<HttpResult> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await pending) as IN8nHttpFullResponse;
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const failure = networkFailure(error);
		return failure === undefined
			? { kind: 'error', message }
			: { kind: 'failed', failure, message };
	}
	return {
		kind: 'answered',
		answer: {
			status: response.statusCode,
			statusText: response.statusMessage,
			headers: (response.headers ?? {}) as Record<string, unknown>,
			body: bodyBytes(response),
		},
	};
}

/** Whether the user stopped the execution; waits check it so a long 429 wait ends promptly. */
export function cancelled(context: N8nContext): boolean {
	return (
		'getExecutionCancelSignal' in context && context.getExecutionCancelSignal()?.aborted === true
	);
}

/** The helper's options for a call, built once per request and reused for every repeat. */
export function requestOptions(settings: ApiSettings, call: ApiCall): IHttpRequestOptions {
	return {
		method: call.method,
		url: settings.baseUrl + endpointPath(call.endpoint, call.pathParams),
		qs: call.qs,
		// The API reads a repeated array parameter as tag=a&tag=b (no brackets, no commas).
		arrayFormat: 'repeat',
		body: call.body as IHttpRequestOptions['body'],
		// A plain object is sent as JSON; FormData gets its multipart boundary from the HTTP client.
		json: call.body !== undefined && !(call.body instanceof FormData) ? true : undefined,
		headers: { Accept: 'application/json' },
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The key goes to the Base URL only: the API does not redirect, so a redirect
		// is not followed at all but fails with where it pointed (redirectRefused).
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: call.upload ? RETRY.uploadTimeoutMs : RETRY.timeoutMs,
	};
}

/**
 * The error for an API answer that redirects: the request is not followed, so
 * the key never reaches the place it points to. Names that place's origin, so
 * the user can tell a moved API (put it in the Base URL) from a wrong address.
 */
export function redirectRefused(node: INode, answer: HttpAnswer, from: string): NodeOperationError {
	const location = typeof answer.headers.location === 'string' ? answer.headers.location : '';
	let where = 'an address it did not give';
	try {
		where = new URL(location, from).origin;
	} catch {
		// an unreadable Location: said as such
	}
	return new NodeOperationError(
		node,
		`The API answered with a redirect (HTTP ${answer.status}) to ${where}; it was not followed`,
		{
			description: `The API does not redirect, so the API key is not sent where a redirect points. If ${where} is your account's API address, put it in the credential's Base URL; otherwise check the Base URL.`,
		},
	);
}

/** Sends once, with the credential's key added by n8n; never throws, whatever happened. */
export async function sendOnce(
	this: N8nContext,
	options: IHttpRequestOptions,
): Promise<HttpResult> {
	return await resultOf(
		this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options),
	);
}

/**
 * Sends one API request, pacing it against the key's budget and repeating it
 * where that is harmless. Returns the parsed 2xx answer; throws a mapped error
 * otherwise. A 429 pauses every caller of the key in this n8n instance and lowers
 * the instance's rate (retry.ts); waiting is bounded by a deadline counted
 * from the request's first 429, not by a number of attempts.
 */
export async function sendApiRequest(
	this: N8nContext,
	settings: ApiSettings,
	call: ApiCall,
): Promise<ApiAnswer> {
	const pacer = pacerFor(settings.apiKey, settings.requestsPerMinute);
	const options = requestOptions(settings, call);
	const attempts = noAttempts();
	for (;;) {
		const release = await pacer.acquire(() => cancelled(this));
		const result = await sendOnce.call(this, options);
		const decision = decideRetry(result, attempts, {
			method: call.method,
			now: Date.now(),
			rateLimitDeadlineMs: settings.rateLimitDeadlineMs,
			stopped: cancelled(this),
		});
		release(decision.pacer);
		if (result.kind === 'answered' && isRedirect(result.answer.status))
			throw redirectRefused(this.getNode(), result.answer, options.url);
		if (decision.action === 'return') return { json: decision.json, headers: decision.headers };
		if (decision.action === 'fail')
			throw requestError(this.getNode(), call, result, attempts, settings);
		if (decision.waitMs > 0) await sleep(decision.waitMs);
	}
}

/** One API call with the credential read for it; a list reads it once and calls sendApiRequest. */
export async function callApi(this: N8nContext, call: ApiCall): Promise<ApiAnswer> {
	return await sendApiRequest.call(this, await apiSettings.call(this), call);
}

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
