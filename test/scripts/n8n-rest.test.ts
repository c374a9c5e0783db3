/**
 * The n8n REST client used by the demo and the e2e tests repeats a request whose
 * connection dropped before an answer only when repeating it is harmless.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_OWNER, N8nRestClient } from '../../scripts/n8n-rest';

let server: Server;
let requests: string[];
let client: N8nRestClient;

/** Drops the first connection without an answer, then answers `{ "data": {} }`. */
beforeEach(async () => {
	requests = [];
	server = createServer((req, res) => {
		requests.push(`${req.method} ${req.url}`);
		if (requests.length === 1) {
			req.socket.destroy();
			return;
		}
		res.setHeader('content-type', 'application/json');
		res.end('{"data":{}}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	client = new N8nRestClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterEach(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

it.each([
	['a read', () => client.rest('GET', '/rest/community-packages'), 'GET /rest/community-packages'],
	['a login', () => client.login(LOCAL_OWNER), 'POST /rest/login'],
	[
		'a call marked idempotent',
		() => client.rest('POST', '/rest/credentials/test', {}, { idempotent: true }),
		'POST /rest/credentials/test',
	],
])('repeats %s after a dropped connection', async (_what, call, request) => {
	await call();
	expect(requests).toEqual([request, request]);
});

it('never repeats the owner setup, which is not idempotent', async () => {
	await expect(client.setupOwner(LOCAL_OWNER)).rejects.toThrow(/fetch failed/);
	expect(requests).toEqual(['POST /rest/owner/setup']);
});
