/**
 * The decision after one exchange of an API request (`nextStep`): return,
 * send again (after how long, and what every other caller of the key must
 * wait), or fail. Pure: no server and no clock, so each rule is one case.
 * The same rules against the sandbox, through a real n8n context, are
 * test/transport/retry.test.ts.
 */
import type { Exchange } from '../../nodes/shared/transport/exchange';
import {
	type Attempts,
	nextStep,
	noAttempts,
	RETRY,
	type StepContext,
} from '../../nodes/shared/transport/retry';

const NOW = 1_000_000;
const get = (overrides: Partial<StepContext> = {}): StepContext => ({
	method: 'GET',
	now: NOW,
	rateLimitDeadlineMs: RETRY.rateLimitDeadlineMs,
	stopped: false,
	...overrides,
});
const post = (overrides: Partial<StepContext> = {}) => get({ method: 'POST', ...overrides });

function answered(status: number, body = '', headers: Record<string, unknown> = {}): Exchange {
	return { kind: 'answered', answer: { status, headers, body: Buffer.from(body) } };
}
const reset: Exchange = {
	kind: 'failed',
	failure: { kind: 'network', code: 'ECONNRESET', detail: 'ECONNRESET' },
	message: 'socket hang up',
};
const refused: Exchange = { kind: 'failed', failure: { kind: 'refused' }, message: 'refused' };
const limited = (retryAfter?: string) =>
	answered(
		429,
		'{"error":{"code":"rate_limited"}}',
		retryAfter === undefined ? {} : { 'retry-after': retryAfter },
	);

describe('an answer', () => {
	it('2xx JSON is returned with its headers; the pacer counts it as answered', () => {
		const attempts = noAttempts();
		const step = nextStep(answered(200, '{"data":[]}', { date: 'x' }), attempts, get());
		expect(step).toEqual({
			then: 'return',
			json: { data: [] },
			headers: { date: 'x' },
			pacer: { kind: 'answered' },
		});
		expect(attempts).toEqual({ tries: 1, sent: 1, limited: 0 });
	});

	it('an empty 2xx body is an empty object', () => {
		expect(nextStep(answered(204), noAttempts(), get())).toMatchObject({
			then: 'return',
			json: {},
		});
	});

	it('a 2xx that is not JSON is read again for a GET, and fails a write', () => {
		expect(nextStep(answered(200, '{"data": [{'), noAttempts(), get())).toMatchObject({
			then: 'retry',
			pacer: { kind: 'answered' },
		});
		expect(nextStep(answered(201, '{"id": "'), noAttempts(), post())).toEqual({
			then: 'fail',
			pacer: { kind: 'answered' },
		});
	});

	it.each([500, 502, 503])('%i: a GET is repeated after a backoff', (status) => {
		const step = nextStep(answered(status), noAttempts(), get());
		expect(step).toMatchObject({ then: 'retry', pacer: { kind: 'answered' } });
		const { waitMs } = step as { waitMs: number };
		expect(waitMs).toBeGreaterThanOrEqual(RETRY.backoffBaseMs / 2);
		expect(waitMs).toBeLessThanOrEqual(RETRY.backoffBaseMs);
	});

	it('a GET answered 5xx gives up after RETRY.maxAttempts tries', () => {
		const attempts = noAttempts();
		const steps = Array.from({ length: RETRY.maxAttempts }, () =>
			nextStep(answered(503), attempts, get()),
		);
		expect(steps.map((step) => step.then)).toEqual(['retry', 'retry', 'retry', 'fail']);
		expect(attempts.tries).toBe(RETRY.maxAttempts);
	});

	it('a write answered 5xx is never repeated (it may have been applied)', () => {
		expect(nextStep(answered(500), noAttempts(), post())).toEqual({
			then: 'fail',
			pacer: { kind: 'answered' },
		});
		expect(nextStep(answered(502), noAttempts(), get({ method: 'PATCH' })).then).toBe('fail');
	});

	it('a 4xx other than 429 fails at once', () => {
		expect(nextStep(answered(404), noAttempts(), get()).then).toBe('fail');
		expect(nextStep(answered(400), noAttempts(), get()).then).toBe('fail');
	});

	it('nothing is repeated once the user stopped the execution', () => {
		expect(nextStep(answered(503), noAttempts(), get({ stopped: true })).then).toBe('fail');
		expect(nextStep(reset, noAttempts(), get({ stopped: true })).then).toBe('fail');
	});
});

