/**
 * The credential test as the editor runs it, in the real n8n (`POST
 * /rest/credentials/test`, which resolves the test request's expressions and
 * runs the credential's authenticate): the answer for each Base URL form, each
 * loopback alias, plain http elsewhere, a revoked key and a wrong address.
 * Then the key and redirects: neither the credential test nor n8n's HTTP
 * Request node with this credential sends the key where the sandbox's
 * `/_redirect/<port>/…` points (another port: another origin).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SANDBOX_KEYS } from '../../sandbox/index';
import { nodeItems } from '../../scripts/n8n-instance';
import { SANDBOX_CREDENTIAL } from '../../scripts/workflows';
import { chain, manualTrigger } from './workflows/build';
import { useN8n } from './support/instance';

interface TestAnswer {
	status: 'OK' | 'Error';
	message: string;
}

// With the editor: n8n's own address answers any path with its page, the 2xx tested last.
const instance = useN8n('credential', { template: 'suite', ui: true });
/** This file's sandbox's port, in the addresses below: `<port>`. */
const onSandbox = (address: string) => address.replace('<port>', new URL(instance.sandboxUrl).port);

/** Tests unsaved credential data, as the editor does before saving (the owner may). */
async function credentialTest(baseUrl: string, apiKey: string = SANDBOX_KEYS.acmeOwner) {
	return await instance.rest.rest<TestAnswer>(
		'POST',
		'/rest/credentials/test',
		{
			credentials: {
				id: '',
				name: 'Inspection Business API (test)',
				type: 'inspectionBusinessApi',
				data: { apiKey, baseUrl, requestsPerMinute: 120 },
			},
		},
		{ idempotent: true },
	);
}

it.each([
	'http://127.0.0.1:<port>',
	'http://127.0.0.1:<port>/',
	'http://127.0.0.1:<port>/v1',
	'http://127.0.0.1:<port>/v1/',
	'http://localhost:<port>',
	'http://LOCALHOST:<port>/v1',
])('%s: connection successful', async (baseUrl) => {
	expect(await credentialTest(onSandbox(baseUrl))).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
});

it('[::1] is loopback too: the key may go there (the sandbox listens on 127.0.0.1 only, so the connection is refused)', async () => {
	expect(await credentialTest(onSandbox('http://[::1]:<port>'))).toEqual({
		status: 'Error',
		message: 'ECONNREFUSED',
	});
});

it.each([
	'http://api.example.com',
	'http://10.0.0.5:4010/v1',
	'http://127.1:<port>',
	'http://localhost.example.com',
])('%s: plain http is refused, and says so instead of a network error', async (baseUrl) => {
	const answer = await credentialTest(onSandbox(baseUrl));
	expect(answer.status).toBe('Error');
	expect(answer.message).toMatch(/^Base URL: plain http is refused; use https\./);
});

it('an address without https:// says that it must start with it', async () => {
	expect(await credentialTest('api.example.com')).toEqual({
		status: 'Error',
		message: 'Base URL: "api.example.com" must start with https://, e.g. https://api.example.com',
	});
});

it('a revoked key: the API key was not accepted, with what to check', async () => {
	const answer = await credentialTest(instance.sandboxUrl, SANDBOX_KEYS.revoked);
	expect(answer.status).toBe('Error');
	expect(answer.message).toMatch(/^The API key was not accepted \(HTTP 401\)\. Copy the key again/);
	expect(answer.message).not.toContain(SANDBOX_KEYS.revoked);
});

it('a Base URL with no API behind it: 404 explained', async () => {
	const answer = await credentialTest(`${instance.sandboxUrl}/somewhere-else`);
	expect(answer).toEqual({
		status: 'Error',
		message: expect.stringMatching(/^The Base URL has no Inspection Business API \(HTTP 404/),
	});
});

describe('the key never follows a redirect to another port', () => {
	let server: Server;
	let port: number;
	const received: IncomingHttpHeaders[] = [];

	beforeAll(async () => {
		server = createServer((req, res) => {
			received.push(req.headers);
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end('{"data":[],"next_cursor":null}');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		port = (server.address() as AddressInfo).port;
	});
	beforeEach(() => void received.splice(0));
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	it('the credential test', async () => {
		await credentialTest(`${instance.sandboxUrl}/_redirect/${port}`);
		expect(received).toHaveLength(1);
		expect(received[0].authorization).toBeUndefined();
	});

	it(
		'an HTTP Request node (4.2: sends credentials on cross-origin redirects unless told not to)',
		async () => {
			const workflow = chain('IbRedirectHttp01', 'HTTP Request redirected', [
				manualTrigger(),
				{
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: {
						url: `${instance.sandboxUrl}/_redirect/${port}/v1/tags`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'inspectionBusinessApi',
						options: {},
					},
					credentials: { inspectionBusinessApi: SANDBOX_CREDENTIAL },
				},
			]);
			const n8n = instance.userFolder;
			await n8n.importWorkflows([workflow]);
			const output = await n8n.execute(workflow.id);
			expect(nodeItems(output, 'HTTP Request')[0].json).toEqual({ data: [], next_cursor: null });
			expect(received).toHaveLength(1);
			expect(received[0].authorization).toBeUndefined();
			expect(JSON.stringify(received[0])).not.toContain(SANDBOX_KEYS.acmeOwner);
		},
		10 * 60_000,
	);
});

it("n8n's own address (a 2xx that is not the API's list): refused, saying what answered", async () => {
	const answer = await credentialTest(instance.url);
	expect(answer).toEqual({
		status: 'Error',
		message: expect.stringMatching(
			/^The Base URL answered, but not as the Inspection Business API/,
		),
	});
});
