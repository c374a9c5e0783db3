/**
 * The error an API request ends with (`requestError`), for each way its last
 * exchange ended: what the user reads, what was tried, and, for a write that
 * may have reached the server, why it was not sent again. The API key never
 * appears in it. Pure: the exchanges are built by hand.
 */

import { requestError } from '../../nodes/shared/transport/errors';
import type { Attempts } from '../../nodes/shared/transport/retry';
import type { HttpResult, ApiSettings, ApiCall } from '../../nodes/shared/transport/types';
import { expectNoSecret, TEST_NODE } from './plain';

const KEY = 'ib_live_failures_test_key';
const settings: ApiSettings = {
	apiKey: KEY,
	baseUrl: 'https://api.example.com',
	requestsPerMinute: 120,
	rateLimitDeadlineMs: 10 * 60_000,
};
const listTags: ApiCall = { method: 'GET', endpoint: 'listTags', pathParams: {} };
const createContact: ApiCall = { method: 'POST', endpoint: 'createContact', pathParams: {} };
const reportUpload: ApiCall = {
	method: 'POST',
	endpoint: 'uploadAttachment',
	pathParams: { inspection_id: '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d' },
	upload: 'report',
};
const photoUpload: ApiCall = {
	method: 'POST',
	endpoint: 'uploadContactPhoto',
	pathParams: { contact_id: '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d' },
	upload: 'photo',
};
const tried = (tries: number, extra: Partial<Attempts> = {}): Attempts => ({
	tries,
	sent: tries,
	limited: 0,
	...extra,
});
const reset: HttpResult = {
	kind: 'failed',
	failure: { kind: 'network', code: 'ECONNRESET', detail: 'ECONNRESET' },
	message: 'socket hang up',
};
const answered = (status: number, body: string): HttpResult => ({
	kind: 'answered',
	answer: { status, headers: {}, body: Buffer.from(body) },
});
const describedError = (call: ApiCall, exchange: HttpResult, attempts: Attempts) =>
	requestError(TEST_NODE, call, exchange, attempts, settings) as Error & {
		description?: string;
		httpCode?: string;
	};

it('a refused connection: nothing was sent, and how often it was tried', () => {
	const exchange: HttpResult = { kind: 'failed', failure: { kind: 'refused' }, message: 'x' };
	const error = describedError(createContact, exchange, tried(4));
	expect(error.message).toBe('The API host refused the connection');
	expect(error.description).toMatch(/^Nothing was sent\. Tried 4 times; check the Base URL/);
});

it('a GET whose connection broke: the network error and the attempts', () => {
	const error = describedError(listTags, reset, tried(4));
	expect(error.message).toBe('The connection to the API failed');
	expect(error.description).toMatch(/^Network error ECONNRESET after 4 attempt\(s\)\./);
});

it('a contact create whose connection broke: it may exist now, and Create or Update is safe to retry', () => {
	const error = describedError(createContact, reset, tried(1));
	expect(error.message).toBe(
		'The request may have been applied: the connection broke before the API answered',
	);
	expect(error.description).toMatch(/not repeated automatically.*Create or Update.*ECONNRESET/);
});

it('a report upload whose answer was lost: it emails the client, so it was not re-sent', () => {
	const error = describedError(reportUpload, reset, tried(1));
	expect(error.message).toMatch(/^The report upload may have been received/);
	expect(error.description).toMatch(/email the client, so it was not re-sent.*Skip Duplicates/);
});

it('a 2xx that is not JSON: for a GET after its attempts, for a write as "may have been applied"', () => {
	expect(describedError(listTags, answered(200, '{"data": ['), tried(4)).description).toBe(
		'The answer was not valid JSON after 4 attempt(s). Try again later.',
	);
	expect(describedError(createContact, answered(201, '{"id'), tried(1)).message).toBe(
		'The request may have been applied, but its answer could not be read',
	);
	// An upload other than a report: why it was not re-sent, and what to check.
	expect(describedError(photoUpload, answered(201, '{"id'), tried(1)).description).toEqual(
		expect.any(String),
	);
});

it("an error answer keeps the server's message and status; a GET's 5xx says how often it was tried", () => {
	const error = describedError(listTags, answered(503, '{"message":"busy"}'), tried(4));
	expect(error.message).toBe('busy (HTTP 503)');
	expect(error.httpCode).toBe('503');
	expect(error.description).toMatch(/Tried 4 times\.$/);
});

it("a write's 5xx says why it was not repeated", () => {
	const error = describedError(reportUpload, answered(500, '{"message":"oops"}'), tried(1));
	expect(error.description).toMatch(/may have been received.*not re-sent/);
});

it('a 429 that outlasted the deadline: what was sent, the deadline and how to raise it', () => {
	const error = describedError(
		listTags,
		answered(429, '{"error":{"code":"rate_limited","message":"Slow down"}}'),
		tried(0, { sent: 3, limited: 3 }),
	);
	expect(error.message).toBe('Slow down (HTTP 429)');
	expect(error.description).toMatch(/sent 3 times and answered 429 3 times/);
	expect(error.description).toMatch(/bounded at 10 minute\(s\).*Wait for Rate Limit/);
	expect(error.description).toMatch(/budget is 120 requests per minute/);
});

it('never carries the key, even when the server or the HTTP client echo it', () => {
	expectNoSecret(
		describedError(listTags, { kind: 'error', message: `Bad header Bearer ${KEY}` }, tried(1)),
		KEY,
	);
	expectNoSecret(
		describedError(
			listTags,
			answered(401, JSON.stringify({ message: `Invalid key ${KEY}` })),
			tried(1),
		),
		KEY,
	);
});
