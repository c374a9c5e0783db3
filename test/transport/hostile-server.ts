/**
 * A scripted hostile API for the property test of the transport's limits
 * (answers.property.ts): each request under `/hostile/` is answered by the
 * script's next behaviour, and once the script is spent by its `tail`, forever
 * (endless pages, a 429 storm, a drip...). Requests under `/sane/` get a sane
 * answer, for the request that checks the key still works. Every request is
 * recorded with how long the server held it: until its answer was done or the
 * client went away.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';

export const ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export type Behaviour =
	/** A list page: `records` records, new ones or the same few (the wanted id among them). */
	| {
			kind: 'page';
			records: number;
			fresh: boolean;
			next: boolean;
			total: 'none' | 'count' | 'huge' | 'growing';
			encoding: Encoding;
	  }
	/** A valid page padded to `times` the answer cap, its length sent or not. */
	| { kind: 'big'; times: number; encoding: Encoding; announced: boolean }
	/** The headers, then a blank every 20 ms, never done. */
	| { kind: 'drip' }
	/** The connection taken, nothing ever sent. */
	| { kind: 'silent' }
	/** The connection reset at once. */
	| { kind: 'reset' }
	| { kind: 'status'; status: 400 | 404 | 500 | 503 }
	| { kind: 'limited'; retryAfterS?: number }
	/** 200 with a body that is not JSON. */
	| { kind: 'malformed' };

export interface Script {
	steps: Behaviour[];
	tail: Behaviour;
}

export interface Served {
	method: string;
	path: string;
	kind: Behaviour['kind'] | 'sane';
	/** How long the server held the request: until its answer was done or the client left. */
	heldMs?: number;
}

/** The id every page of repeated records holds, and the Get and the Re-Fetch ask for. */
export const WANTED = '00000000-0000-4000-8000-00000000000a';
const SAME_FEW = [WANTED, '00000000-0000-4000-8000-00000000000b'];

const encode = (body: Buffer, encoding: Encoding): Buffer => {
	switch (encoding) {
		case 'gzip':
			return gzipSync(body, { level: 1 });
		case 'deflate':
			return deflateSync(body, { level: 1 });
		case 'br':
			return brotliCompressSync(body, {
				params: { [constants.BROTLI_PARAM_QUALITY]: 1 },
			});
		default:
			return body;
	}
};

export interface HostileServer {
	baseUrl: string;
	served: Served[];
	/** Starts a new script; the record log starts again. */
	play(script: Script): void;
	close(): Promise<void>;
}

/**
 * The server, its padded pages made up front for each of `sizes` (times the cap) and each
 * encoding.
 */
export async function startHostileServer(
	answerCap: number,
	sizes: number[],
): Promise<HostileServer> {
	let script: Script = { steps: [], tail: { kind: 'status', status: 404 } };
	let step = 0;
	let handedOut = 0;
	const served: Served[] = [];
	const timers = new Set<NodeJS.Timeout>();
	const padded = new Map<string, Buffer>();

	const record = (id: string) => ({ id, first_name: 'Fuzz', updated_at: '2026-01-01T00:00:00Z' });

	function sendJson(res: ServerResponse, status: number, text: string, encoding: Encoding) {
		const body = encode(Buffer.from(text), encoding);
		res.writeHead(status, {
			'Content-Type': 'application/json',
			'Content-Length': body.length,
			...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
		});
		res.end(body);
	}

	function page(res: ServerResponse, b: Extract<Behaviour, { kind: 'page' }>) {
		const data = Array.from({ length: b.records }, (_, i) =>
			record(
				b.fresh
					? `00000000-0000-4000-9000-${String(++handedOut).padStart(12, '0')}`
					: SAME_FEW[i % SAME_FEW.length],
			),
		);
		const total = { none: undefined, count: 3, huge: 1e12, growing: handedOut + 1 }[b.total];
		const next = b.next ? `c${served.length}` : null;
		sendJson(res, 200, JSON.stringify({ data, next_cursor: next, total }), b.encoding);
	}

	/** The padded page of `times` the cap, made once: made during a run, it would count in its memory. */
	function paddedPage(times: number, encoding: Encoding): Buffer {
		const key = `${times}:${encoding}`;
		let body = padded.get(key);
		if (body === undefined) {
			const pad = '0'.repeat(Math.round(times * answerCap));
			body = encode(Buffer.from(`{"data":[],"next_cursor":null,"pad":"${pad}"}`), encoding);
			padded.set(key, body);
		}
		return body;
	}

	function big(res: ServerResponse, b: Extract<Behaviour, { kind: 'big' }>) {
		const body = paddedPage(b.times, b.encoding);
		res.writeHead(200, {
			'Content-Type': 'application/json',
			...(b.announced ? { 'Content-Length': body.length } : {}),
			...(b.encoding === 'identity' ? {} : { 'Content-Encoding': b.encoding }),
		});
		res.end(body);
	}

	function drip(res: ServerResponse) {
		res.writeHead(200, { 'Content-Type': 'application/json' });
		const timer = setInterval(() => (res.destroyed ? undefined : res.write(' ')), 20);
		timers.add(timer);
		res.on('close', () => {
			clearInterval(timer);
			timers.delete(timer);
		});
	}

	function behave(req: IncomingMessage, res: ServerResponse, b: Behaviour) {
		switch (b.kind) {
			case 'page':
				return page(res, b);
			case 'big':
				return big(res, b);
			case 'drip':
				return drip(res);
			case 'silent':
				return undefined;
			case 'reset':
				return req.socket.destroy();
			case 'status':
				return sendJson(res, b.status, '{"error":{"code":"fuzz","message":"Fuzzed"}}', 'identity');
			case 'limited': {
				const text = '{"error":{"code":"rate_limited","message":"Slow down"}}';
				if (b.retryAfterS !== undefined) res.setHeader('Retry-After', String(b.retryAfterS));
				return sendJson(res, 429, text, 'identity');
			}
			default:
				res.writeHead(200, { 'Content-Type': 'application/json' });
				return res.end('{"data": [');
		}
	}

	for (const times of sizes) for (const encoding of ENCODINGS) paddedPage(times, encoding);

	const server: Server = createServer((req, res) => {
		req.resume();
		const path = req.url ?? '/';
		const sane = path.startsWith('/sane/');
		const behaviour = sane ? undefined : (script.steps[step++] ?? script.tail);
		const entry: Served = { method: req.method ?? 'GET', path, kind: behaviour?.kind ?? 'sane' };
		served.push(entry);
		const started = Date.now();
		res.on('close', () => (entry.heldMs = Date.now() - started));
		if (behaviour === undefined) {
			const text =
				req.method === 'GET'
					? '{"data":[],"next_cursor":null,"total":0}'
					: JSON.stringify(record(WANTED));
			return sendJson(res, 200, text, 'identity');
		}
		behave(req, res, behaviour);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		served,
		play(next) {
			script = next;
			step = 0;
			served.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of timers) clearInterval(timer);
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
