/**
 * The credential: its test request resolved with n8n's expression engine asks
 * the API root whatever the Base URL ends with and costs exactly one request;
 * its authenticate adds the key and refuses plain http to a non-loopback host,
 * by the same rule as the node. (test/e2e/credential.e2e.test.ts runs the
 * test in a real n8n.)
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { InspectionBusinessApi } from '../../credentials/InspectionBusinessApi.credentials';
import { apiRequest, checkedUrl } from '../../nodes/shared/transport/request';
import { NodeTypeRegistry, buildWorkflow } from '../helpers/runtime';
import { SANDBOX_KEYS, withExecuteContext, withSandbox } from '../helpers/n8n';
import { TEST_NODE } from './context';

export function credential(): void {
	const sandbox = withSandbox();
	const credential = new InspectionBusinessApi();

	/** Resolves the credential test's `={{…}}` fields as n8n's credential tester does. */
	function resolvedTestRequest(data: ICredentialDataDecryptedObject): IHttpRequestOptions {
		const workflow = buildWorkflow([], {}, new NodeTypeRegistry());
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(
						TEST_NODE,
						value,
						'internal',
						{ $credentials: data },
						undefined,
						'',
					)
				: value;
		const { request } = credential.test;
		return {
			...request,
			baseURL: String(resolve(request.baseURL)),
			url: String(resolve(request.url)),
		} as IHttpRequestOptions;
	}

	it.each([
		['https://api.example.com/', 'https://api.example.com'],
		['  https://api.example.com  ', 'https://api.example.com'],
		['https://api.example.com/v1', 'https://api.example.com'],
		['https://api.example.com/v1/', 'https://api.example.com'],
		['https://example.com/api/V1', 'https://example.com/api'],
		['https://example.com/api/v1x', 'https://example.com/api/v1x'],
		['http://localhost:4010', 'http://localhost:4010'],
		['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
		['http://[::1]:4010/v1', 'http://[::1]:4010'],
	])('the credential test asks the API root: %s gives %s', (baseUrl, expected) => {
		expect(resolvedTestRequest({ apiKey: 'k', baseUrl }).baseURL).toBe(expected);
	});

	/** What the credential's authenticate makes of a request to `baseURL`, or the error it throws. */
	async function authenticated(baseURL: string, url = '/v1/tags'): Promise<IHttpRequestOptions> {
		return await credential.authenticate({ apiKey: ' key ', baseUrl: baseURL }, { baseURL, url });
	}

	/** Whether the node's transport would send the key to `url`. */
	function nodeAccepts(url: string): boolean {
		try {
			checkedUrl(TEST_NODE, url, 'Base URL');
			return true;
		} catch {
			return false;
		}
	}

	describe.each([
		['http://localhost:4010', true],
		['http://LOCALHOST:4010/', true],
		['http://127.0.0.1:4010', true],
		['http://127.8.9.10', true],
		['http://[::1]:4010', true],
		['https://api.example.com', true],
		['http://127.1:4010', false],
		['http://[0:0:0:0:0:0:0:1]:4010', false],
		['http://localhost.example.com', false],
		['http://127.example.com', false],
		['http://localhost@evil.example.com', false],
		['http://api.example.com', false],
		['http://10.0.0.5:4010', false],
	])('%s', (url, allowed) => {
		it(`is ${allowed ? 'allowed' : 'refused'} by the credential and the node alike`, async () => {
			expect(nodeAccepts(url)).toBe(allowed);
			if (allowed) {
				expect((await authenticated(url)).headers).toEqual({ Authorization: 'Bearer key' });
			} else {
				await expect(authenticated(url)).rejects.toThrow(
					'Base URL: plain http is refused; use https',
				);
			}
		});
	});

	it('refuses a Base URL without https:// and says so', async () => {
		await expect(authenticated('api.example.com')).rejects.toThrow(
			'Base URL: "api.example.com" must start with https://',
		);
	});

	it('the node refuses a Base URL of another scheme, saying what to use', () => {
		let error: unknown;
		try {
			checkedUrl(TEST_NODE, 'ftp://api.example.com', 'Base URL');
		} catch (caught) {
			error = caught;
		}
		expect(error).toMatchObject({ message: expect.stringMatching(/\S/) });
		expect((error as { description?: unknown }).description).toMatch(/\S/);
	});

	it('checks the absolute URL of an HTTP Request node, which axios uses instead of the base URL', async () => {
		await expect(authenticated('', 'http://api.example.com/v1/tags')).rejects.toThrow(
			'plain http is refused',
		);
		expect(
			(await authenticated('http://api.example.com', 'https://api.example.com/v1/tags')).headers,
		).toEqual({ Authorization: 'Bearer key' });
	});

	it('the credential test names a rejected key and a wrong Base URL', () => {
		const statusRules = credential.test.rules
			?.filter((rule) => rule.type === 'responseCode')
			.map((rule) => [rule.properties.value, rule.properties.message]);
		expect(statusRules).toEqual([
			[401, expect.stringMatching(/^The API key was not accepted \(HTTP 401\)\. /)],
			[404, expect.stringMatching(/^The Base URL has no Inspection Business API/)],
		]);
	});

	/** The message of the first body rule that refuses a 2xx body, as n8n's credential tester applies them. */
	function refusedBody(body: unknown): string | undefined {
		for (const rule of credential.test.rules ?? []) {
			if (rule.type !== 'responseSuccessBody') continue;
			const { key, value, message } = rule.properties as {
				key: string;
				value: unknown;
				message: string;
			};
			const found =
				body !== null && typeof body === 'object'
					? (body as Record<string, unknown>)[key]
					: undefined;
			if (found === value) return message;
		}
		return undefined;
	}

	it("the credential test passes the API's list of tags and refuses any other 2xx answer", async () => {
		const answer = await fetch(`${sandbox.baseUrl}/v1/tags?limit=1`, {
			headers: { Authorization: `Bearer ${SANDBOX_KEYS.acmeOwner}` },
		});
		expect(answer.status).toBe(200);
		expect(refusedBody(await answer.json())).toBeUndefined();
		for (const other of [
			'<!DOCTYPE html><html><body>n8n</body></html>',
			{},
			{ data: [] },
			{ total: 3 },
			{ status: 'ok' },
		]) {
			expect(refusedBody(other)).toMatch(
				/^The Base URL answered, but not as the Inspection Business API/,
			);
		}
	});

	it('the credential test costs exactly one request and is authenticated by the generic authenticate', async () => {
		const credentials = sandbox.credentials();
		const { value, error } = await withExecuteContext(
			async function () {
				const data = await this.getCredentials('inspectionBusinessApi');
				return await this.helpers.httpRequestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					{
						...resolvedTestRequest(data),
						json: true,
					},
				);
			},
			{ credentials },
		);
		expect(error).toBeUndefined();
		expect(value).toMatchObject({ data: [expect.any(Object)] });
		const log = (await sandbox.control.requests()).data;
		expect(log).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/v1/tags',
				query: { limit: '1' },
				key: SANDBOX_KEYS.acmeOwner,
				status: 200,
			}),
		]);
	});

	it('a revoked key fails the credential test with 401', async () => {
		const { error } = await withExecuteContext(
			async function () {
				const data = await this.getCredentials('inspectionBusinessApi');
				return await this.helpers.httpRequestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					resolvedTestRequest(data),
				);
			},
			{ credentials: sandbox.credentials('revoked') },
		);
		expect(String((error as { httpCode?: string } | undefined)?.httpCode)).toBe('401');
	});

	it('declares the fields and defaults the package relies on', () => {
		expect(credential.name).toBe('inspectionBusinessApi');
		expect(credential.properties.map((p) => [p.name, p.default, p.required ?? false])).toEqual([
			['apiKey', '', true],
			['baseUrl', '', true],
			['requestsPerMinute', 120, false],
			['rateLimitWaitMinutes', 10, false],
		]);
		expect(credential.properties[0].typeOptions?.password).toBe(true);
	});

	it.each([
		['an empty key', ''],
		['a key of spaces', '   '],
		['no key at all', undefined],
	])(
		'the node refuses a credential with %s, naming it, before sending anything',
		async (_what, apiKey) => {
			await sandbox.control.clearRequests();
			const { error } = await withExecuteContext(
				async function () {
					return await apiRequest.call(this, 'listTags');
				},
				{ credentials: sandbox.credentials('acmeOwner', { apiKey }) },
			);
			expect(error?.message).toMatch(/API key/);
			expect((error as { description?: unknown } | undefined)?.description).toEqual(
				expect.any(String),
			);
			expect((await sandbox.control.requests()).count).toBe(0);
		},
	);
}
