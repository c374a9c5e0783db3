import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiHandlers } from './context';
import { handleControl, CONTROL_PREFIX } from './control';
import type { OneShotFault } from './faults';
import { FILES_PREFIX } from './files';
import { handleHostile, HOSTILE_PREFIX } from './hostile';
import { ApiError, errorReply, writeReply, type Reply } from './http';
import { KEY_TABLE } from './keys';
import { redirectReply, REDIRECT_PREFIX } from './redirects';
import { withRawRecords } from './raw-records';
import { queryRecord, type LogEntry } from './requestlog';
import { matchRoute } from './router';
import type { SandboxState } from './state';
import { iso } from './clock';

export function bearer(req: IncomingMessage): string | null {
	const header = req.headers.authorization;
	if (!header) return null;
	// "Bearer", a space, then at least one more character; no pattern runs over the key itself.
	return /^Bearer\s./i.test(header) ? header.slice('Bearer'.length).trim() : header;
}

const FAULT_REPLIES: Partial<Record<OneShotFault['kind'], (f: OneShotFault) => Reply>> = {
	'429': (f) =>
		errorReply(
			new ApiError(429, 'rate_limited', 'Rate limit exceeded (injected fault)', null, {
				'Retry-After': String(f.retryAfter ?? 1),
			}),
		),
	'429-no-retry-after': () =>
		errorReply(new ApiError(429, 'rate_limited', 'Rate limit exceeded (injected fault)')),
	'500': () =>
		errorReply(new ApiError(500, 'internal_error', 'Internal server error (injected fault)')),
	'502': () => errorReply(new ApiError(502, 'bad_gateway', 'Bad gateway (injected fault)')),
	'503': () => errorReply(new ApiError(503, 'unavailable', 'Service unavailable (injected fault)')),
};

async function runV1(
	state: SandboxState,
	handlers: ApiHandlers,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	entry: LogEntry,
) {
	const key = entry.key;
	const info = key === null ? undefined : KEY_TABLE[key];
	if (!info || !info.active) {
		const reason =
			key === null ? 'Missing API key' : info ? 'The API key is inactive' : 'Invalid API key';
		throw new ApiError(401, 'unauthorized', reason, null, { 'WWW-Authenticate': 'Bearer' });
	}
	const retryAfter = state.limiter.take(info.owner);
	if (retryAfter !== null) {
		throw new ApiError(
			429,
			'rate_limited',
			`Rate limit of ${state.limiter.perMinute} requests per minute exceeded`,
			null,
			{
				'Retry-After': String(retryAfter),
			},
		);
	}
	if (state.settings.latencyMs > 0) await sleep(state.settings.latencyMs);
	const fault = state.faults.pick(req.method ?? 'GET', url.pathname);
	if (fault) entry.fault = fault.kind;
	const injected = fault && FAULT_REPLIES[fault.kind];
	if (fault && injected) return writeReply(res, injected(fault));
	if (fault?.kind === 'slow') await sleep(fault.delayMs ?? state.faults.settings.slowMs);
	const match = matchRoute(req.method ?? 'GET', url.pathname);
	if (match.key === null) {
		if (match.allow.length) {
			throw new ApiError(
				405,
				'method_not_allowed',
				`${req.method} is not allowed on ${url.pathname}`,
				null,
				{ Allow: match.allow.join(', ') },
			);
		}
		throw new ApiError(404, 'not_found', `No endpoint ${req.method} ${url.pathname}`);
	}
	const origin = `http://${req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`}`;
	const answer = await handlers[match.key]({
		state,
		org: info.org,
		req,
		search: url.searchParams,
		pathParams: match.params,
		origin,
		logEntry: entry,
	});
	const reply = withRawRecords(state, match.key, info.org, url.searchParams, answer);
	if (fault?.kind === 'reset') {
		res.socket?.destroy(); // the write above is applied; the answer never arrives
		return;
	}
	if (fault?.kind === 'malformed') {
		res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8' });
		res.end('{"data": [{"id": "');
		return;
	}
	// The Date header reads the sandbox clock, as the API's reads the clock that stamps updated_at.
	writeReply(res, {
		...reply,
		headers: { ...reply.headers, Date: new Date(state.clock.now()).toUTCString() },
	});
}

async function handle(
	state: SandboxState,
	handlers: ApiHandlers,
	req: IncomingMessage,
	res: ServerResponse,
) {
	const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
	if (url.pathname.startsWith(CONTROL_PREFIX)) return handleControl(state, req, res, url);
	const entry: LogEntry = {
		method: req.method ?? 'GET',
		path: url.pathname,
		query: queryRecord(url.searchParams),
		status: 0,
		key: bearer(req),
		time: iso(state.clock.now()),
	};
	state.log.add(entry);
	res.on('finish', () => (entry.status = res.statusCode));
	try {
		if (url.pathname.startsWith(REDIRECT_PREFIX)) {
			writeReply(res, redirectReply(url));
		} else if (url.pathname.startsWith(HOSTILE_PREFIX)) {
			await handleHostile(req, res, url, req.socket.localPort ?? 0);
		} else if (
			url.pathname.startsWith(FILES_PREFIX) &&
			(req.method === 'GET' || req.method === 'HEAD')
		) {
			writeReply(res, state.signer.serve(state.store, url.pathname, url.searchParams));
		} else {
			await runV1(state, handlers, req, res, url, entry);
		}
	} catch (error) {
		if (!(error instanceof ApiError)) console.error('sandbox: unexpected error', error);
		const apiError =
			error instanceof ApiError
				? error
				: new ApiError(500, 'internal_error', 'Unexpected sandbox error');
		if (!res.headersSent && !res.destroyed) writeReply(res, errorReply(apiError));
	}
}

/**
 * How long an idle keep-alive connection stays open. Clients pool connections
 * (undici idles them 4 s unless told otherwise); with Node's default of 5 s a
 * client slowed by load can send on a socket the server is closing, and gets
 * ECONNRESET. Well above the clients' idle time, the server never closes first.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function createSandboxServer(state: SandboxState, handlers: ApiHandlers): Server {
	const server = createServer((req, res) => void handle(state, handlers, req, res));
	server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
	// Must outlast keepAliveTimeout, or Node cuts a reused connection waiting for headers.
	server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
	return server;
}
