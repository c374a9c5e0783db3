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

import type { EndpointKey } from '../endpoints';
import { megabytes } from '../rules/formats';
import { boundedBody, errorBody, redact } from './error-body';
import { duration, TRANSPORT_LIMITS } from './limits';
import { type Attempts, isSuccess } from './retry';
import {
	hint,
	isWebPage,
	serverMessage,
	text,
	WEB_PAGE_HINT,
	webPageMessage,
} from './status-hints';
import type { ApiCall, ApiSettings, Failure, HttpAnswer, HttpResult } from './types';

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

/** What went wrong with a GET, for the user: the headline and what was tried. */
function readFailure(failure: Failure, attempts: number): [string, string] {
	switch (failure.kind) {
		case 'network':
			return [
				'The connection to the API failed',
				`Network error ${failure.code} after ${attempts} attempt(s). Check the Base URL and the network, then try again.`,
			];
		case 'deadline':
			return [
				`The API did not answer within ${duration(failure.ms)}`,
				`An attempt may take ${duration(failure.ms)} in all, the whole answer included; the API (or a proxy in front of it) sent too slowly or not at all. Tried ${attempts} times; try again later.`,
			];
		default:
			return [
				'The API answered with data that could not be read',
				`The answer was not valid JSON after ${attempts} attempt(s). Try again later.`,
			];
	}
}

/** What went wrong with a write that may have been applied, for the user. */
function writeFailure(call: WriteCall, failure: Failure): [string, string] {
	const { what, why } = describeWrite(call);
	if (failure.kind === 'network')
		return [
			`${what}: the connection broke before the API answered`,
			`${why} (network error ${failure.code})`,
		];
	if (failure.kind === 'deadline')
		return [`${what}: the API did not finish answering within ${duration(failure.ms)}`, why];
	return [`${what}, but its answer could not be read`, why];
}

/** No HTTP answer (refused, reset, past the deadline), or a 2xx answer that is not JSON. */
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
	const [message, description] =
		call.method === 'GET' ? readFailure(failure, attempts) : writeFailure(call, failure);
	return transportError(node, message, description, apiKey);
}

/**
 * A 2xx answer over the size limit: never an answer of the API, whose largest
 * is a page of records. A GET is not asked again (it would be as large again);
 * a write was done (2xx), only its answer is lost.
 */
function oversizedError(
	node: INode,
	call: WriteCall,
	answer: HttpAnswer,
	apiKey: string,
): NodeApiError {
	const limit = megabytes(TRANSPORT_LIMITS.answerBytes);
	const announced = answer.oversized?.announcedBytes;
	const size = announced === undefined ? '' : ` (it announced ${megabytes(announced)})`;
	const tooLarge = `answer is larger than ${limit}, the most an answer may be${size}`;
	const why = `The largest answer of the API is a page of 200 records, well under that, so this is not one: check the Base URL in the credential; a proxy or a fault of the API may send it. The answer was read no further.`;
	if (call.method === 'GET')
		return transportError(
			node,
			`The API's ${tooLarge}`,
			`${why} It was not asked again: it would be as large again.`,
			apiKey,
		);
	return transportError(
		node,
		`The API accepted the request (HTTP ${answer.status}), but its ${tooLarge}`,
		`${why} The change was made and was not sent again; check the record in the account.`,
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

/** A request whose wait for a free slot of the key's pacer would pass its rate-limit deadline. */
export function rateLimitWaitError(
	node: INode,
	settings: ApiSettings,
	attempts: Attempts,
): NodeApiError {
	return transportError(
		node,
		`No free slot of the key's rate limit came within ${duration(settings.rateLimitDeadlineMs)}; the request was not sent`,
		`Requests of this key were paused by the API's 429 answers, or other executions used up its budget. ${rateLimitNote(settings, attempts)}`,
		settings.apiKey,
	);
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
	if (isSuccess(result.answer.status) && result.answer.oversized)
		return oversizedError(node, call, result.answer, apiKey);
	if (isSuccess(result.answer.status))
		return failureError(node, call, { kind: 'malformed' }, attempts.tries, apiKey);
	return answerError(node, call, result.answer, attempts, settings);
}
