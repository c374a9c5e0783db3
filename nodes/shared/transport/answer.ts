/**
 * How one HTTP request ended, as the transport reads it: every ending of
 * n8n's helper comes back as a value (`HttpResult`), never as a throw, so no
 * request error holding the Authorization header travels further.
 *
 * An API answer is read as a stream under the limits of ./limits.ts
 * (`readAnswer`): its body is counted as it arrives, after decompression, and
 * the read stops past TRANSPORT_LIMITS.answerBytes (an announced
 * Content-Length over it is refused before a byte is read); the attempt as a
 * whole, the headers and the whole body, ends at its deadline, however slowly
 * the bytes trickle in; n8n's Stop and the caller's own end (a webhook
 * batch's deadline) end it too, the connection closed.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { duration, TRANSPORT_LIMITS } from './limits';
import type { HttpAnswer, HttpResult, N8nContext, NetworkFailure } from './types';

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

/** How a request that threw ended: a network failure, or another error with its message. */
function thrown(error: unknown): HttpResult {
	const message = error instanceof Error ? error.message : String(error);
	const failure = networkFailure(error);
	return failure === undefined ? { kind: 'error', message } : { kind: 'failed', failure, message };
}

/** The response body as bytes, whatever the HTTP client handed back. */
function bodyBytes(response: IN8nHttpFullResponse): Buffer {
	return Buffer.isBuffer(response.body) ? response.body : Buffer.from(String(response.body ?? ''));
}

/** An answer's status and headers, before its body is read. */
function answerHead(response: IN8nHttpFullResponse): Omit<HttpAnswer, 'body'> {
	return {
		status: response.statusCode,
		statusText: response.statusMessage,
		headers: (response.headers ?? {}) as Record<string, unknown>,
	};
}

/**
 * Waits for one request of n8n's helper (sent with `returnFullResponse` and
 * `ignoreHttpStatusErrors`, its body already read) and says how it ended; it
 * never throws. Every answer, whatever its status, arrives in the same shape.
 * The signed-link download reads its answers through it.
 */
export async function resultOf(pending: Promise<unknown>): Promise<HttpResult> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await pending) as IN8nHttpFullResponse;
	} catch (error) {
		return thrown(error);
	}
	return { kind: 'answered', answer: { ...answerHead(response), body: bodyBytes(response) } };
}

/** A body stream as n8n's helper hands it back with `encoding: 'stream'`. */
type BodyStream = AsyncIterable<Buffer | string> & { destroy?: (error?: Error) => void };

const isStream = (body: unknown): body is BodyStream =>
	typeof body === 'object' && body !== null && Symbol.asyncIterator in body;

/**
 * Closes a body that will not be read. Destroying the stream n8n hands back
 * does not always reach the connection (axios wraps the socket's stream in
 * one that lets go of it only once read), so an attempt also aborts its
 * request (`AttemptRun.close`), which closes the socket.
 */
function discard(body: unknown): void {
	if (isStream(body)) body.destroy?.();
}

/** What ends one attempt, and what it may read. */
export interface AttemptRun {
	/** Aborts at the deadline, at n8n's Stop, at the caller's end or at `close`, whichever comes first. */
	signal: AbortSignal;
	/** Ends the attempt's request, closing its connection: its answer will not be read further. */
	close: () => void;
	/** n8n's Stop and the caller's end alone, to tell them from the deadline. */
	stopped: () => boolean;
	/** The attempt's deadline, its duration in `ms`. */
	deadline: AbortSignal;
	ms: number;
	/** The most the answer's body may hold, after decompression. */
	maxBytes: number;
}

/**
 * The run of one attempt: its deadline counted from now, n8n's Stop (the
 * execution's cancel signal, where the context has one) and the caller's own
 * end, and the answer size limit, read now (tests shrink it).
 */
