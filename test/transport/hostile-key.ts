/**
 * The key goes only to the Base URL's own host, whatever the credential's Allowed HTTP Request
 * Domains say. With a wildcard there (`*.localhost`), a redirect to a subdomain passed n8n's
 * domain check, and the redirect library keeps the Authorization header for a subdomain on the
 * same port: the key arrived there. The sandbox's hostile `/_hostile/subdomain/<path>` answers
 * 307 to `<path>` on `api.<the host asked>`, same port; this file's lookup answers
 * `api.localhost` with 127.0.0.1 (as a resolver that serves `*.localhost` does), so the redirected
 * request, if sent, reaches the sandbox and shows in its log with the key it carried.
 */
import dns from 'node:dns';

import type { IRequestOptions } from 'n8n-workflow';

import { InspectionBusinessApi } from '../../credentials/InspectionBusinessApi.credentials';
import { SANDBOX_KEYS, withExecuteContext, withSandbox } from '../helpers/n8n';

export function hostileKey(): void {
	const sandbox = withSandbox();
	const KEY = SANDBOX_KEYS.acmeOwner;
	const port = () => new URL(sandbox.baseUrl).port;
	/** The sandbox by name: the Base URL whose subdomains the redirect goes to. */
	const byName = () => `http://localhost:${port()}`;

	beforeAll(() => {
		const lookup = dns.lookup.bind(dns);
		jest
			.spyOn(dns, 'lookup')
			.mockImplementation(((host: string, options: unknown, callback?: unknown) =>
				host === 'api.localhost'
					? lookup('127.0.0.1', options as dns.LookupOptions, callback as never)
					: lookup(
							host,
							options as dns.LookupOptions,
							callback as never,
						)) as unknown as typeof dns.lookup);
	});
	afterAll(() => jest.restoreAllMocks());

	/** What n8n's HTTP Request node (4.4, Follow Redirects on) sends with this credential and a domain list. */
	const httpRequestNode = (uri: string, allowedDomains: string): IRequestOptions => ({
		uri,
		method: 'GET',
		headers: {},
		followRedirect: true,
		followAllRedirects: true,
		resolveWithFullResponse: true,
		sendCredentialsOnCrossOriginRedirect: false,
		allowedDomains,
	});

	async function throughCredential(options: IRequestOptions) {
		return await withExecuteContext(
			async function () {
				return await this.helpers.requestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					options,
				);
			},
			{ credentials: sandbox.credentials('acmeOwner', { baseUrl: byName() }) },
		);
	}

	const keyedRequests = async () =>
		(await sandbox.control.requests()).data
			.filter((entry) => entry.key === KEY)
			.map((entry) => entry.path);

	it('the sandbox redirects to the subdomain api. of the host asked, same port', async () => {
		const answer = await fetch(`${byName()}/_hostile/subdomain/v1/tags?limit=1`, {
			redirect: 'manual',
		});
		expect(answer.status).toBe(307);
		expect(answer.headers.get('location')).toBe(`http://api.localhost:${port()}/v1/tags?limit=1`);
	});

	it('a wildcard in Allowed Domains does not let the key follow a redirect to a subdomain', async () => {
		const { error } = await throughCredential(
			httpRequestNode(`${byName()}/_hostile/subdomain/v1/tags`, '*.localhost, localhost'),
		);
		expect(String(error?.message ?? '') + String(error?.description ?? '')).toMatch(
			/Domain not allowed/,
		);
		// The redirect was asked with the key; nothing was sent to the subdomain.
		expect(await keyedRequests()).toEqual(['/_hostile/subdomain/v1/tags']);
	});

	it('a request to another host with this credential is refused before anything is sent', async () => {
		const { error } = await throughCredential(
			httpRequestNode(`http://127.0.0.1:${port()}/v1/tags`, '*'),
		);
		expect(String(error?.message)).toMatch(
			/The API key is sent only to the Base URL's host \(localhost\)/,
		);
		expect((await sandbox.control.requests()).data).toEqual([]);
	});

	describe("the credential's authenticate", () => {
		const credential = new InspectionBusinessApi();
		const data = { apiKey: 'k', baseUrl: 'https://api.example.com/v1' };

		it.each([undefined, '', '*.example.com', 'api.example.com, other.example.net'])(
			'with allowed domains %j, restricts the request (and its redirects) to the Base URL host',
			async (allowedDomains) => {
				const options = await credential.authenticate(data, {
					url: 'https://api.example.com/v1/tags',
					allowedDomains,
				});
				expect(options.allowedDomains).toBe('api.example.com');
				expect(options.sendCredentialsOnCrossOriginRedirect).toBe(false);
			},
		);

		it.each([
			[
				'https://files.example.com/v1/tags',
				undefined,
				/sent only to the Base URL's host \(api\.example\.com\)/,
			],
			['https://api.example.com/v1/tags', 'other.example.net', /Domain not allowed/],
			['https://api.example.com/v1/tags', '*.api.example.com', /Domain not allowed/],
		])('to %s with allowed domains %j: refused', async (url, allowedDomains, refusal) => {
			await expect(credential.authenticate(data, { url, allowedDomains })).rejects.toThrow(refusal);
		});
	});
}
