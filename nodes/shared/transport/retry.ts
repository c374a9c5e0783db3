/**
 * When a request may be sent again, and how long to wait first. A repeat is
 * only made where it is harmless: any GET, any request the server refused with
 * 429 (it did nothing), and any request whose connection was refused before a
 * byte was sent. A write that may have reached the server is never repeated:
 * a report upload emails the client each time.
 */
export const RETRY = {
	/** Attempts for a GET that keeps failing with 5xx, a reset, a timeout or unreadable JSON. */
	maxAttempts: 4,
	/** Attempts when the connection is refused before sending (any method). */
	maxRefusedAttempts: 4,
	backoffBaseMs: 250,
	backoffMaxMs: 8_000,
	/**
	 * How long one request keeps waiting out 429s, from its first 429, when the
	 * credential does not say (A7). A deadline, not a count: a walk goes on for
	 * as long as the server keeps answering within it.
	 */
	rateLimitDeadlineMs: 10 * 60_000,
	/** 429 backoff without Retry-After starts here and doubles. */
	rateLimitBaseMs: 1_000,
	rateLimitMaxStepMs: 30_000,
	/** Per attempt; uploads get longer because a 25 MB report takes a while. */
	timeoutMs: 60_000,
	uploadTimeoutMs: 300_000,
} as const;

/** What went wrong with one attempt, as far as retrying is concerned. */
export type Failure =
	| { kind: 'refused' } // connection refused: nothing was sent
	| { kind: 'network'; code: string; detail: string } // reset, timeout, DNS...: may have been sent
	| { kind: 'status'; status: number }
	| { kind: 'malformed' }; // 2xx whose body is not JSON

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'EAI_AGAIN',
	'ENOTFOUND',
	'UND_ERR_SOCKET',
]);

/** Only these network failures are worth repeating (a DNS miss or unreachable host will not heal in seconds). */
const TRANSIENT_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'UND_ERR_SOCKET',
]);

/** Finds an errno-style code anywhere on an error or its causes (n8n wraps the axios error). */
export function errorCode(error: unknown, seen = new Set<unknown>()): string | undefined {
	if (typeof error !== 'object' || error === null || seen.has(error)) return undefined;
	seen.add(error);
	const record = error as Record<string, unknown>;
	if (typeof record.code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(record.code))
		return record.code;
	for (const key of ['cause', 'error', 'reason', 'errorResponse']) {
		const found = errorCode(record[key], seen);
		if (found) return found;
	}
	const message = typeof record.message === 'string' ? record.message : '';
	if (/socket hang up/i.test(message)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded/i.test(message)) return 'ETIMEDOUT';
	return undefined;
}

/** Classifies a thrown request error; undefined when it is not a network failure at all. */
export function networkFailure(error: unknown): Failure | undefined {
	const code = errorCode(error);
	if (code === 'ECONNREFUSED') return { kind: 'refused' };
	if (code !== undefined && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) {
		return { kind: 'network', code, detail: code };
	}
	return undefined;
}

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

/** A7: Retry-After in seconds; an HTTP date is read too. Undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now: number = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
