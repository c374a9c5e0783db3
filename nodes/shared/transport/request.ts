/**
 * The API request: the one place that calls n8n's
 * `httpRequestWithAuthentication`. Its steps each live in their own file and
 * are tested on their own: wait for the rate budget (./pacer.ts), send once
 * (`sendOnce`, with ./exchange.ts), decide whether and when to repeat
 * (`nextStep` in ./retry.ts), and say why it failed (./failures.ts).
 * Signed-link downloads are a different kind of exchange (no key, no pacing),
 * in ./download.ts.
 */
import type { IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { endpointPath } from '../endpoints';
import { cancelled, type Exchange, type HttpAnswer, settle } from './exchange';
import { requestError } from './failures';
import { pacerFor } from './pacer';
import { nextStep, noAttempts, RETRY } from './retry';
import { type ApiSettings, apiSettings, CREDENTIAL_TYPE } from './settings';
import type { ApiAnswer, ApiCall, N8nContext } from './types';

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

const isRedirect = (status: number) => status >= 300 && status < 400;

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
export async function sendOnce(this: N8nContext, options: IHttpRequestOptions): Promise<Exchange> {
	return await settle(
		this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options),
	);
}

/**
 * Sends one API request, pacing it against the key's budget and repeating it
 * where that is harmless. Returns the parsed 2xx answer; throws a mapped error
 * otherwise. A 429 pauses every caller of the key in this n8n instance and lowers
 * the instance's rate (./pacer.ts); waiting is bounded by a deadline counted
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
		const exchange = await sendOnce.call(this, options);
		const step = nextStep(exchange, attempts, {
			method: call.method,
			now: Date.now(),
			rateLimitDeadlineMs: settings.rateLimitDeadlineMs,
			stopped: cancelled(this),
		});
		release(step.pacer);
		if (exchange.kind === 'answered' && isRedirect(exchange.answer.status))
			throw redirectRefused(this.getNode(), exchange.answer, options.url);
		if (step.then === 'return') return { json: step.json, headers: step.headers };
		if (step.then === 'fail')
			throw requestError(this.getNode(), call, exchange, attempts, settings);
		if (step.waitMs > 0) await sleep(step.waitMs);
	}
}

/** One API call with the credential read for it; a list walk reads it once and calls sendApiRequest. */
export async function callApi(this: N8nContext, call: ApiCall): Promise<ApiAnswer> {
	return await sendApiRequest.call(this, await apiSettings.call(this), call);
}
