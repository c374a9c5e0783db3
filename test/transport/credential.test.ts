/**
 * The credential: its test request resolved with n8n's expression engine costs
 * exactly one request and refuses plain http to a non-loopback host; its
 * generic authenticate is what an HTTP Request node with this predefined
 * credential sends.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';

import { InspectionBusinessApi } from '../../credentials/InspectionBusinessApi.credentials';
import { NodeTypeRegistry, buildWorkflow } from '../helpers/runtime';
import { SANDBOX_KEYS, withExecuteContext, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox();
const credential = new InspectionBusinessApi();

/** Resolves the credential test's `={{…}}` fields as n8n's credential tester does. */
function resolvedTestRequest(data: ICredentialDataDecryptedObject): IHttpRequestOptions {
	const node: INode = {
		id: 'n',
		name: 'n',
		type: 'x',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const workflow = buildWorkflow([], {}, new NodeTypeRegistry());
	const resolve = (value: unknown) =>
		typeof value === 'string' && value.startsWith('=')
			? workflow.expression.getSimpleParameterValue(
					node,
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
	['http://localhost:4010', 'http://localhost:4010'],
	['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
	['http://[::1]:4010', 'http://[::1]:4010'],
	['http://api.example.com', 'https://plain-http-refused-use-https.invalid'],
	['http://127.example.com', 'https://plain-http-refused-use-https.invalid'],
])('the credential test sends %s to %s', (baseUrl, expected) => {
	expect(resolvedTestRequest({ apiKey: 'k', baseUrl }).baseURL).toBe(expected);
});

it('the credential test costs exactly one request and is authenticated by the generic authenticate', async () => {
	const credentials = sandbox.credentials();
	const { value, error } = await withExecuteContext(
		async function () {
			const data = await this.getCredentials('inspectionBusinessApi');
			return await this.helpers.httpRequestWithAuthentication.call(this, 'inspectionBusinessApi', {
				...resolvedTestRequest(data),
				json: true,
			});
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

it('declares the fields, defaults and header the package relies on', () => {
	expect(credential.name).toBe('inspectionBusinessApi');
	expect(credential.properties.map((p) => [p.name, p.default, p.required ?? false])).toEqual([
		['apiKey', '', true],
		['baseUrl', '', true],
		['requestsPerMinute', 120, false],
		['rateLimitWaitMinutes', 10, false],
	]);
	expect(credential.properties[0].typeOptions?.password).toBe(true);
	expect(credential.authenticate).toEqual({
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	});
});
