/**
 * The decision after one attempt of an API request (`decideRetry`): return,
 * send again (after how long, and what every other caller of the key must
 * wait), or fail. Pure: no server and no clock, so each rule is one case.
 * The same rules against the sandbox, through a real n8n context, are
 * test/transport/retry.ts.
 */
import {
	type Attempts,
	decideRetry,
	noAttempts,
	RETRY,
	type DecisionContext,
} from '../../nodes/shared/transport/retry';
import type { HttpResult } from '../../nodes/shared/transport/types';

const NOW = 1_000_000;
const get = (overrides: Partial<DecisionContext> = {}): DecisionContext => ({
	method: 'GET',
	now: NOW,
	rateLimitDeadlineMs: RETRY.rateLimitDeadlineMs,
	stopped: false,
	...overrides,
});
const post = (overrides: Partial<DecisionContext> = {}) => get({ method: 'POST', ...overrides });

function answered(status: number, body = '', headers: Record<string, unknown> = {}): HttpResult {
	return { kind: 'answered', answer: { status, headers, body: Buffer.from(body) } };
}
const reset: HttpResult = {
	kind: 'failed',
	failure: { kind: 'network', code: 'ECONNRESET', detail: 'ECONNRESET' },
	message: 'socket hang up',
};
const refused: HttpResult = { kind: 'failed', failure: { kind: 'refused' }, message: 'refused' };
const limited = (retryAfter?: string) =>
	answered(
		429,
		'{"error":{"code":"rate_limited"}}',
		retryAfter === undefined ? {} : { 'retry-after': retryAfter },
	);

describe('an answer', () => {
	it('2xx JSON is returned with its headers; the pacer counts it as answered', () => {
		const attempts = noAttempts();
		const decision = decideRetry(answered(200, '{"data":[]}', { date: 'x' }), attempts, get());
		expect(decision).toEqual({
			action: 'return',
			json: { data: [] },
			headers: { date: 'x' },
			pacer: { kind: 'answered' },
		});
		expect(attempts).toEqual({ tries: 1, sent: 1, limited: 0 });
	});

	it('an empty 2xx body is an empty object', () => {
		expect(decideRetry(answered(204), noAttempts(), get())).toMatchObject({
			action: 'return',
			json: {},
		});
	});

	it('a 2xx that is not JSON is read again for a GET, and fails a write', () => {
		expect(decideRetry(answered(200, '{"data": [{'), noAttempts(), get())).toMatchObject({
			action: 'retry',
			pacer: { kind: 'answered' },
		});
		expect(decideRetry(answered(201, '{"id": "'), noAttempts(), post())).toEqual({
			action: 'fail',
			pacer: { kind: 'answered' },
		});
	});

	it.each([500, 502, 503])('%i: a GET is repeated after a backoff', (status) => {
		const decision = decideRetry(answered(status), noAttempts(), get());
		expect(decision).toMatchObject({ action: 'retry', pacer: { kind: 'answered' } });
		const { waitMs } = decision as { waitMs: number };
		expect(waitMs).toBeGreaterThanOrEqual(RETRY.backoffBaseMs / 2);
		expect(waitMs).toBeLessThanOrEqual(RETRY.backoffBaseMs);
	});

	it('a GET answered 5xx gives up after RETRY.maxAttempts tries', () => {
		const attempts = noAttempts();
		const steps = Array.from({ length: RETRY.maxAttempts }, () =>
			decideRetry(answered(503), attempts, get()),
		);
		expect(steps.map((step) => step.action)).toEqual(['retry', 'retry', 'retry', 'fail']);
		expect(attempts.tries).toBe(RETRY.maxAttempts);
	});

	it('a write answered 5xx is never repeated (it may have been applied)', () => {
		expect(decideRetry(answered(500), noAttempts(), post())).toEqual({
			action: 'fail',
			pacer: { kind: 'answered' },
		});
		expect(decideRetry(answered(502), noAttempts(), get({ method: 'PATCH' })).action).toBe('fail');
	});

	it('a 4xx other than 429 fails at once', () => {
		expect(decideRetry(answered(404), noAttempts(), get()).action).toBe('fail');
		expect(decideRetry(answered(400), noAttempts(), get()).action).toBe('fail');
	});

	it('nothing is repeated once the user stopped the execution', () => {
		expect(decideRetry(answered(503), noAttempts(), get({ stopped: true })).action).toBe('fail');
		expect(decideRetry(reset, noAttempts(), get({ stopped: true })).action).toBe('fail');
	});
});

