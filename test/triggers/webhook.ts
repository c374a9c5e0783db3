/**
 * The webhook trigger through n8n-core's WebhookContext (the harness's
 * runWebhook), version 2 with its secret in the webhook credential (where the
 * secret lives: webhook.secret.ts; repeats: webhook.replay.ts): the
 * shared secret in a header or the query, the optional HMAC of
 * the raw body, 401 without an execution on any failure, the event filter,
 * the payload keys webhookPayloadFields assumes, and re-fetching the record through the API.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { runWebhook, withSandbox } from '../helpers/n8n';
import type { TestWebhookRequest } from '../helpers/contexts';

export function webhookTrigger(): void {
	const sandbox = withSandbox();
	const trigger = new InspectionBusinessWebhookTrigger();
	const SECRET = 'correct horse battery staple';

	const payload = (event: string, id = '0d5c2b1e-8d47-4c1a-9e2f-6b5a4d3c2b1a') => ({
		id: 'f2b0c3d4-0000-4000-8000-000000000001',
		event,
		occurred_at: '2026-11-21T10:00:00.000Z',
		data: { id },
	});

	/** A delivery to the current version, which takes the secret from its webhook credential. */
	async function deliver(
		request: TestWebhookRequest,
		parameters: INodeParameters = {},
		withCredentials = false,
	) {
		return await runWebhook({
			node: trigger,
			parameters,
			webhookSecret: SECRET,
			credentials: withCredentials ? sandbox.credentials() : undefined,
			request,
		});
	}

	const signed = (body: unknown, secret = SECRET) => {
		const rawBody = Buffer.from(JSON.stringify(body));
		return { rawBody, signature: createHmac('sha256', secret).update(rawBody).digest('hex') };
	};

	/**
	 * An accepted delivery: the node answered 200 {"received": true} itself, and hands n8n the item
	 * with noWebhookResponse, so n8n neither answers again nor echoes its default body.
	 */
	function expectAcknowledged(outcome: Awaited<ReturnType<typeof deliver>>) {
		expect(outcome.error).toBeUndefined();
		expect(outcome.response).toMatchObject({
			statusCode: 200,
			ended: true,
			body: { received: true },
		});
		expect(outcome.result?.noWebhookResponse).toBe(true);
		expect(outcome.result?.workflowData?.[0]).toHaveLength(1);
	}

	/** A refusal: 401 written by the node, and nothing for n8n to run. */
	function expectRefused(outcome: Awaited<ReturnType<typeof deliver>>) {
		expect(outcome.error).toBeUndefined();
		expect(outcome.response.statusCode).toBe(401);
		expect(outcome.response.ended).toBe(true);
		expect(outcome.result).toEqual({ noWebhookResponse: true });
		expect(outcome.result?.workflowData).toBeUndefined();
	}

	describe('the shared secret', () => {
		test('a request without the secret header, or with a wrong one, gets 401 and starts nothing', async () => {
			expectRefused(await deliver({ body: payload('inspection.confirmed') }));
			expectRefused(
				await deliver({
					headers: { 'X-Webhook-Secret': 'nope' },
					body: payload('inspection.confirmed'),
				}),
			);
			expectRefused(
				await deliver({
					headers: { 'X-Webhook-Secret': `${SECRET}x` },
					body: payload('inspection.confirmed'),
				}),
			);
		});

		test('the right secret in the named header starts the workflow with event, id and payload', async () => {
			const body = payload('inspection.confirmed');
			const outcome = await deliver(
				{ headers: { 'x-hook-key': SECRET }, body },
				{ headerName: 'X-Hook-Key' },
			);
			expectAcknowledged(outcome);
			expect(outcome.result?.workflowData?.[0].map((item) => item.json)).toEqual([
				{ event: 'inspection.confirmed', id: body.data.id, deliveryId: body.id, payload: body },
			]);
		});

		test('the secret may come in the query instead', async () => {
			const parameters = { secretLocation: 'query', queryParameterName: 'token' };
			expectRefused(await deliver({ body: payload('contact.changed') }, parameters));
			expectRefused(
				await deliver({ query: { token: 'wrong' }, body: payload('contact.changed') }, parameters),
			);
			// The header does not count when the query is the place.
			expectRefused(
				await deliver(
					{ headers: { 'X-Webhook-Secret': SECRET }, body: payload('contact.changed') },
					parameters,
				),
			);
			const outcome = await deliver(
				{ query: { token: SECRET }, body: payload('contact.changed') },
				parameters,
			);
			expect(outcome.result?.workflowData?.[0]).toHaveLength(1);
		});
	});

	describe('the HMAC signature', () => {
		const parameters = { verifySignature: true, signatureHeader: 'X-Signature' };
		const body = payload('inspection.published');

		/** Every form the check reads, each named in the Verify Signature help below. */
		const signatureForms = (hex: string) => {
			const bytes = Buffer.from(hex, 'hex');
			return {
				hex,
				base64: bytes.toString('base64'),
				'URL-safe': bytes.toString('base64url'),
				'sha256=': `sha256=${hex}`,
				'sha256= base64': `sha256=${bytes.toString('base64')}`,
			};
		};

		test('the Verify Signature help names every form the check accepts', () => {
			const help = trigger.description.properties.find((p) => p.name === 'verifySignature');
			for (const name of ['hex', 'base64', 'URL-safe', '"sha256="'])
				expect(help?.description).toContain(name);
		});

		test('a correct HMAC-SHA256 of the raw body passes, in every form the help names', async () => {
			const { rawBody, signature } = signed(body);
			const forms = Object.values(signatureForms(signature));
			for (const form of forms) {
				const outcome = await deliver(
					{ headers: { 'X-Webhook-Secret': SECRET, 'X-Signature': form }, body, rawBody },
					parameters,
				);
				expect(outcome.result?.workflowData?.[0]).toHaveLength(1);
			}
		});

		test('a missing, wrong or other-body signature gets 401 even with the right secret', async () => {
			const { rawBody, signature } = signed(body);
			expectRefused(
				await deliver({ headers: { 'X-Webhook-Secret': SECRET }, body, rawBody }, parameters),
			);
			const wrongKey = signed(body, 'another secret').signature;
			expectRefused(
				await deliver(
					{ headers: { 'X-Webhook-Secret': SECRET, 'X-Signature': wrongKey }, body, rawBody },
					parameters,
				),
			);
			// The same JSON, serialised differently: the signature covers the bytes that were sent.
			const reformatted = Buffer.from(JSON.stringify(body, null, 2));
			expectRefused(
				await deliver(
					{
						headers: { 'X-Webhook-Secret': SECRET, 'X-Signature': signature },
						body,
						rawBody: reformatted,
					},
					parameters,
				),
			);
			expectRefused(
				await deliver(
					{ headers: { 'X-Webhook-Secret': SECRET, 'X-Signature': 'zz' }, body, rawBody },
					parameters,
				),
			);
		});
	});

	describe('events and payloads (webhookPayloadFields)', () => {
		const headers = { 'X-Webhook-Secret': SECRET };

		test('unselected events are acknowledged with 200 and start nothing', async () => {
			const parameters = { events: ['inspection.confirmed', 'inspection.canceled'] };
			const ignored = await deliver({ headers, body: payload('contact.changed') }, parameters);
			expect(ignored.response.statusCode).toBe(200);
			expect(ignored.result?.workflowData).toBeUndefined();
			expect(ignored.result?.webhookResponse).toMatchObject({ received: true });
			const noEvent = await deliver({ headers, body: { data: { id: 'x' } } }, parameters);
			expect(noEvent.result?.workflowData).toBeUndefined();

			const taken = await deliver({ headers, body: payload('inspection.canceled') }, parameters);
			expect(taken.result?.workflowData?.[0][0].json.event).toBe('inspection.canceled');
		});

		test('event names beyond the assumed five, entered under Other Event Names, start the workflow too', async () => {
			const parameters = {
				events: ['inspection.confirmed'],
				otherEvents: 'inspection.paid, agreement.signed',
			};
			for (const event of ['inspection.paid', 'agreement.signed', 'inspection.confirmed']) {
				const taken = await deliver({ headers, body: payload(event) }, parameters);
				expect(taken.result?.workflowData?.[0][0].json.event).toBe(event);
			}
			const ignored = await deliver({ headers, body: payload('inspection.canceled') }, parameters);
			expect(ignored.result?.workflowData).toBeUndefined();
			// Only other names: those alone start it.
			const only = { otherEvents: 'inspection.paid' };
			expect(
				(await deliver({ headers, body: payload('inspection.confirmed') }, only)).result
					?.workflowData,
			).toBeUndefined();
		});

		test('the event is read from event, type or kind; the record id from data.id, data.inspection_id, data.contact_id, inspection_id, contact_id, and top-level id last', async () => {
			const cases: Array<[IDataObject, string, string, string | null]> = [
				[
					{ type: 'inspection.rescheduled', inspection_id: 'i-1' },
					'inspection.rescheduled',
					'i-1',
					null,
				],
				[{ kind: 'contact.changed', contact_id: 'c-1' }, 'contact.changed', 'c-1', null],
				[
					{ event: 'contact.changed', type: 'ignored', id: 'top-level' },
					'contact.changed',
					'top-level',
					null,
				],
				[
					{ event: 'inspection.confirmed', id: 'delivery', data: { id: 'record' } },
					'inspection.confirmed',
					'record',
					'delivery',
				],
				// In an envelope the top-level id is the delivery's: the record id is found first elsewhere.
				[
					{ event: 'inspection.confirmed', id: 'delivery', inspection_id: 'i-2' },
					'inspection.confirmed',
					'i-2',
					'delivery',
				],
				[
					{ event: 'contact.changed', id: 'delivery', contact_id: 'c-2' },
					'contact.changed',
					'c-2',
					'delivery',
				],
				[
					{ event: 'inspection.canceled', id: 'delivery', data: { inspection_id: 'i-3' } },
					'inspection.canceled',
					'i-3',
					'delivery',
				],
				[
					{ event: 'contact.changed', id: 'd', data: { contact_id: 'c-3' }, contact_id: 'c-4' },
					'contact.changed',
					'c-3',
					'd',
				],
				// A top-level id equal to the record id names the record, not the delivery.
				[
					{ event: 'inspection.confirmed', id: 'i-4', data: { id: 'i-4' } },
					'inspection.confirmed',
					'i-4',
					null,
				],
				[{ event: 'contact.changed', id: 7, contact_id: '7' }, 'contact.changed', '7', null],
			];
			for (const [body, event, id, deliveryId] of cases) {
				const outcome = await deliver({ headers, body });
				expect(outcome.result?.workflowData?.[0][0].json).toMatchObject({ event, id, deliveryId });
			}
		});
	});

	describe('re-fetching the record', () => {
		const headers = { 'X-Webhook-Secret': SECRET };

		test('reads the inspection or contact through the API', async () => {
			const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
			const contact = (await sandbox.control.createContact('acme', {
				first_name: 'Lin',
				email: 'lin@example.com',
			})) as IDataObject;
			await sandbox.control.clearRequests();

			const forInspection = await deliver(
				{ headers, body: payload('inspection.confirmed', String(inspection.id)) },
				{ refetchRecord: true },
				true,
			);
			expect(forInspection.result?.workflowData?.[0][0].json.record).toMatchObject({
				id: inspection.id,
				status: inspection.status,
			});
			const forContact = await deliver(
				{ headers, body: payload('contact.changed', String(contact.id)) },
				{ refetchRecord: true },
				true,
			);
			expect(forContact.result?.workflowData?.[0][0].json.record).toMatchObject({
				id: contact.id,
				first_name: 'Lin',
			});

			const log = await sandbox.control.requests({ pathPrefix: '/v1/' });
			expect(log.data.map((entry) => [entry.path, entry.query.ids])).toEqual([
				['/v1/inspections', inspection.id],
				['/v1/contacts', contact.id],
			]);
		});

		test('a record the account does not have is null; a refused request is not fetched at all', async () => {
			const missing = await deliver(
				{ headers, body: payload('inspection.confirmed') },
				{ refetchRecord: true },
				true,
			);
			expect(missing.result?.workflowData?.[0][0].json.record).toBeNull();

			await sandbox.control.clearRequests();
			expectRefused(
				await deliver({ body: payload('inspection.confirmed') }, { refetchRecord: true }, true),
			);
			expect((await sandbox.control.requests({ pathPrefix: '/v1/' })).count).toBe(0);
		});
	});

	describe('acknowledging and batching', () => {
		const headers = { 'X-Webhook-Secret': SECRET };

		test('the delivery is acknowledged before its record is read, however slow the API is', async () => {
			const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
			await sandbox.control.queueFaults({ kind: 'slow', path: '/v1/inspections', delay_ms: 1500 });
			const started = Date.now();
			let acknowledgedAfter = Number.NaN;
			const outcome = await runWebhook({
				node: trigger,
				parameters: { refetchRecord: true },
				webhookSecret: SECRET,
				credentials: sandbox.credentials(),
				request: { headers, body: payload('inspection.confirmed', String(inspection.id)) },
				onResponse: () => (acknowledgedAfter = Date.now() - started),
			});
			expect(acknowledgedAfter).toBeLessThan(1000);
			expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
			expectAcknowledged(outcome);
			expect(outcome.result?.workflowData?.[0][0].json.record).toMatchObject({ id: inspection.id });
		});

		test('records of deliveries that arrive together are read in one ids= request per 200', async () => {
			const inspections = await Promise.all(
				Array.from(
					{ length: 30 },
					async () => (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject,
				),
			);
			await sandbox.control.clearRequests();
			const workflowId = crypto.randomUUID();
			const outcomes = await Promise.all(
				inspections.map(
					async (inspection, index) =>
						await runWebhook({
							node: trigger,
							parameters: { refetchRecord: true },
							webhookSecret: SECRET,
							workflowId,
							credentials: sandbox.credentials(),
							request: {
								headers,
								body: {
									...payload('inspection.confirmed', String(inspection.id)),
									id: `f2b0c3d4-0000-4000-8000-${String(index).padStart(12, '0')}`,
								},
							},
						}),
				),
			);
			outcomes.forEach((outcome, index) =>
				expect(outcome.result?.workflowData?.[0][0].json.record).toMatchObject({
					id: inspections[index].id,
				}),
			);
			// One request when all 30 arrive within the gathering pause; a loaded machine may split them.
			const log = await sandbox.control.requests({ pathPrefix: '/v1/' });
			expect(log.count).toBeLessThanOrEqual(3);
			const requested = log.data.flatMap((entry) => String(entry.query.ids).split(','));
			expect(requested.sort()).toEqual(
				inspections.map((inspection) => String(inspection.id)).sort(),
			);
		});
	});
}
