/**
 * The API request: the one place that calls n8n's
 * `httpRequestWithAuthentication`. `apiRequest` checks one call's input by the
 * rule book, `sendApiRequest` paces it against the key's budget (./pacer.ts),
 * sends it once (`sendOnce`, its answer read under the limits of ./limits.ts
 * by ./answer.ts), asks ./retry.ts whether and when to repeat, and ends with
 * ./errors.ts's `requestError` when it fails. The credential is read here
 * (`apiSettings`, with the URL rule `checkedUrl`). Signed-link downloads are a
 * different kind of request (no key, no pacing), in ./download.ts; lists are
 * ./pages.ts.
 */
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, type EndpointKey, endpointPath, LIMITS } from '../endpoints';
import { validateBody, validatePathParams, validateQuery } from '../validation';
import { readAnswer, startAttempt } from './answer';
import { rateLimitWaitError, requestError, transportError } from './errors';
import { TRANSPORT_LIMITS } from './limits';
import { type Outcome, type Pacer, pacerFor, SlotWaitEnded } from './pacer';
import { type Attempts, decideRetry, isRedirect, noAttempts, RETRY } from './retry';
import type { ApiAnswer, ApiCall, ApiSettings, HttpAnswer, HttpResult, N8nContext } from './types';

export { resultOf } from './answer';

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
		// Read as it arrives (./answer.ts), so its size is counted before it is held whole;
		// n8n's client unpacks gzip, deflate and br on the way.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The key goes to the Base URL only: the API does not redirect, so a redirect
		// is not followed at all but fails with where it pointed (redirectRefused).
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
}

/** How long one attempt of `call` may take in all: an upload carries a file. */
export const attemptMs = (call: Pick<ApiCall, 'upload'>) =>
	call.upload ? TRANSPORT_LIMITS.uploadAttemptMs : TRANSPORT_LIMITS.attemptMs;

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

/**
 * Sends once, with the credential's key added by n8n, and reads the answer
 * under the limits (./answer.ts); never throws, whatever happened. n8n's
 * helper aborts a request on the execution's cancel signal, which it takes
 * from the context (overriding the options' own), so the context it is given
 * answers with the attempt's signal: the deadline closes the connection too.
 */
export async function sendOnce(
	this: N8nContext,
	options: IHttpRequestOptions,
	ends: { ms: number; stop?: AbortSignal } = { ms: TRANSPORT_LIMITS.attemptMs },
): Promise<HttpResult> {
	const run = startAttempt(this, ends.ms, ends.stop);
	const context = Object.create(this, {
		getExecutionCancelSignal: { value: () => run.signal },
	}) as N8nContext;
	return await readAnswer(
		this.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, {
			...options,
			abortSignal: run.signal,
		}),
		run,
	);
}

/**
 * A free slot of the key's pacer, waited for at most until the request's
 * rate-limit deadline (the credential's Wait for Rate Limit, counted from the
 * request's first wait for a slot or a 429) and no longer than n8n's Stop.
 */
async function takeSlot(
	this: N8nContext,
	pacer: Pacer,
	attempts: Attempts,
	settings: ApiSettings,
	stop?: AbortSignal,
): Promise<(outcome?: Outcome) => void> {
	try {
		return await pacer.acquire({
			stopped: () => cancelled(this) || stop?.aborted === true,
			deadline: () => (attempts.deadline ??= Date.now() + settings.rateLimitDeadlineMs),
		});
	} catch (error) {
		if (error instanceof SlotWaitEnded && error.reason === 'deadline')
			throw rateLimitWaitError(this.getNode(), settings, attempts);
		// Stopped: by n8n's Stop, or by the caller's end (a webhook batch's deadline).
		const message = error instanceof Error ? error.message : String(error);
		throw new NodeOperationError(this.getNode(), message, {
			description: 'The request was not sent.',
		});
	}
}

/**
 * Sends one API request, pacing it against the key's budget and repeating it
 * where that is harmless. Returns the parsed 2xx answer; throws a mapped error
 * otherwise. A 429 pauses every caller of the key in this n8n instance and lowers
 * the instance's rate (./pacer.ts); waiting is bounded by a deadline counted
 * from the request's first wait, not by a number of attempts. The slot an
 * attempt takes is given back however the attempt ends, a throw included: a
 * slot kept would hold the key's budget until n8n restarts. `stop` ends the
 * request early, as n8n's Stop does (the webhook trigger's batch deadline).
 */
export async function sendApiRequest(
	this: N8nContext,
	settings: ApiSettings,
	call: ApiCall,
	stop?: AbortSignal,
): Promise<ApiAnswer> {
	const pacer = pacerFor(settings.apiKey, settings.requestsPerMinute);
	const options = requestOptions(settings, call);
	const attempts = noAttempts();
	for (;;) {
		const release = await takeSlot.call(this, pacer, attempts, settings, stop);
		let outcome: Outcome = { kind: 'failed' };
		let result: HttpResult;
		let decision: ReturnType<typeof decideRetry>;
		try {
			result = await sendOnce.call(this, options, { ms: attemptMs(call), stop });
			decision = decideRetry(result, attempts, {
				method: call.method,
				now: Date.now(),
				rateLimitDeadlineMs: settings.rateLimitDeadlineMs,
				stopped: cancelled(this) || stop?.aborted === true,
			});
			outcome = decision.pacer;
		} catch (error) {
			// Nothing above throws by design; should anything (a string too long to make, a
			// broken helper), the slot still comes back and the key is scrubbed from the error.
			const message = error instanceof Error ? error.message : String(error);
			throw transportError(
				this.getNode(),
				'The request failed unexpectedly',
				message,
				settings.apiKey,
			);
		} finally {
			release(outcome);
		}
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
