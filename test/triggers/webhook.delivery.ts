/**
 * Real deliveries: the sandbox's webhook receivers post payloads of the shape webhookPayloadFields assumes (secret
 * header, HMAC of the body, retries on non-2xx) to a local endpoint that hands
 * each request to the webhook trigger through n8n-core's WebhookContext and
 * answers as n8n would: what the node wrote, at the moment it wrote it (the
 * trigger acknowledges before it re-fetches), else 500 when the node threw,
 * else 200. Like n8n, it keeps the workflow's static data between requests and
 * saves a request's changes only when the request did not fail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { runWebhook, withSandbox } from '../helpers/n8n';
import { withRetry } from '../helpers/limits';

export function deliveries(): void {
	const sandbox = withSandbox({}, { reset: true });
	withRetry();
	const trigger = new InspectionBusinessWebhookTrigger();
	const SECRET = 's3cret-for-deliveries';

	let server: Server;
	let endpoint: string;
	let parameters: INodeParameters;
	const executions: IDataObject[] = [];
	/** Errors of deliveries n8n would record as failed executions. */
	const failures: string[] = [];
	let persisted: IDataObject = {};
	const WORKFLOW_ID = 'delivery-test-workflow';

	beforeAll(async () => {
		server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const rawBody = Buffer.concat(chunks);
				const headers = Object.fromEntries(
					Object.entries(req.headers).map(([k, v]) => [k, String(v)]),
				);
				// n8n stores the static data as JSON and reads it back for each request.
				const staticData = JSON.parse(JSON.stringify(persisted)) as IDataObject;
				const answer = (status: number) => {
					if (res.headersSent) return;
					res.statusCode = status;
					res.end();
				};
				void runWebhook({
					node: trigger,
					parameters,
					webhookSecret: SECRET,
					staticData,
					workflowId: WORKFLOW_ID,
					credentials: sandbox.credentials(),
					request: { headers, body: JSON.parse(rawBody.toString('utf8')) as unknown, rawBody },
					onResponse: (response) => answer(response.statusCode),
				}).then(({ result, error }) => {
					if (error) failures.push(error.message);
					else persisted = staticData;
					for (const item of result?.workflowData?.[0] ?? []) executions.push(item.json);
					answer(error ? 500 : 200);
				});
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => {
		executions.length = 0;
		failures.length = 0;
		persisted = {};
	});

	/** Waits until `list` holds `count` entries: executions start after the acknowledgement. */
	async function reaches(list: unknown[], count: number) {
		for (let i = 0; i < 500 && list.length < count; i++)
			await new Promise((resolve) => setTimeout(resolve, 20));
	}

	async function settled(count: number) {
		for (let i = 0; i < 1000; i++) {
			const { data } = await sandbox.control.deliveries();
			if (data.length >= count) return data;
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		throw new Error(`expected ${count} delivery attempts`);
	}

	test('signed deliveries start one execution each, with the re-fetched record; other events are ignored', async () => {
		parameters = {
			headerName: 'X-IB-Secret',
			verifySignature: true,
			signatureHeader: 'X-IB-Signature',
			events: ['inspection.confirmed', 'inspection.rescheduled'],
			refetchRecord: true,
		};
		await sandbox.control.addWebhook({
			org: 'acme',
			url: endpoint,
			secret: SECRET,
			secret_header: 'X-IB-Secret',
			hmac_header: 'X-IB-Signature',
		});
		const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
		const id = String(inspection.id);
		await sandbox.control.confirmInspection(id);
		await sandbox.control.rescheduleInspection(id, '2027-05-05T08:00:00.000Z');
		await sandbox.control.cancelInspection(id);

		// Deliveries run concurrently, so they are compared in a fixed order.
		const attempts = await settled(3);
		expect(attempts.map((a) => `${a.event} ${a.status} ${a.attempt}`).sort()).toEqual([
			'inspection.canceled 200 1', // acknowledged, not selected
			'inspection.confirmed 200 1',
			'inspection.rescheduled 200 1',
		]);
		await reaches(executions, 2);
		expect(executions.map((e) => `${String(e.event)} ${String(e.id)}`).sort()).toEqual([
			`inspection.confirmed ${id}`,
			`inspection.rescheduled ${id}`,
		]);
		// Re-fetched when the delivery came in: by then the inspection may have moved on, so only its identity is fixed.
		expect(executions.every((e) => (e.record as IDataObject).id === id)).toBe(true);
	});

	test('a receiver with the wrong secret gets 401 on every retry, and nothing runs', async () => {
		parameters = {};
		await sandbox.control.addWebhook({
			org: 'acme',
			url: endpoint,
			secret: 'not the secret',
			secret_header: 'X-Webhook-Secret',
			retry_delays_ms: [10, 10],
		});
		const contact = (await sandbox.control.createContact('acme', {
			first_name: 'Kay',
			email: 'kay@example.com',
		})) as IDataObject;
		const attempts = await settled(3);
		expect(attempts.map((a) => [a.event, a.record_id, a.status, a.attempt])).toEqual([
			['contact.changed', contact.id, 401, 1],
			['contact.changed', contact.id, 401, 2],
			['contact.changed', contact.id, 401, 3],
		]);
		expect(executions).toEqual([]);
	});

	test('a delivery whose re-fetch fails is acknowledged once and fails visibly; a re-send of it runs once, and a replay of that runs nothing', async () => {
		parameters = { refetchRecord: true };
		await sandbox.control.addWebhook({
			org: 'acme',
			url: endpoint,
			secret: SECRET,
			secret_header: 'X-Webhook-Secret',
			retry_delays_ms: [10, 10],
		});
		const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
		// Every attempt of the trigger's first re-fetch fails (the transport tries a GET 4 times).
		const failure = { kind: '500' as const, method: 'GET', path: '/v1/inspections' };
		await sandbox.control.queueFaults(failure, failure, failure, failure);
		await sandbox.control.confirmInspection(String(inspection.id));

		const attempts = await settled(1);
		await reaches(failures, 1);
		// Acknowledged before the re-fetch, so the account does not retry it.
		expect(attempts.map((a) => [a.status, a.attempt])).toEqual([[200, 1]]);
		expect(executions).toHaveLength(0);
		expect(failures).toEqual([
			expect.stringMatching(
				new RegExp(
					`^Could not re-fetch inspection ${String(inspection.id)} of delivery ${attempts[0].delivery_id}`,
				),
			),
		]);

		const resend = async () =>
			await fetch(endpoint, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'X-Webhook-Secret': SECRET },
				body: JSON.stringify(attempts[0].payload),
			});
		expect((await resend()).status).toBe(200);
		await reaches(executions, 1);
		expect(executions).toHaveLength(1);
		expect(executions[0]).toMatchObject({
			id: inspection.id,
			deliveryId: attempts[0].delivery_id,
			record: { id: inspection.id, status: 'confirmed' },
		});
		expect((await resend()).status).toBe(200);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(executions).toHaveLength(1);
	});
}
