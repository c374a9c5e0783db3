/**
 * One HTTP exchange as the transport sees it: an answer (status, headers, the
 * body as bytes) or the way it failed. The two kinds of exchange, the API
 * request (./request.ts) and the signed-link download (./download.ts), hand
 * the promise of n8n's request helper to `settle`, so nothing after it handles
 * a thrown request error (whose request config carries the Authorization
 * header) and every answer, whatever its status, arrives in the same shape.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { N8nContext } from './types';

/** What went wrong with one attempt, as far as retrying is concerned. */
export type Failure =
	| { kind: 'refused' } // connection refused: nothing was sent
	| { kind: 'network'; code: string; detail: string } // reset, timeout, DNS...: may have been sent
	| { kind: 'status'; status: number }
	| { kind: 'malformed' }; // 2xx whose body is not JSON

/** A failure without any answer: the connection was refused or broke. */
export type NetworkFailure = Extract<Failure, { kind: 'refused' | 'network' }>;

/** An HTTP answer of any status; nothing is parsed yet (a download's body is a file). */
export interface HttpAnswer {
	status: number;
	statusText?: string;
	headers: Record<string, unknown>;
	body: Buffer;
}

/** How one exchange ended. `message` is the helper's error text; the key is scrubbed where it is shown. */
export type Exchange =
	| { kind: 'answered'; answer: HttpAnswer }
	| { kind: 'failed'; failure: NetworkFailure; message: string }
	| { kind: 'error'; message: string };

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
export function networkFailure(error: unknown): NetworkFailure | undefined {
	const code = errorCode(error);
	if (code === 'ECONNREFUSED') return { kind: 'refused' };
	if (code !== undefined && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) {
		return { kind: 'network', code, detail: code };
	}
	return undefined;
}

/** The response body as bytes, whatever the HTTP client handed back. */
function bodyBytes(response: IN8nHttpFullResponse): Buffer {
	return Buffer.isBuffer(response.body) ? response.body : Buffer.from(String(response.body ?? ''));
}

/**
 * Waits for one request of n8n's helper (sent with `returnFullResponse` and
 * `ignoreHttpStatusErrors`) and says how it ended; it never throws.
 */
export async function settle(pending: Promise<unknown>): Promise<Exchange> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await pending) as IN8nHttpFullResponse;
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const failure = networkFailure(error);
		return failure === undefined
			? { kind: 'error', message }
			: { kind: 'failed', failure, message };
	}
	return {
		kind: 'answered',
		answer: {
			status: response.statusCode,
			statusText: response.statusMessage,
			headers: (response.headers ?? {}) as Record<string, unknown>,
			body: bodyBytes(response),
		},
	};
}

/** 2xx: the server did what was asked. */
export const isSuccess = (status: number) => status >= 200 && status < 300;

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

/** An error answer's body for the error message: its JSON, else its text. */
export function errorBody(body: Buffer): unknown {
	const parsed = parseJson(body);
	return parsed.ok ? parsed.value : body.toString('utf8');
}

/** Whether the user stopped the execution; waits check it so a long 429 wait ends promptly. */
export function cancelled(context: N8nContext): boolean {
	return (
		'getExecutionCancelSignal' in context && context.getExecutionCancelSignal()?.aborted === true
	);
}
