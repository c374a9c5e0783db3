/**
 * A scripted HTTP server for what the sandbox does not produce: each error-body
 * shape of A6, a 413, a server that echoes the bearer token, a signed-link host.
 * Answers come from a queue (then a default); every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
	status: number;
	body?: unknown;
	/** Raw text instead of JSON. */
	text?: string;
	headers?: Record<string, string>;
}

export interface RecordedRequest {
	method?: string;
	url?: string;
	headers: IncomingHttpHeaders;
}

export interface FakeApi {
	baseUrl: string;
	requests: RecordedRequest[];
	answer(...answers: ScriptedAnswer[]): void;
	close(): Promise<void>;
}

export async function startFakeApi(
	fallback: ScriptedAnswer = { status: 200, body: { data: [], next_cursor: null, total: 0 } },
): Promise<FakeApi> {
	const queue: ScriptedAnswer[] = [];
	const requests: RecordedRequest[] = [];
	const server: Server = createServer((req, res) => {
		requests.push({ method: req.method, url: req.url, headers: req.headers });
		req.resume();
		req.on('end', () => {
			const next = queue.shift() ?? fallback;
			const payload = next.text ?? (next.body === undefined ? '' : JSON.stringify(next.body));
			res.writeHead(next.status, {
				'Content-Type': next.text ? 'text/plain' : 'application/json',
				...next.headers,
			});
			res.end(payload);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		answer: (...answers) => queue.push(...answers),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Walks an error (or any value) including non-enumerable fields and causes; true if `secret` occurs anywhere. */
export function containsSecret(value: unknown, secret: string, seen = new Set<unknown>()): boolean {
	if (typeof value === 'string') return value.includes(secret);
	if (value === null || typeof value !== 'object' || seen.has(value)) return false;
	seen.add(value);
	if (Buffer.isBuffer(value)) return value.includes(secret);
	const names = new Set([
		...Object.getOwnPropertyNames(value),
		'message',
		'stack',
		'description',
		'cause',
		'context',
	]);
	for (const name of names) {
		let field: unknown;
		try {
			field = (value as Record<string, unknown>)[name];
		} catch {
			continue;
		}
		if (containsSecret(field, secret, seen)) return true;
	}
	return false;
}

/** The checks a test makes on any error: message, description, stack, causes and the JSON n8n would store. */
export function expectNoSecret(value: unknown, secret: string): void {
	expect(containsSecret(value, secret)).toBe(false);
	let json = '';
	try {
		json = JSON.stringify(value) ?? '';
	} catch {
		json = '';
	}
	expect(json.includes(secret)).toBe(false);
}
