/**
 * The API key never follows a redirect to another origin, on each path a
 * request with this credential takes: the node's own requests, the credential
 * test, and n8n's HTTP Request node (n8n's older request helper, with its
 * options for redirects). The sandbox's `/_redirect/<port>/…` answers 307 to
 * the same path on another port, where a recording host (another origin)
 * shows every header it received.
 *
 * Measured with n8n-core 2.41.1 before the guards: follow-redirects drops the
 * Authorization header when the host or port changes, but n8n's redirect hook
 * puts it back unless `sendCredentialsOnCrossOriginRedirect` is false, and
 * the HTTP Request node (below 4.4) and any caller that leaves it out have it
 * true by default.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IRequestOptions } from 'n8n-workflow';

import { InspectionBusinessApi } from '../../credentials/InspectionBusinessApi.credentials';
import { apiRequest } from '../../nodes/shared/transport/request';
import { SANDBOX_KEYS, withExecuteContext, withSandbox } from '../helpers/n8n';
import { expectNoSecret, failureOf } from './context';
import { type FakeApi, startFakeApi } from './fake-api';

export function redirects(): void {
	const sandbox = withSandbox();
	const KEY = SANDBOX_KEYS.acmeOwner;
	let elsewhere: FakeApi;

	beforeEach(async () => {
		elsewhere = await startFakeApi({ status: 200, body: { data: [], next_cursor: null } });
	});
	afterEach(async () => await elsewhere.close());

	const port = () => new URL(elsewhere.baseUrl).port;
	/** A Base URL whose every request the sandbox redirects to the recording host's port. */
	const redirectingBase = () => `${sandbox.baseUrl}/_redirect/${port()}`;

	/** Runs `fn` in a real n8n execute context with a credential whose Base URL redirects. */
	async function withRedirectingCredential(fn: (this: IExecuteFunctions) => Promise<unknown>) {
		return await withExecuteContext(fn, {
			credentials: sandbox.credentials('acmeOwner', { baseUrl: redirectingBase() }),
		});
	}

	it("the sandbox's redirect route answers 307 to the same path on the other port", async () => {
		const answer = await fetch(`${redirectingBase()}/v1/tags?limit=1`, { redirect: 'manual' });
		expect(answer.status).toBe(307);
		expect(answer.headers.get('location')).toBe(`http://127.0.0.1:${port()}/v1/tags?limit=1`);
	});

	describe("the node's requests", () => {
		it('follow no redirect: the error names where it pointed, and nothing reaches that origin', async () => {
			const error = await failureOf(
				sandbox.credentials('acmeOwner', { baseUrl: redirectingBase() }),
				async function () {
					return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
				},
			);
			expect(error.message).toBe(
				`The API answered with a redirect (HTTP 307) to http://127.0.0.1:${port()}; it was not followed`,
			);
			expect(error.description).toContain("put it in the credential's Base URL");
			expectNoSecret(error, KEY);
			expect(elsewhere.requests).toEqual([]);
			const log = (await sandbox.control.requests()).data;
			expect(log.map((entry) => [entry.path, entry.status])).toEqual([
				[`/_redirect/${port()}/v1/tags`, 307],
			]);
		});

		it('a write is not followed either (and not repeated)', async () => {
			const error = await failureOf(
				sandbox.credentials('acmeOwner', { baseUrl: redirectingBase() }),
				async function () {
					return await apiRequest.call(this, 'createContact', {
						body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
					});
				},
			);
			expect(error.message).toMatch(/^The API answered with a redirect \(HTTP 307\)/);
			expect(elsewhere.requests).toEqual([]);
			expect((await sandbox.control.requests()).data).toHaveLength(1);
		});
	});

	/** The test request as the credential declares it, at `base` (its expression resolved by hand). */
	const testRequest = (base: string): IHttpRequestOptions => ({
		...(new InspectionBusinessApi().test.request as IHttpRequestOptions),
		baseURL: base,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	});

	describe('any request through the credential (the credential test, other callers)', () => {
		it('the credential test: a redirect to another port arrives without the key', async () => {
			const { error } = await withRedirectingCredential(async function () {
				return await this.helpers.httpRequestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					testRequest(redirectingBase()),
				);
			});
			expect(error).toBeUndefined();
			expect(elsewhere.requests).toHaveLength(1);
			expect(elsewhere.requests[0].url).toBe('/v1/tags?limit=1');
			expect(elsewhere.requests[0].headers.authorization).toBeUndefined();
			expect(JSON.stringify(elsewhere.requests[0].headers)).not.toContain(KEY);
		});

		it('a caller that asks n8n to send credentials on cross-origin redirects still does not send the key', async () => {
			await withRedirectingCredential(async function () {
				return await this.helpers.httpRequestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					{
						...testRequest(redirectingBase()),
						sendCredentialsOnCrossOriginRedirect: true,
					},
				);
			});
			expect(elsewhere.requests).toHaveLength(1);
			expect(elsewhere.requests[0].headers.authorization).toBeUndefined();
		});

		it("the HTTP Request node's options (uri, follow all redirects, send credentials on) do not carry the key", async () => {
			const { error } = await withRedirectingCredential(async function () {
				// What n8n's HTTP Request node (version 4.2, Follow Redirects and Send Credentials on) sends.
				const options: IRequestOptions = {
					uri: `${redirectingBase()}/v1/tags`,
					method: 'GET',
					headers: {},
					followRedirect: true,
					followAllRedirects: true,
					resolveWithFullResponse: true,
					sendCredentialsOnCrossOriginRedirect: true,
				};
				return await this.helpers.requestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					options,
				);
			});
			expect(error).toBeUndefined();
			expect(elsewhere.requests).toHaveLength(1);
			expect(elsewhere.requests[0].headers.authorization).toBeUndefined();
			const atSandbox = (await sandbox.control.requests()).data;
			expect(atSandbox.map((entry) => entry.key)).toEqual([KEY]);
		});

		it('a redirect to another host name is refused, so nothing is sent there at all', async () => {
			const { error } = await withRedirectingCredential(async function () {
				const to = encodeURIComponent(`http://localhost:${port()}/v1/tags`);
				return await this.helpers.httpRequestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					{
						url: `${sandbox.baseUrl}/_redirect/to?url=${to}`,
						method: 'GET',
					},
				);
			});
			expect(String(error?.message ?? '') + String(error?.description ?? '')).toMatch(
				/Domain not allowed/,
			);
			expect(elsewhere.requests).toEqual([]);
		});
	});
}
