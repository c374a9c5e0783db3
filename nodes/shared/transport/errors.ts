/**
 * The errors the transport ends with, in words for the user: the server's
 * message, the HTTP status and a hint; for a request that failed, what
 * happened, what was tried, and, for a write that may have reached the
 * server, why it was not sent again and what to check. Errors are built from
 * scratch (never by wrapping n8n's request error, whose axios config carries
 * the Authorization header), and every text is scrubbed of the API key.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import { megabytes } from '../rules/formats';
import { boundedBody, errorBody, redact } from './error-body';
import { type Attempts, isSuccess } from './retry';
import type { ApiCall, ApiSettings, Failure, HttpAnswer, HttpResult } from './types';

interface ServerMessage {
	message?: string;
	param?: string;
	code?: string;
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * Reads the message from each error body shape: the API documents
 * {"error":{"code","message","param"}}, and {"message"}, {"error":"..."} and
 * {"errors":[{"title","detail"}]} are read too in case a proxy or a later
 * version answers so.
 */
function serverMessage(body: unknown): ServerMessage {
	if (typeof body === 'string') return { message: text(body.slice(0, 500)) };
	if (body === null || typeof body !== 'object') return {};
	const record = body as Record<string, unknown>;
	const error = record.error;
	if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
		const nested = error as Record<string, unknown>;
		return { message: text(nested.message), param: text(nested.param), code: text(nested.code) };
	}
	if (text(error)) return { message: text(error) };
	if (text(record.message)) return { message: text(record.message) };
	if (Array.isArray(record.errors)) {
		const parts = record.errors
			.map((entry: unknown) => {
				const item = (entry ?? {}) as Record<string, unknown>;
				return [text(item.title), text(item.detail)].filter(Boolean).join(': ');
			})
			.filter(Boolean);
		if (parts.length > 0) return { message: parts.join('; ') };
	}
	return {};
}

/**
 * Whether an error body is a web page (a website, a proxy's error page or
 * n8n's own editor answered instead of the API). The pattern is anchored at
 * the start of a body already cut to its bound, so it reads only the start; a
 * doctype may put any run of blanks before `html`.
 */
function isWebPage(body: unknown): boolean {
	return (
		typeof body === 'string' &&
		/^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|!--)/i.test(body.trimStart())
	);
}

/** The headline for a web page: what answered, never the page itself. */
function webPageMessage(endpoint: EndpointKey | undefined): string {
	return endpoint === undefined
		? 'The file host answered with a web page, not the file'
		: 'The Base URL answered with a web page, not the API';
}

const WEB_PAGE_HINT =
	'Check the Base URL in the credential: it must be the API address of your account (without /v1), not a website or the address of n8n itself. The credential test tells the two apart.';

const RESOURCE_OF_PATH_PARAM: Record<string, string> = {
	contact_id: 'contact',
	inspection_id: 'inspection',
};

/** The hint for a status, or undefined when the server's message says it all. */
function hint(
	status: number,
	found: ServerMessage,
	endpoint: EndpointKey | undefined,
	pathParams: Record<string, string>,
): string | undefined {
	if (endpoint === undefined) {
		// A signed link, not an API endpoint: it expires, and a fresh record carries a fresh one.
		return status >= 400 && status < 500
			? `Signed links are valid for ${LIMITS.signedLinkTtlMs / 3_600_000} hour; fetch the record again for a fresh link.`
			: undefined;
	}
	switch (status) {
		case 400:
			if (found.param === 'cursor' || /cursor/i.test(found.message ?? '')) {
				return 'The page cursor does not match this request: the sort or the filters changed between pages. Run the node again to start from the first page.';
			}
			return found.param ? `Check the parameter "${found.param}".` : undefined;
		case 401:
			return 'Check the API key in the credential. A key also stops working when the user who created it is deactivated; create a new key in the business tools then.';
		case 403:
			return 'The key is valid but may not do this; check the permissions of the user who created it.';
		case 404: {
			// The API answers 404 to an id in the path that the account does not have.
			const described = ENDPOINTS[endpoint].pathParams
				.filter((name) => pathParams[name] !== undefined)
				.map((name) => `${RESOURCE_OF_PATH_PARAM[name] ?? name} "${pathParams[name]}"`);
			return described.length > 0
				? `No ${described.join(' or ')} with this ID exists in the account the key belongs to.`
				: 'The address was not found; check the Base URL in the credential (without /v1).';
		}
		case 413:
			return `The file is too large: a contact photo or a document may be at most ${megabytes(LIMITS.photoMaxBytes)}, a report ${megabytes(LIMITS.reportMaxBytes)}.`;
		case 429:
			return 'The rate limit of the key owner was exceeded and did not clear in time. Try a lower Requests per Minute in the credential, or run fewer workflows with keys of the same user at once.';
		default:
			return status >= 500 ? 'The server had a problem. Try again later.' : undefined;
	}
}

interface StatusErrorInput {
	status: number;
	statusText?: string;
	body: unknown;
	/** Undefined for a signed link. */
	endpoint?: EndpointKey;
	pathParams: Record<string, string>;
	apiKey: string;
	/** Extra sentence, e.g. about retries or an upload that was not re-sent. */
	note?: string;
}

