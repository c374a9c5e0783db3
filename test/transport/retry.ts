/**
 * The retry policy under injected faults: a GET is repeated on 429, 5xx, a
 * reset and unreadable JSON; a write only on 429 or a refused connection; a
 * report upload that may have been received is never sent twice.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { paginate } from '../../nodes/shared/transport/pages';
import { apiRequest } from '../../nodes/shared/transport/request';
import { RETRY } from '../../nodes/shared/transport/retry';
import { uploadFile } from '../../nodes/shared/transport/upload';
import { startSandbox } from '../../sandbox';
import type { QueuedFault } from '../../sandbox/client';
import { withRetry } from '../helpers/limits';
import { SANDBOX_KEYS, withSandbox } from '../helpers/n8n';
import { drain, expectNoSecret, failureOf, inNode } from './context';

export function retries(): void {
	const sandbox = withSandbox();
	const log = async (method: string, pathPrefix: string) =>
		(await sandbox.control.requests({ method, pathPrefix })).data;
	const newContact = () => ({
		first_name: 'Retry',
		email: `retry-${Math.random().toString(36).slice(2)}@example.com`,
	});

	async function contactsNamed(firstName: string): Promise<IDataObject[]> {
		const all = await inNode(sandbox.credentials(), async function () {
			return await drain(paginate.call(this, 'listContacts', { query: { search: firstName } }));
		});
		return all.filter((c) => c.first_name === firstName);
	}

	describe('GET requests are repeated on transient failures', () => {
		it.each<[string, QueuedFault]>([
			['500', { kind: '500' }],
			['502', { kind: '502' }],
			['503', { kind: '503' }],
			['a reset connection', { kind: 'reset' }],
			['malformed JSON', { kind: 'malformed' }],
			['429 with Retry-After', { kind: '429', retry_after: 1 }],
			['429 without Retry-After', { kind: '429-no-retry-after' }],
		])('%s', async (_name, fault) => {
			await sandbox.control.queueFaults({ ...fault, method: 'GET', path: '/v1/tags' });
			const started = Date.now();
			const tags = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
			});
			expect(Array.isArray(tags.data)).toBe(true);
			const requests = await log('GET', '/v1/tags');
			expect(requests.map((r) => r.fault ?? 'ok')).toEqual([fault.kind, 'ok']);
			if (fault.kind === '429') expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
			// Any other repeat waits a backoff first: at least half the first step (the jitter's floor).
			else
				expect(Date.parse(requests[1].time) - Date.parse(requests[0].time)).toBeGreaterThanOrEqual(
					RETRY.backoffBaseMs / 2,
				);
		});

		describe('after the last attempt', () => {
			withRetry();
			it('gives up after a bounded number of attempts, saying what failed and without the key', async () => {
				const faults = Array.from(
					{ length: RETRY.maxAttempts },
					(): QueuedFault => ({ kind: 'reset', method: 'GET', path: '/v1/tags' }),
				);
				await sandbox.control.queueFaults(...faults);
				const error = await failureOf(sandbox.credentials(), async function () {
					return await apiRequest.call(this, 'listTags', {});
				});
				expect(error.message).toBe('The connection to the API failed');
				expect(error.description).toMatch(/ECONNRESET after 4 attempt/);
				expect(await log('GET', '/v1/tags')).toHaveLength(RETRY.maxAttempts);
				expectNoSecret(error, SANDBOX_KEYS.acmeOwner);
			});
		});

		it('a 429 whose Retry-After is beyond the deadline ends at once, naming the deadline, the requests made and how to raise it', async () => {
			await sandbox.control.queueFaults({
				kind: '429',
				method: 'GET',
				path: '/v1/tags',
				retry_after: RETRY.rateLimitDeadlineMs / 1000 + 1,
			});
			const error = await failureOf(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listTags', {});
			});
			expect(error.httpCode).toBe('429');
			expect(error.message).toMatch(/Rate limit exceeded.*\(HTTP 429\)/);
			expect(error.description).toMatch(/rate limit.*lower Requests per Minute/i);
			expect(error.description).toMatch(/sent 1 times and answered 429 1 times/);
			expect(error.description).toMatch(/bounded at 10 minute\(s\).*Wait for Rate Limit.*raise it/);
			expect(await log('GET', '/v1/tags')).toHaveLength(1);
		});
	});

	describe('the rate-limit deadline', () => {
		withRetry();
		it("is the credential's Wait for Rate Limit, counted from the first 429; the error names it, the requests made and how to raise it", async () => {
			const faults = Array.from(
				{ length: 8 },
				(): QueuedFault => ({ kind: '429', method: 'GET', path: '/v1/tags', retry_after: 1 }),
			);
			await sandbox.control.queueFaults(...faults);
			// 0.025 minutes: 1.5 seconds, so the second wait of 1 second no longer fits.
			const credentials = sandbox.credentials('acmeOwner', { rateLimitWaitMinutes: 0.025 });
			const error = await failureOf(credentials, async function () {
				return await apiRequest.call(this, 'listTags', {});
			});
			expect(error.httpCode).toBe('429');
			expect(error.description).toMatch(/sent 2 times and answered 429 2 times/);
			expect(error.description).toMatch(
				/bounded at 0.025 minute\(s\).*"Wait for Rate Limit" in the credential: raise it/,
			);
			expect(error.description).toMatch(/budget is 100000 requests per minute/);
			expect(await log('GET', '/v1/tags')).toHaveLength(2);
			await sandbox.control.clearFaults();
		});
	});

	describe('writes are repeated only when nothing happened', () => {
		withRetry();
		it.each<[string, QueuedFault, RegExp]>([
			[
				'POST on 500',
				{ kind: '500', method: 'POST', path: '/v1/contacts' },
				/^Internal server error \(injected fault\) \(HTTP 500\)$/,
			],
			[
				'POST on a reset after the write',
				{ kind: 'reset', method: 'POST', path: '/v1/contacts' },
				/may have been applied/,
			],
		])('%s is not repeated', async (_name, fault, message) => {
			const body = newContact();
			await sandbox.control.queueFaults(fault);
			const error = await failureOf(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'createContact', { body });
			});
			expect(error.message).toMatch(message);
			expect(error.description).toMatch(/not repeated automatically/);
			expect(await log('POST', '/v1/contacts')).toHaveLength(1);
		});

		it('PATCH on a reset is not repeated (the change was applied once)', async () => {
			const created = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'createContact', { body: newContact() });
			});
			await sandbox.control.clearRequests();
			await sandbox.control.queueFaults({ kind: 'reset', method: 'PATCH', path: '/v1/contacts/' });
			const error = await failureOf(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'updateContact', {
					pathParams: { contact_id: String(created.id) },
					body: { city: 'Reset City' },
				});
			});
			expect(error.message).toMatch(/may have been applied/);
			expect(await log('PATCH', '/v1/contacts/')).toHaveLength(1);
		});

		it('POST answered 429 is repeated and creates one contact', async () => {
			const body = { ...newContact(), first_name: `Once${Date.now()}` };
			await sandbox.control.queueFaults({
				kind: '429',
				method: 'POST',
				path: '/v1/contacts',
				retry_after: 1,
			});
			const created = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'createContact', { body });
			});
			expect(created.email).toBe(body.email);
			expect((await log('POST', '/v1/contacts')).map((r) => r.status)).toEqual([429, 201]);
			expect(await contactsNamed(body.first_name)).toHaveLength(1);
		});

		it('a refused connection is retried, for a POST too (nothing was sent)', async () => {
			// Take a free port, leave it closed, and open the API there while the first attempt is refused.
			const probe = createServer();
			await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
			const { port } = probe.address() as AddressInfo;
			await new Promise<void>((resolve) => probe.close(() => resolve()));
			const credentials = {
				apiKey: SANDBOX_KEYS.acmeOwner,
				baseUrl: `http://127.0.0.1:${port}`,
				requestsPerMinute: 10_000,
			};
			const body = newContact();
			const creating = inNode(credentials, async function () {
				return await apiRequest.call(this, 'createContact', { body });
			});
			await new Promise((resolve) => setTimeout(resolve, 40));
			const late = await startSandbox({ port, host: '127.0.0.1', rateLimit: 10_000 });
			try {
				const created = await creating;
				expect(created.email).toBe(body.email);
			} finally {
				await late.stop();
			}
		});

		it('a refused connection that stays refused ends with a clear error', async () => {
			const probe = createServer();
			await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
			const { port } = probe.address() as AddressInfo;
			await new Promise<void>((resolve) => probe.close(() => resolve()));
			const error = await failureOf(
				{ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}` },
				async function () {
					return await apiRequest.call(this, 'createContact', { body: newContact() });
				},
			);
			expect(error.message).toBe('The API host refused the connection');
			expect(error.description).toMatch(/Nothing was sent\. Tried 4 times/);
		});
	});

	describe('uploads', () => {
		withRetry();
		const pdf = () => ({
			data: Buffer.from('%PDF-1.4 report'),
			fileName: 'Final report.pdf',
			mimeType: 'application/pdf',
		});

		async function confirmedInspectionId(): Promise<string> {
			const inspections = await inNode(sandbox.credentials(), async function () {
				return await drain(paginate.call(this, 'listInspections', {}));
			});
			const confirmed = inspections.find((i) => i.status === 'confirmed' && i.deleted !== true);
			if (!confirmed) throw new Error('The demo seed has no confirmed inspection');
			await sandbox.control.clearRequests();
			return String(confirmed.id);
		}

		it('a report upload reset after it was received is not re-sent: one upload, one client email', async () => {
			const inspectionId = await confirmedInspectionId();
			const emailsBefore = (await sandbox.control.emails()).count;
			await sandbox.control.queueFaults({
				kind: 'reset',
				method: 'POST',
				path: '/v1/inspections/',
			});
			const error = await failureOf(sandbox.credentials(), async function () {
				return await uploadFile.call(this, 'uploadAttachment', {
					pathParams: { inspection_id: inspectionId },
					fields: { name: 'Radon report' },
					file: pdf(),
					rule: 'report',
				});
			});
			expect(error.message).toMatch(/report upload may have been received/);
			expect(error.description).toMatch(/email the client, so it was not re-sent/);
			expect(await log('POST', `/v1/inspections/${inspectionId}/attachments`)).toHaveLength(1);
			expect((await sandbox.control.emails()).count).toBe(emailsBefore + 1);
		});

		it('a report upload answered 500 is not re-sent either', async () => {
			const inspectionId = await confirmedInspectionId();
			await sandbox.control.queueFaults({ kind: '500', method: 'POST', path: '/v1/inspections/' });
			const error = await failureOf(sandbox.credentials(), async function () {
				return await uploadFile.call(this, 'uploadAttachment', {
					pathParams: { inspection_id: inspectionId },
					fields: { name: 'Radon report' },
					rule: 'report',
				});
			});
			expect(error.httpCode).toBe('500');
			expect(error.description).toMatch(/may have been received.*not re-sent/);
			expect(await log('POST', `/v1/inspections/${inspectionId}/attachments`)).toHaveLength(1);
		});

		it('an upload answered 429 is sent again (the server did nothing) and emails once', async () => {
			const inspectionId = await confirmedInspectionId();
			const emailsBefore = (await sandbox.control.emails()).count;
			await sandbox.control.queueFaults({
				kind: '429',
				method: 'POST',
				path: '/v1/inspections/',
				retry_after: 1,
			});
			const attachment = await inNode(sandbox.credentials(), async function () {
				return await uploadFile.call(this, 'uploadAttachment', {
					pathParams: { inspection_id: inspectionId },
					fields: { name: 'Radon report', description: 'See https://example.com' },
					file: pdf(),
					rule: 'report',
				});
			});
			expect(attachment).toMatchObject({ kind: 'report', name: 'Radon report' });
			const posts = await log('POST', `/v1/inspections/${inspectionId}/attachments`);
			expect(posts.map((p) => p.status)).toEqual([429, 201]);
			expect(posts[1].form?.files).toEqual([
				expect.objectContaining({ field: 'file', contentType: 'application/pdf' }),
			]);
			expect((await sandbox.control.emails()).count).toBe(emailsBefore + 1);
		});
	});
}
