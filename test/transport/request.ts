/**
 * The steps of an API request that touch the wire: the options built once per
 * request (`requestOptions`), and one exchange (`sendOnce`) against the
 * sandbox, which sends exactly once, adds the key through n8n's credential
 * helper and hands back every ending as a value.
 */
import { TRANSPORT_LIMITS } from '../../nodes/shared/transport/limits';
import {
	apiRequest,
	apiSettings,
	attemptMs,
	requestOptions,
	sendOnce,
} from '../../nodes/shared/transport/request';
import type { ApiSettings } from '../../nodes/shared/transport/types';
import { SANDBOX_KEYS, withExecuteContext, withSandbox } from '../helpers/n8n';
import { inNode } from './context';

export function requestSteps(): void {
	const sandbox = withSandbox();
	const settings: ApiSettings = {
		apiKey: 'k',
		baseUrl: 'https://api.example.com/base',
		requestsPerMinute: 120,
		rateLimitDeadlineMs: 60_000,
	};
	const CONTACT = '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d';

	describe('requestOptions', () => {
		it('a GET: the URL from the endpoint table, a repeated list parameter, no body, the key only for the Base URL', () => {
			const options = requestOptions(settings, {
				method: 'GET',
				endpoint: 'listContacts',
				pathParams: {},
				qs: { tag: ['a', 'b'] },
			});
			expect(options).toMatchObject({
				method: 'GET',
				url: 'https://api.example.com/base/v1/contacts',
				qs: { tag: ['a', 'b'] },
				arrayFormat: 'repeat',
				json: undefined,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				sendCredentialsOnCrossOriginRedirect: false,
				// Read as a stream, so its size is counted as it arrives.
				encoding: 'stream',
			});
			expect(options.body).toBeUndefined();
			expect(JSON.stringify(options)).not.toContain('"k"');
		});

		it('a JSON body is sent as JSON, path parameters fill the path', () => {
			const options = requestOptions(settings, {
				method: 'PATCH',
				endpoint: 'updateContact',
				pathParams: { contact_id: CONTACT },
				body: { city: 'X' },
			});
			expect(options).toMatchObject({
				url: `https://api.example.com/base/v1/contacts/${CONTACT}`,
				body: { city: 'X' },
				json: true,
			});
		});

		it('an upload is multipart (no json flag) with the longer deadline', () => {
			const form = new FormData();
			const options = requestOptions(settings, {
				method: 'POST',
				endpoint: 'uploadContactPhoto',
				pathParams: { contact_id: CONTACT },
				body: form,
				upload: 'photo',
			});
			expect(options.body).toBe(form);
			expect(options.json).toBeUndefined();
			expect(attemptMs({ upload: 'photo' })).toBe(TRANSPORT_LIMITS.uploadAttemptMs);
			expect(attemptMs({})).toBe(TRANSPORT_LIMITS.attemptMs);
		});
	});

	it('apiRequest refuses a file-upload endpoint (uploadFile sends those) before sending anything', async () => {
		await sandbox.control.clearRequests();
		const { error } = await withExecuteContext(
			async function () {
				return await apiRequest.call(this, 'uploadContactPhoto', {
					pathParams: { contact_id: CONTACT },
				});
			},
			{ credentials: sandbox.credentials() },
		);
		expect(error).toBeDefined();
		expect((await sandbox.control.requests()).count).toBe(0);
	});

	describe('sendOnce (sandbox)', () => {
		/** One exchange of GET /v1/tags. */
		const once = async () =>
			await inNode(sandbox.credentials(), async function () {
				const call = { method: 'GET', endpoint: 'listTags', pathParams: {} } as const;
				return await sendOnce.call(this, requestOptions(await apiSettings.call(this), call));
			});

		it('an answer, with the key added by the credential', async () => {
			const exchange = await once();
			expect(exchange).toMatchObject({ kind: 'answered', answer: { status: 200 } });
			const [logged] = (await sandbox.control.requests()).data;
			expect(logged).toMatchObject({ path: '/v1/tags', key: SANDBOX_KEYS.acmeOwner });
		});

		it('an error status is an answer too, and is sent once', async () => {
			await sandbox.control.queueFaults({ kind: '503', path: '/v1/tags' });
			const exchange = await once();
			expect(exchange).toMatchObject({ kind: 'answered', answer: { status: 503 } });
			expect((await sandbox.control.requests()).count).toBe(1);
		});

		it('a reset connection is a network failure, sent once', async () => {
			await sandbox.control.queueFaults({ kind: 'reset', path: '/v1/tags' });
			const exchange = await once();
			expect(exchange).toMatchObject({
				kind: 'failed',
				failure: { kind: 'network', code: 'ECONNRESET' },
			});
			expect((await sandbox.control.requests()).count).toBe(1);
		});
	});
}
