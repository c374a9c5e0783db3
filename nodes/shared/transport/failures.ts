/**
 * The error an API request ends with, in words for the user: what happened,
 * what was tried, and, for a write that may have reached the server, why it
 * was not sent again and what to check. Every text goes through ./errors.ts,
 * which scrubs the API key.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { errorBody, type Exchange, type Failure, type HttpAnswer, isSuccess } from './exchange';
import { statusError, transportError } from './errors';
import type { Attempts } from './retry';
import type { ApiSettings } from './settings';
import type { ApiCall } from './types';

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

/** The error for the last exchange of a request that `nextStep` decided to fail. */
export function requestError(
	node: INode,
	call: ApiCall,
	exchange: Exchange,
	attempts: Attempts,
	settings: ApiSettings,
): NodeApiError {
	const { apiKey } = settings;
	if (exchange.kind === 'error')
		return transportError(node, 'The request could not be sent', exchange.message, apiKey);
	if (exchange.kind === 'failed')
		return failureError(node, call, exchange.failure, attempts.tries, apiKey);
	if (isSuccess(exchange.answer.status))
		return failureError(node, call, { kind: 'malformed' }, attempts.tries, apiKey);
	return answerError(node, call, exchange.answer, attempts, settings);
}
