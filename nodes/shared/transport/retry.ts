/**
 * Retry and pacing: the budget every request of a key shares, and what
 * happens after each attempt. Both live here because they decide together:
 * a 429 is a retry for the request that got it and a pause for every other
 * request of the key.
 *
 * Retry. A repeat is only made where it is harmless: any GET, any request the
 * server refused with 429 (it did nothing), and any request whose connection
 * was refused before a byte was sent. A write that may have reached the
 * server is never repeated: a report upload emails the client each time.
 * `decideRetry` is the whole decision for one attempt; it reads no clock and
 * sends nothing, so each case is tested on its own
 * (test/transport/decide-retry.test.ts).
 *
 * Pacing, per API key, shared by every execution in this n8n instance
 * (module state). Two rules:
 *
 * 1. A sliding 60-second window. The API gives every key of one user a
 *    shared budget of 120 requests a minute and does not say how it counts,
 *    so the pacer assumes a sliding window (as the sandbox counts). A
 *    request holds its slot from the moment it is sent until one window after
 *    its answer arrived, so in-flight requests (and 429s) always count.
 * 2. The window's size is a learned rate, at most `limit` (the credential's
 *    Requests per Minute), for when other n8n instances share the key. No instance
 *    can see the others, so the server's 429 is the signal: every caller of
 *    the key pauses until Retry-After, and the rate halves (multiplicative
 *    decrease). Each answered request raises it again, by a tenth of the limit
 *    per minute of traffic (additive increase). Several processes so settle
 *    near their shared budget instead of taking turns on 429s.
 */
import { createHash } from 'crypto';

import { sleep } from 'n8n-workflow';

import type { Failure, HttpResult } from './types';

/** 2xx: the server did what was asked. */
export const isSuccess = (status: number) => status >= 200 && status < 300;

/** 3xx: the API request refuses it, the download follows it after the rule book's check. */
export const isRedirect = (status: number) => status >= 300 && status < 400;

/** One decode and one parse per answer; an empty body is an empty object. */
export function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
	const text = body.toString('utf8');
	if (/^\s*$/.test(text)) return { ok: true, value: {} };
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

export const RETRY = {
	/** Attempts for a GET that keeps failing with 5xx, a reset, a timeout or unreadable JSON. */
	maxAttempts: 4,
	/** Attempts when the connection is refused before sending (any method). */
	maxRefusedAttempts: 4,
	backoffBaseMs: 250,
	backoffMaxMs: 8_000,
	/**
	 * How long one request keeps waiting out 429s, from its first 429, when the
	 * credential does not say. The API documents no limit on how often a 429 may
	 * come, so this is a deadline, not a count: a list goes on for as long as the
	 * server keeps answering within it.
	 */
	rateLimitDeadlineMs: 10 * 60_000,
	/** 429 backoff without Retry-After starts here and doubles. */
	rateLimitBaseMs: 1_000,
	rateLimitMaxStepMs: 30_000,
	/** Per attempt; uploads get longer because a 25 MB report takes a while. */
	timeoutMs: 60_000,
	uploadTimeoutMs: 300_000,
} as const;

/** Only these network failures are worth repeating (a DNS miss or unreachable host will not heal in seconds). */
const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'UND_ERR_SOCKET',
]);

export function isRetryable(failure: Failure, method: string, attempt: number): boolean {
	if (failure.kind === 'refused') return attempt < RETRY.maxRefusedAttempts;
	if (method !== 'GET' || attempt >= RETRY.maxAttempts) return false;
	if (failure.kind === 'network') return TRANSIENT_NETWORK_CODES.has(failure.code);
	if (failure.kind === 'status') return failure.status >= 500;
	return true; // malformed JSON on a GET
}

/** Exponential backoff with jitter (50–100 % of the step) so parallel callers spread out. */
export function backoffMs(
	attempt: number,
	baseMs: number = RETRY.backoffBaseMs,
	maxMs: number = RETRY.backoffMaxMs,
): number {
	const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(step * (0.5 + Math.random() / 2));
}

/**
 * A 429's Retry-After, which the API gives in seconds or not at all; an HTTP
 * date is read too. Undefined when absent or unreadable.
 */
