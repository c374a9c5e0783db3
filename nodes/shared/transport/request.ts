/**
 * The API request: the one place that calls n8n's
 * `httpRequestWithAuthentication`. Its steps each live in their own file and
 * are tested on their own: wait for the rate budget (./pacer.ts), send once
 * (`sendOnce`, with ./exchange.ts), decide whether and when to repeat
 * (`nextStep` in ./retry.ts), and say why it failed (./failures.ts).
 * Signed-link downloads are a different kind of exchange (no key, no pacing),
 * in ./download.ts.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { endpointPath } from '../endpoints';
import { cancelled, type Exchange, settle } from './exchange';
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
		// The key goes to the Base URL only, never to a host a redirect points to.
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: call.upload ? RETRY.uploadTimeoutMs : RETRY.timeoutMs,
	};
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
