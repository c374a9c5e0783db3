/**
 * The retry policy's pure parts: which failures may be repeated for which
 * method, how n8n-wrapped network errors are recognised, Retry-After, backoff.
 * (The whole decision after one attempt is test/transport/decide-retry.test.ts.)
 */
import { errorCode, networkFailure } from '../../nodes/shared/transport/answer';
import {
	backoffBeforeRetry,
	backoffMs,
	isRetryable,
	RETRY,
	retryAfterMs,
} from '../../nodes/shared/transport/retry';

describe('isRetryable', () => {
	it.each([
		['GET', { kind: 'status', status: 500 }, true],
		['GET', { kind: 'status', status: 503 }, true],
		['GET', { kind: 'status', status: 404 }, false],
		['GET', { kind: 'network', code: 'ECONNRESET', detail: '' }, true],
		['GET', { kind: 'network', code: 'ETIMEDOUT', detail: '' }, true],
		['GET', { kind: 'network', code: 'ENOTFOUND', detail: '' }, false],
		['GET', { kind: 'malformed' }, true],
		['GET', { kind: 'refused' }, true],
		['POST', { kind: 'status', status: 500 }, false],
		['POST', { kind: 'network', code: 'ECONNRESET', detail: '' }, false],
		['POST', { kind: 'network', code: 'ETIMEDOUT', detail: '' }, false],
		['PATCH', { kind: 'malformed' }, false],
		['DELETE', { kind: 'status', status: 502 }, false],
		['POST', { kind: 'refused' }, true],
		['DELETE', { kind: 'refused' }, true],
	] as const)('%s on %o: %s', (method, failure, expected) => {
		expect(isRetryable(failure, method, 1)).toBe(expected);
	});

	it('stops after the bounded number of attempts', () => {
		expect(isRetryable({ kind: 'status', status: 500 }, 'GET', RETRY.maxAttempts - 1)).toBe(true);
		expect(isRetryable({ kind: 'status', status: 500 }, 'GET', RETRY.maxAttempts)).toBe(false);
		expect(isRetryable({ kind: 'refused' }, 'POST', RETRY.maxRefusedAttempts)).toBe(false);
	});
});

describe('network failures as n8n hands them over', () => {
	it('finds the code on a wrapped cause', () => {
		const axiosLike = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
			code: 'ECONNREFUSED',
		});
		const wrapped = Object.assign(new Error('The service refused the connection'), {
			cause: axiosLike,
		});
		expect(networkFailure(wrapped)).toEqual({ kind: 'refused' });
	});
	it('reads "socket hang up" and axios timeouts without a code', () => {
		expect(errorCode(new Error('socket hang up'))).toBe('ECONNRESET');
		expect(errorCode({ message: 'timeout of 60000ms exceeded' })).toBe('ETIMEDOUT');
		expect(networkFailure(new Error('socket hang up'))).toEqual({
			kind: 'network',
			code: 'ECONNRESET',
			detail: 'ECONNRESET',
		});
	});
	it('is undefined for errors that are not network failures', () => {
		expect(networkFailure(new Error('Invalid URL'))).toBeUndefined();
	});
	it.each([
		[
			'an undici socket code not in the list',
			{ code: 'UND_ERR_CONNECT_TIMEOUT' },
			'UND_ERR_CONNECT_TIMEOUT',
		],
		['a code that is not a network failure', { code: 'ERR_INVALID_URL' }, undefined],
		[
			'a reset under the errorResponse n8n wraps it in',
			{ message: 'x', errorResponse: { code: 'ECONNRESET' } },
			'ECONNRESET',
		],
		[
			'a reset under an outer code that is not errno-like',
			{ code: 'ERR_HTTP2_STREAM_ERROR', cause: { code: 'ECONNRESET' } },
			'ECONNRESET',
		],
		['an error whose cause is null', { message: 'Invalid URL', cause: null }, undefined],
	])('%s', (_case, error, code) => {
		expect(networkFailure(error)).toEqual(
			code === undefined ? undefined : { kind: 'network', code, detail: code },
		);
	});
});

describe('Retry-After (seconds, or none) and backoff', () => {
	it('reads seconds and HTTP dates, ignores garbage', () => {
		expect(retryAfterMs('3')).toBe(3000);
		expect(retryAfterMs(['2'])).toBe(2000);
		// A helper other than axios may hand a header over as a number.
		expect(retryAfterMs(7)).toBe(7000);
		expect(
			retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
		).toBe(10_000);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
	});
	it('backs off exponentially with jitter between half and the full step, capped', () => {
		for (let attempt = 1; attempt <= 10; attempt++) {
			const step = Math.min(RETRY.backoffMaxMs, RETRY.backoffBaseMs * 2 ** (attempt - 1));
			const wait = backoffMs(attempt);
			expect(wait).toBeGreaterThanOrEqual(step / 2);
			expect(wait).toBeLessThanOrEqual(step);
		}
	});
});

describe('backoffBeforeRetry', () => {
	it('is a backoff for the n-th attempt when the failure may be repeated', () => {
		const wait = backoffBeforeRetry({ kind: 'status', status: 503 }, 'GET', 2, false);
		expect(wait).toBeGreaterThanOrEqual(RETRY.backoffBaseMs);
		expect(wait).toBeLessThanOrEqual(2 * RETRY.backoffBaseMs);
	});

	it('is undefined when the failure must not be repeated, or the user stopped the execution', () => {
		expect(backoffBeforeRetry({ kind: 'status', status: 503 }, 'POST', 1, false)).toBeUndefined();
		expect(
			backoffBeforeRetry({ kind: 'status', status: 503 }, 'GET', RETRY.maxAttempts, false),
		).toBeUndefined();
		expect(backoffBeforeRetry({ kind: 'status', status: 503 }, 'GET', 1, true)).toBeUndefined();
		expect(backoffBeforeRetry({ kind: 'refused' }, 'POST', 1, true)).toBeUndefined();
	});
});