export function retryAfterMs(header: unknown, now: number = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before repeating attempt number `attempt` after `failure`,
 * or undefined when it must not be repeated (or the user stopped the execution).
 */
export function backoffBeforeRetry(
	failure: Failure,
	method: string,
	attempt: number,
	stopped: boolean,
): number | undefined {
	return isRetryable(failure, method, attempt) && !stopped ? backoffMs(attempt) : undefined;
}

/** What one API request has been through so far; `decideRetry` keeps it up to date. */
export interface Attempts {
	/** Attempts that did not end in 429; bounded by RETRY. */
	tries: number;
	/** Every attempt, 429s included. */
	sent: number;
	/** Attempts answered 429. */
	limited: number;
	/** When waiting out 429s stops: the first 429 plus the credential's Wait for Rate Limit. */
	deadline?: number;
}

export const noAttempts = (): Attempts => ({ tries: 0, sent: 0, limited: 0 });

/** What the decision needs besides the attempt: the method, the time, the deadline, the Stop button. */
export interface DecisionContext {
	method: string;
	now: number;
	rateLimitDeadlineMs: number;
	stopped: boolean;
}

/**
 * What to do after one attempt, and what the pacer learns from it (every
 * decision releases the slot the attempt took): return the parsed answer, send
 * again after `waitMs` (a 429's wait is the pacer's pause, which holds back
 * every caller of the key, so its `waitMs` is 0), or fail.
 */
export type RetryDecision =
	| { action: 'return'; json: unknown; headers: Record<string, unknown>; pacer: Outcome }
	| { action: 'retry'; waitMs: number; pacer: Outcome }
	| { action: 'fail'; pacer: Outcome };

const ANSWERED: Outcome = { kind: 'answered' };
const FAILED: Outcome = { kind: 'failed' };

function retryOrFail(
	failure: Failure,
	attempts: Attempts,
	context: DecisionContext,
	pacer: Outcome,
): RetryDecision {
	const waitMs = backoffBeforeRetry(failure, context.method, attempts.tries, context.stopped);
	return waitMs === undefined ? { action: 'fail', pacer } : { action: 'retry', waitMs, pacer };
}

/** A 429: the server did nothing, so any method may repeat, within the deadline. */
function waitOutRateLimit(
	headers: Record<string, unknown>,
	attempts: Attempts,
	{ now, rateLimitDeadlineMs, stopped }: DecisionContext,
): RetryDecision {
	attempts.limited++;
	attempts.deadline ??= now + rateLimitDeadlineMs;
	// A floor, so a server answering Retry-After: 0 forever still ends at the deadline.
	const waitMs = Math.max(
		RETRY.backoffBaseMs,
		retryAfterMs(headers['retry-after'], now) ??
			backoffMs(attempts.limited, RETRY.rateLimitBaseMs, RETRY.rateLimitMaxStepMs),
	);
	if (now + waitMs <= attempts.deadline && !stopped) {
		return { action: 'retry', waitMs: 0, pacer: { kind: 'rate-limited', untilMs: now + waitMs } };
	}
	// A wait past the deadline is not imposed on the key's other callers: this one gives up instead.
	return { action: 'fail', pacer: { kind: 'rate-limited', untilMs: now } };
}

/** Decides, after one attempt of an API request, whether to return, repeat (and when) or fail. */
export function decideRetry(
	result: HttpResult,
	attempts: Attempts,
	context: DecisionContext,
): RetryDecision {
	attempts.sent++;
	if (result.kind === 'error') return { action: 'fail', pacer: FAILED };
	if (result.kind === 'failed') {
		attempts.tries++;
		return retryOrFail(result.failure, attempts, context, FAILED);
	}
	const { status, headers, body } = result.answer;
	if (status === 429) return waitOutRateLimit(headers, attempts, context);
	attempts.tries++;
	if (!isSuccess(status))
		return retryOrFail({ kind: 'status', status }, attempts, context, ANSWERED);
	const parsed = parseJson(body);
	if (parsed.ok) return { action: 'return', json: parsed.value, headers, pacer: ANSWERED };
	return retryOrFail({ kind: 'malformed' }, attempts, context, ANSWERED);
}

export const PACING_WINDOW_MS = 60_000;
/** How long a waiting caller sleeps at most before looking again (keeps cancellation responsive). */
const MAX_NAP_MS = 1_000;
/** The learned rate never drops below this many requests per minute. */
const MIN_RATE = 1;
/** Additive increase: the share of the limit regained per minute of answered requests. */
const RECOVERY_PER_MINUTE = 0.1;

/** How a paced request ended, as far as the pacer learns from it. */
export type Outcome =
	| { kind: 'answered' }
	| { kind: 'rate-limited'; untilMs: number }
	| { kind: 'failed' };

export class Pacer {
	/** Answer times of finished requests still inside the window, oldest first. */
	private finished: number[] = [];

	private inFlight = 0;

	private pausedUntil = 0;

	/** Requests per minute this n8n instance allows itself now; `limit` until a 429 is seen. */
	private learnedRate: number;

	/** When the rate last halved; a 429 for a request sent before then is already accounted for. */
	private lastDecreaseAt = Number.NEGATIVE_INFINITY;

	constructor(
		public limit: number,
		private readonly windowMs = PACING_WINDOW_MS,
		private readonly now: () => number = Date.now,
		private readonly nap: (ms: number) => Promise<void> = sleep,
	) {
		this.learnedRate = limit;
	}

	/** The requests per minute this n8n instance currently allows itself. */
	get rate(): number {
		return Math.min(this.learnedRate, this.limit);
	}

	/**
	 * Waits for a free slot and takes it; call the returned function with the
	 * outcome once the answer (or failure) arrived. The check and the take
	 * happen in one synchronous step, so concurrent callers can never over-send.
	 */
	async acquire(isCancelled: () => boolean = () => false): Promise<(outcome?: Outcome) => void> {
		for (;;) {
			const wait = this.waitMs();
			if (wait === 0) {
				const sentAt = this.now();
				this.inFlight++;
				let released = false;
				return (outcome = { kind: 'answered' }) => {
					if (released) return;
					released = true;
					this.inFlight--;
					// A 429 holds its slot too: it keeps a contended instance's share conservative
					// (measured: fewer 429s with eight processes than when it frees at once).
					this.finished.push(this.now());
					this.learn(outcome, sentAt);
				};
			}
			if (isCancelled())
				throw new Error('The execution was cancelled while waiting for the rate limit');
			await this.nap(Math.min(wait, MAX_NAP_MS));
		}
	}

	/** Nobody using this key sends before `untilMs` (the server's Retry-After). */
	pause(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
	}

	private learn(outcome: Outcome, sentAt: number): void {
		if (outcome.kind === 'rate-limited') {
			this.pause(outcome.untilMs);
			// One halving per congestion event, however many callers were caught in it.
			if (sentAt > this.lastDecreaseAt) {
				this.learnedRate = Math.max(MIN_RATE, this.rate / 2);
				this.lastDecreaseAt = this.now();
			}
		} else if (outcome.kind === 'answered' && this.learnedRate < this.limit) {
			// +10 % of the limit per minute: each answer adds that much divided by the answers a minute holds.
			this.learnedRate = Math.min(
				this.limit,
				this.learnedRate + (RECOVERY_PER_MINUTE * this.limit) / this.learnedRate,
			);
		}
	}

	/** 0 when a slot is free now, else how long until one may be. */
	private waitMs(): number {
		const now = this.now();
		while (this.finished.length > 0 && this.finished[0] + this.windowMs <= now)
			this.finished.shift();
		if (this.pausedUntil > now) return this.pausedUntil - now;
		if (this.inFlight + this.finished.length >= this.rate) {
			// Full: the oldest finished slot frees first; if all are in flight, look again shortly.
			return this.finished.length > 0 ? this.finished[0] + this.windowMs - now : MAX_NAP_MS / 10;
		}
		return 0;
	}
}

/** One pacer per key, keyed by a hash so the key itself is never held as a map key or logged. */
const pacers = new Map<string, Pacer>();

export function pacerFor(apiKey: string, requestsPerMinute: number): Pacer {
	const id = createHash('sha256').update(apiKey).digest('hex');
	let pacer = pacers.get(id);
	if (pacer === undefined) {
		pacer = new Pacer(requestsPerMinute);
		pacers.set(id, pacer);
	}
	// The latest credential setting wins; executions share the one budget.
	pacer.limit = requestsPerMinute;
	return pacer;
}