describe('no answer', () => {
	it('a reset GET is repeated; the pacer learns the request failed', () => {
		expect(nextStep(reset, noAttempts(), get())).toMatchObject({
			then: 'retry',
			pacer: { kind: 'failed' },
		});
	});

	it('a reset write is not repeated: the server may have applied it', () => {
		expect(nextStep(reset, noAttempts(), post())).toEqual({
			then: 'fail',
			pacer: { kind: 'failed' },
		});
	});

	it('a DNS miss is not repeated, even for a GET', () => {
		const dns: Exchange = {
			kind: 'failed',
			failure: { kind: 'network', code: 'ENOTFOUND', detail: 'ENOTFOUND' },
			message: 'getaddrinfo ENOTFOUND',
		};
		expect(nextStep(dns, noAttempts(), get()).then).toBe('fail');
	});

	it('a refused connection is repeated for any method (nothing was sent), up to its bound', () => {
		const attempts = noAttempts();
		const steps = Array.from({ length: RETRY.maxRefusedAttempts }, () =>
			nextStep(refused, attempts, post()),
		);
		expect(steps.map((step) => step.then)).toEqual(['retry', 'retry', 'retry', 'fail']);
	});

	it('an error that is no network failure fails at once', () => {
		const error: Exchange = { kind: 'error', message: 'Invalid URL' };
		expect(nextStep(error, noAttempts(), get())).toEqual({
			then: 'fail',
			pacer: { kind: 'failed' },
		});
	});
});

describe('429', () => {
	it('with Retry-After: every caller of the key pauses that long; this request goes again after it', () => {
		const attempts = noAttempts();
		expect(nextStep(limited('7'), attempts, post())).toEqual({
			then: 'retry',
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
			const step = nextStep(limited(), attempts, get({ now: NOW }));
			return { n, ms: (step.pacer as { untilMs: number }).untilMs - NOW };
		});
		for (const { n, ms } of pauses) {
			const stepMs = RETRY.rateLimitBaseMs * 2 ** (n - 1);
			expect(ms).toBeGreaterThanOrEqual(stepMs / 2);
			expect(ms).toBeLessThanOrEqual(stepMs);
		}
	});

	it('Retry-After: 0 still waits a floor, so the deadline is reached', () => {
		const step = nextStep(limited('0'), noAttempts(), get());
		expect(step.pacer).toEqual({ kind: 'rate-limited', untilMs: NOW + RETRY.backoffBaseMs });
	});

	it('does not use up the tries a GET has for other failures', () => {
		const attempts = noAttempts();
		for (let i = 0; i < 10; i++) expect(nextStep(limited('1'), attempts, get()).then).toBe('retry');
		expect(nextStep(answered(503), attempts, get()).then).toBe('retry');
		expect(attempts).toMatchObject({ tries: 1, sent: 11, limited: 10 });
	});

	it("the deadline counts from the request's first 429; a wait past it fails without pausing the other callers", () => {
		const attempts: Attempts = noAttempts();
		const deadline = { rateLimitDeadlineMs: 3_000 };
		expect(nextStep(limited('2'), attempts, get({ ...deadline, now: NOW })).then).toBe('retry');
		const later = NOW + 2_000;
		expect(nextStep(limited('2'), attempts, get({ ...deadline, now: later }))).toEqual({
			then: 'fail',
			pacer: { kind: 'rate-limited', untilMs: later },
		});
		expect(attempts).toMatchObject({ sent: 2, limited: 2, deadline: NOW + 3_000 });
	});

	it('a Retry-After beyond the deadline fails at once', () => {
		const retryAfter = String(RETRY.rateLimitDeadlineMs / 1000 + 1);
		expect(nextStep(limited(retryAfter), noAttempts(), get()).then).toBe('fail');
	});

	it('a stopped execution does not wait', () => {
		expect(nextStep(limited('1'), noAttempts(), get({ stopped: true })).then).toBe('fail');
	});
});
