/**
 * A server that drops the first connection without an answer, then answers every request with
 * `body` as JSON: what a client that repeats a request whose connection dropped is tested against.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DropsFirst {
	url: string;
	/** Every request received, as `METHOD /path`. */
	requests: string[];
	close: () => Promise<void>;
}

export async function dropsFirstConnection(body: string): Promise<DropsFirst> {
	const requests: string[] = [];
	const server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		if (requests.length === 1) {
			req.socket.destroy();
			return;
		}
		res.setHeader('content-type', 'application/json');
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