export function statusError(node: INode, input: StatusErrorInput): NodeApiError {
	// Bounded before anything reads it: nothing below walks more than its limits.
	const body = boundedBody(input.body, input.apiKey);
	const webPage = isWebPage(body);
	const found = webPage ? {} : serverMessage(body);
	const serverText = webPage
		? webPageMessage(input.endpoint)
		: (found.message ?? text(input.statusText) ?? 'Request failed');
	// A 5xx page usually comes from a proxy in front of the API: the server hint fits it.
	const pageHint =
		webPage && input.endpoint !== undefined && input.status < 500 ? WEB_PAGE_HINT : undefined;
	const description = [
		pageHint ?? hint(input.status, found, input.endpoint, input.pathParams),
		input.note,
	]
		.filter(Boolean)
		.join(' ');
	return new NodeApiError(node, { status: input.status, body } as JsonObject, {
		message: redact(`${serverText} (HTTP ${input.status})`, input.apiKey),
		description: redact(description, input.apiKey) || undefined,
		httpCode: String(input.status),
	});
}

/** A failure without an HTTP answer (reset, timeout, refused, DNS), or an unreadable answer. */
export function transportError(
	node: INode,
	message: string,
	description: string,
	apiKey: string,
): NodeApiError {
	return new NodeApiError(node, {} as JsonObject, {
		message: redact(message, apiKey),
		description: redact(description, apiKey),
	});
}

type WriteCall = Pick<ApiCall, 'method' | 'endpoint' | 'upload'>;

/** For a write that may have been applied: what may have happened, and why it was not repeated. */
function describeWrite(call: WriteCall): { what: string; why: string } {
	if (call.upload === 'report') {
		return {
			what: 'The report upload may have been received',
			why: "Each report upload makes the account email the client, so it was not re-sent. Check the inspection's attachments before uploading it again; with Skip Duplicates on, a re-run outputs the report if it arrived instead of uploading it again.",
		};
	}
	if (call.endpoint === 'createContact') {
		return {
			what: 'The request may have been applied',
			why: 'A POST is not repeated automatically when it may have reached the server: the contact may exist now, and a re-run would create a second one. Look it up by email (Contact > Get Many, Email filter) before running it again; Contact > Create or Update is the operation that is safe to retry.',
		};
	}
	if (call.upload) {
		return {
			what: 'The upload may have been received',
			why: 'It was not re-sent, to avoid a duplicate. Check the record before uploading it again.',
		};
	}
	return {
		what: 'The request may have been applied',
		why: `A ${call.method} is not repeated automatically when it may have reached the server. Check the record before running it again.`,
	};
}

/** No HTTP answer (refused, reset, timeout), or a 2xx answer that is not JSON. */
function failureError(
	node: INode,
	call: WriteCall,
	failure: Failure,
	attempts: number,
	apiKey: string,
): NodeApiError {
	if (failure.kind === 'refused') {
		return transportError(
			node,
			'The API host refused the connection',
			`Nothing was sent. Tried ${attempts} times; check the Base URL and that the API is reachable from n8n.`,
			apiKey,
		);
	}
	if (call.method !== 'GET') {
		const { what, why } = describeWrite(call);
		return failure.kind === 'network'
			? transportError(
					node,
					`${what}: the connection broke before the API answered`,
					`${why} (network error ${failure.code})`,
					apiKey,
				)
			: transportError(node, `${what}, but its answer could not be read`, why, apiKey);
	}
	return failure.kind === 'network'
		? transportError(
				node,
				'The connection to the API failed',
				`Network error ${failure.code} after ${attempts} attempt(s). Check the Base URL and the network, then try again.`,
				apiKey,
			)
		: transportError(
				node,
				'The API answered with data that could not be read',
				`The answer was not valid JSON after ${attempts} attempt(s). Try again later.`,
				apiKey,
			);
}

/** Why a request stopped waiting for the rate limit: the deadline, what was sent, how to wait longer. */
function rateLimitNote(settings: ApiSettings, attempts: Attempts): string {
	const minutes = settings.rateLimitDeadlineMs / 60_000;
	return (
		`This request was sent ${attempts.sent} times and answered 429 ${attempts.limited} times; the wait for the rate limit ` +
		`is bounded at ${minutes} minute(s) per request ("Wait for Rate Limit" in the credential: raise it to wait longer). ` +
		`The key's budget is ${settings.requestsPerMinute} requests per minute, shared by every workflow and n8n instance using the key.`
	);
}

/** The sentence added to the server's own error message: what was tried, or why a write was not repeated. */
function answerNote(
	call: ApiCall,
	status: number,
	attempts: Attempts,
	settings: ApiSettings,
): string | undefined {
	if (status === 429) return rateLimitNote(settings, attempts);
	if (status < 500) return undefined;
	if (call.method !== 'GET') return Object.values(describeWrite(call)).join('. ') + '.';
	return `Tried ${attempts.tries} times.`;
}

function answerError(
	node: INode,
	call: ApiCall,
	answer: HttpAnswer,
	attempts: Attempts,
	settings: ApiSettings,
): NodeApiError {
	return statusError(node, {
		status: answer.status,
		statusText: answer.statusText,
		body: errorBody(answer.body),
		endpoint: call.endpoint,
		pathParams: call.pathParams,
		apiKey: settings.apiKey,
		note: answerNote(call, answer.status, attempts, settings),
	});
}

/** The error for the last attempt of a request that `decideRetry` decided to fail. */
export function requestError(
	node: INode,
	call: ApiCall,
	result: HttpResult,
	attempts: Attempts,
	settings: ApiSettings,
): NodeApiError {
	const { apiKey } = settings;
	if (result.kind === 'error')
		return transportError(node, 'The request could not be sent', result.message, apiKey);
	if (result.kind === 'failed')
		return failureError(node, call, result.failure, attempts.tries, apiKey);
	if (isSuccess(result.answer.status))
		return failureError(node, call, { kind: 'malformed' }, attempts.tries, apiKey);
	return answerError(node, call, result.answer, attempts, settings);
}