export function startAttempt(context: N8nContext, ms: number, stop?: AbortSignal): AttemptRun {
	const cancel =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const deadline = AbortSignal.timeout(ms);
	const ends = [cancel, stop].filter((signal): signal is AbortSignal => signal !== undefined);
	const closing = new AbortController();
	return {
		signal: AbortSignal.any([deadline, closing.signal, ...ends]),
		close: () => closing.abort(),
		stopped: () => ends.some((signal) => signal.aborted),
		deadline,
		ms,
		maxBytes: TRANSPORT_LIMITS.answerBytes,
	};
}

/**
 * The helper's answer, or a rejection the moment `signal` aborts, whether or
 * not the helper honours it; an answer that arrives after that is closed
 * unread.
 */
async function untilEnded(pending: Promise<unknown>, signal: AbortSignal): Promise<unknown> {
	const closeLate = () =>
		void pending.then(
			(late) => discard((late as IN8nHttpFullResponse | undefined)?.body),
			() => undefined,
		);
	if (signal.aborted) {
		closeLate();
		throw signal.reason;
	}
	return await new Promise((resolve, reject) => {
		const onAbort = () => {
			closeLate();
			reject(signal.reason);
		};
		signal.addEventListener('abort', onAbort, { once: true });
		pending.then(
			(value) => {
				signal.removeEventListener('abort', onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', onAbort);
				reject(error);
			},
		);
	});
}

/**
 * A body's bytes up to `maxBytes`, and whether there were more (the stream is
 * then closed at once, so the rest is never read). Throws when the stream
 * breaks or `signal` aborts, which closes it.
 */
async function readCapped(
	body: unknown,
	maxBytes: number,
	signal: AbortSignal,
): Promise<{ bytes: Buffer; over: boolean }> {
	if (!isStream(body)) {
		const bytes = bodyBytes({ body } as IN8nHttpFullResponse);
		return { bytes: bytes.subarray(0, maxBytes), over: bytes.length > maxBytes };
	}
	const abort = () => body.destroy?.(signal.reason as Error);
	signal.addEventListener('abort', abort, { once: true });
	try {
		signal.throwIfAborted();
		const chunks: Buffer[] = [];
		let read = 0;
		for await (const chunk of body) {
			const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			if (read + piece.length > maxBytes) {
				body.destroy?.();
				chunks.push(piece.subarray(0, maxBytes - read));
				return { bytes: Buffer.concat(chunks), over: true };
			}
			chunks.push(piece);
			read += piece.length;
		}
		return { bytes: Buffer.concat(chunks), over: false };
	} finally {
		signal.removeEventListener('abort', abort);
	}
}

/** How an attempt that threw ended: stopped, past its deadline, or a failure of the request. */
function endedEarly(run: AttemptRun, error: unknown): HttpResult {
	if (run.stopped()) return { kind: 'error', message: 'Stopped before the answer arrived' };
	if (run.deadline.aborted) {
		const message = `No whole answer within ${duration(run.ms)}`;
		return { kind: 'failed', failure: { kind: 'deadline', ms: run.ms }, message };
	}
	return thrown(error);
}

/**
 * Reads one API answer of n8n's helper (sent with `encoding: 'stream'`) under
 * `run`'s limits; never throws. An answer over the size limit comes back with
 * `oversized` and only the part read before the read stopped.
 */
export async function readAnswer(pending: Promise<unknown>, run: AttemptRun): Promise<HttpResult> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await untilEnded(pending, run.signal)) as IN8nHttpFullResponse;
	} catch (error) {
		return endedEarly(run, error);
	}
	const head = answerHead(response);
	const announced = Number(head.headers['content-length']);
	if (announced > run.maxBytes) {
		run.close();
		discard(response.body);
		const oversized = { announcedBytes: announced };
		return { kind: 'answered', answer: { ...head, body: Buffer.alloc(0), oversized } };
	}
	try {
		const { bytes, over } = await readCapped(response.body, run.maxBytes, run.signal);
		if (over) run.close();
		return {
			kind: 'answered',
			answer: over ? { ...head, body: bytes, oversized: {} } : { ...head, body: bytes },
		};
	} catch (error) {
		return endedEarly(run, error);
	}
}
