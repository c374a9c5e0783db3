/**
 * Retry: what happens after each attempt of an API request. A repeat is only
 * made where it is harmless: any GET, any request the server refused with 429
 * (it did nothing), and any request whose connection was refused before a
 * byte was sent. A write that may have reached the server is never repeated:
 * a report upload emails the client each time. `decideRetry` is the whole
 * decision for one attempt; it reads no clock and sends nothing, so each case
 * is tested on its own (test/transport/decide-retry.test.ts). What the key's
 * pacer (./pacer.ts) learns from the attempt is part of the decision: a 429 is
 * a retry for the request that got it and a pause for every other request of
 * the key.
 */
import type { Outcome } from './pacer';
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
	/**
	 * A signed-link download's timeout per request, while no byte comes (the
	 * download as a whole has DOWNLOAD_DEADLINE). An API request has a deadline
	 * for the whole attempt instead (TRANSPORT_LIMITS in ./limits.ts).
	 */
	timeoutMs: 60_000,
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
	// An answer over the size limit would be as large again.
	if (failure.kind === 'oversized') return false;
	return true; // malformed JSON, or the attempt's deadline (a timeout), on a GET
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
	/**
	 * When waiting for the rate limit stops: the first wait (for a free slot of
	 * the key's pacer, or after a 429) plus the credential's Wait for Rate Limit.
	 */
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
	if (result.answer.oversized)
		return retryOrFail({ kind: 'oversized' }, attempts, context, ANSWERED);
	const parsed = parseJson(body);
	if (parsed.ok) return { action: 'return', json: parsed.value, headers, pacer: ANSWERED };
	return retryOrFail({ kind: 'malformed' }, attempts, context, ANSWERED);
}
