/**
 * The n8n REST client used by the demo and the e2e tests repeats a request whose
 * connection dropped before an answer only when repeating it is harmless.
 */
import { LOCAL_OWNER, N8nRestClient } from '../../scripts/n8n-rest';
import { dropsFirstConnection, type DropsFirst } from '../helpers/drops-first';

let server: DropsFirst;
let requests: string[];
let client: N8nRestClient;

beforeEach(async () => {
	server = await dropsFirstConnection('{"data":{}}');
	requests = server.requests;
	client = new N8nRestClient(server.url);
});
afterEach(async () => await server.close());

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