describe('no answer', () => {
	it('a reset GET is repeated; the pacer learns the request failed', () => {
		expect(decideRetry(reset, noAttempts(), get())).toMatchObject({
			action: 'retry',
			pacer: { kind: 'failed' },
		});
	});

	it('a reset write is not repeated: the server may have applied it', () => {
		expect(decideRetry(reset, noAttempts(), post())).toEqual({
			action: 'fail',
			pacer: { kind: 'failed' },
		});
	});

	it('a DNS miss is not repeated, even for a GET', () => {
		const dns: HttpResult = {
			kind: 'failed',
			failure: { kind: 'network', code: 'ENOTFOUND', detail: 'ENOTFOUND' },
			message: 'getaddrinfo ENOTFOUND',
		};
		expect(decideRetry(dns, noAttempts(), get()).action).toBe('fail');
	});

	it('a refused connection is repeated for any method (nothing was sent), up to its bound', () => {
		const attempts = noAttempts();
		const steps = Array.from({ length: RETRY.maxRefusedAttempts }, () =>
			decideRetry(refused, attempts, post()),
		);
		expect(steps.map((step) => step.action)).toEqual(['retry', 'retry', 'retry', 'fail']);
	});

	it('an error that is no network failure fails at once', () => {
		const error: HttpResult = { kind: 'error', message: 'Invalid URL' };
		expect(decideRetry(error, noAttempts(), get())).toEqual({
			action: 'fail',
			pacer: { kind: 'failed' },
		});
	});
});

describe('429', () => {
	it('with Retry-After: every caller of the key pauses that long; this request goes again after it', () => {
		const attempts = noAttempts();
		expect(decideRetry(limited('7'), attempts, post())).toEqual({
			action: 'retry',
			waitMs: 0,
			pacer: { kind: 'rate-limited', untilMs: NOW + 7_000 },
		});
		expect(attempts).toEqual({
			tries: 0,
			sent: 1,
			limited: 1,
			deadline: NOW + RETRY.rateLimitDeadlineMs,
		});
	});

	it('without Retry-After: a backoff from one second, doubling', () => {
		const attempts = noAttempts();
		const pauses = [1, 2, 3].map((n) => {
			const decision = decideRetry(limited(), attempts, get({ now: NOW }));
			return { n, ms: (decision.pacer as { untilMs: number }).untilMs - NOW };
		});
		for (const { n, ms } of pauses) {
			const stepMs = RETRY.rateLimitBaseMs * 2 ** (n - 1);
			expect(ms).toBeGreaterThanOrEqual(stepMs / 2);
			expect(ms).toBeLessThanOrEqual(stepMs);
		}
	});

	it('Retry-After: 0 still waits a floor, so the deadline is reached', () => {
		const decision = decideRetry(limited('0'), noAttempts(), get());
		expect(decision.pacer).toEqual({ kind: 'rate-limited', untilMs: NOW + RETRY.backoffBaseMs });
	});

	it('does not use up the tries a GET has for other failures', () => {
		const attempts = noAttempts();
		for (let i = 0; i < 10; i++)
			expect(decideRetry(limited('1'), attempts, get()).action).toBe('retry');
		expect(decideRetry(answered(503), attempts, get()).action).toBe('retry');
		expect(attempts).toMatchObject({ tries: 1, sent: 11, limited: 10 });
	});

	it("the deadline counts from the request's first 429; a wait past it fails without pausing the other callers", () => {
		const attempts: Attempts = noAttempts();
		const deadline = { rateLimitDeadlineMs: 3_000 };
		expect(decideRetry(limited('2'), attempts, get({ ...deadline, now: NOW })).action).toBe(
			'retry',
		);
		const later = NOW + 2_000;
		expect(decideRetry(limited('2'), attempts, get({ ...deadline, now: later }))).toEqual({
			action: 'fail',
			pacer: { kind: 'rate-limited', untilMs: later },
		});
		expect(attempts).toMatchObject({ sent: 2, limited: 2, deadline: NOW + 3_000 });
	});

	it('a Retry-After that ends exactly at the deadline is still waited', () => {
		const retryAfter = String(RETRY.rateLimitDeadlineMs / 1000);
		expect(decideRetry(limited(retryAfter), noAttempts(), get()).action).toBe('retry');
	});

	it('a Retry-After beyond the deadline fails at once', () => {
		const retryAfter = String(RETRY.rateLimitDeadlineMs / 1000 + 1);
		expect(decideRetry(limited(retryAfter), noAttempts(), get()).action).toBe('fail');
	});

	it('a stopped execution does not wait', () => {
		expect(decideRetry(limited('1'), noAttempts(), get({ stopped: true })).action).toBe('fail');
	});
});
