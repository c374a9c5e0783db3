/**
 * Why this exists next to the sandbox: it answers what the sandbox never does
 * (an error body in a shape other than the API's, a plain-text 502, a 413 for a
 * file the node's own size check lets through, a server that echoes the key,
 * a cursor handed out twice), and it is a host that is not the API, so a test
 * sees every header a signed-link download carries and file names the sandbox
 * never sends. Everything else is tested against the sandbox.
 *
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
	/** The reason phrase after the status code ('' sends none); Node's usual one when unset. */
	reason?: string;
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
			const headers = {
				'Content-Type': next.text ? 'text/plain' : 'application/json',
				...next.headers,
			};
			if (next.reason === undefined) res.writeHead(next.status, headers);
			else res.writeHead(next.status, next.reason, headers);
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
