/** Webhooks (webhookPayloadFields, webhookSecret): payloads for every event, per organization, secret header, HMAC, retries with backoff, delivery log. */
import { sleep } from 'n8n-workflow';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAMPLE_FILES } from '../../sandbox/samples';
import { file, type Json, useSandbox } from './support';

export function webhooks(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();

	interface Received {
		headers: IncomingHttpHeaders;
		raw: string;
		body: Json;
		at: number;
	}

	/** A webhook receiver that answers with the given statuses in turn (then 200). */
	class Receiver {
		readonly received: Received[] = [];
		statuses: number[] = [];
		private server!: Server;
		url = '';

		async start(): Promise<void> {
			this.server = createServer((req, res) => {
				const chunks: Buffer[] = [];
				req.on('data', (c: Buffer) => chunks.push(c));
				req.on('end', () => {
					const raw = Buffer.concat(chunks).toString('utf8');
					this.received.push({
						headers: req.headers,
						raw,
						body: JSON.parse(raw) as Json,
						at: Date.now(),
					});
					res.writeHead(this.statuses.shift() ?? 200).end();
				});
			});
			await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
			this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
		}

		async until(count: number, timeoutMs = 3000): Promise<Received[]> {
			const deadline = Date.now() + timeoutMs;
			while (this.received.length < count && Date.now() < deadline) await sleep(10);
			return this.received;
		}

		stop = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	let receiver: Receiver;
	beforeEach(async () => {
		receiver = new Receiver();
		await receiver.start();
	});
	afterEach(async () => {
		for (const hook of await sandbox.control.webhooks())
			await sandbox.control.removeWebhook(hook.id);
		await receiver.stop();
	});

	/** Each test acts on inspections no earlier test touched. */
	let pool: Json[] = [];
	beforeAll(async () => {
		pool = (await api().walk('/v1/inspections')).records;
	});
	const inspectionWith = async (status: string) => {
		const index = pool.findIndex((i) => i.status === status);
		return pool.splice(index, 1)[0];
	};

	describe('payloads', () => {
		it.each([
			['inspection.confirmed', 'waiting', (id: string) => sandbox.control.confirmInspection(id)],
			[
				'inspection.rescheduled',
				'confirmed',
				(id: string) => sandbox.control.rescheduleInspection(id, '2031-01-01T10:00:00Z'),
			],
			['inspection.canceled', 'confirmed', (id: string) => sandbox.control.cancelInspection(id)],
			['inspection.published', 'confirmed', (id: string) => sandbox.control.publishReports(id)],
		] as const)(
			'%s is sent as {id, event, occurred_at, data: {id}}',
			async (event, status, act) => {
				await sandbox.control.addWebhook({ org: 'acme', url: receiver.url });
				const target = await inspectionWith(status);
				await act(target.id);
				const [got] = await receiver.until(1);
				expect(got.body).toEqual({
					id: expect.stringMatching(/^[0-9a-f-]{36}$/),
					event,
					occurred_at: expect.any(String),
					data: { id: target.id },
				});
				expect(Number.isNaN(Date.parse(got.body.occurred_at))).toBe(false);
				expect(got.headers['content-type']).toBe('application/json');
			},
		);

		it('contact.changed follows v1 creates, updates and photo changes, and control changes', async () => {
			await sandbox.control.addWebhook({
				org: 'acme',
				url: receiver.url,
				events: ['contact.changed'],
			});
			const c = (
				await api().post('/v1/contacts', { first_name: 'Hook', email: 'hook@example.com' })
			).body;
			await api().patch(`/v1/contacts/${c.id}`, { notes: 'changed' });
			await api().patch(`/v1/contacts/${c.id}`, { notes: 'changed' }); // no change: no message
			await api().upload(
				`/v1/contacts/${c.id}/photo`,
				file(SAMPLE_FILES.png, 'p.png', 'image/png'),
			);
			await api().delete(`/v1/contacts/${c.id}/photo`);
			await sandbox.control.updateContact(c.id, { last_name: 'Tools' });
			const got = await receiver.until(5);
			await sleep(100);
			expect(got).toHaveLength(5);
			expect(got.every((r) => r.body.event === 'contact.changed' && r.body.data.id === c.id)).toBe(
				true,
			);
			expect(new Set(got.map((r) => r.body.id)).size).toBe(5);
		});

		it('respects the events filter and the organization', async () => {
			await sandbox.control.addWebhook({
				org: 'acme',
				url: receiver.url,
				events: ['inspection.canceled'],
			});
			await sandbox.control.addWebhook({ org: 'globex', url: receiver.url });
			const target = await inspectionWith('confirmed');
			await sandbox.control.confirmInspection((await inspectionWith('waiting')).id);
			await api().post('/v1/contacts', { first_name: 'Quiet', email: 'quiet@example.com' });
			await sandbox.control.cancelInspection(target.id);
			const got = await receiver.until(1);
			await sleep(100);
			expect(got.map((r) => r.body.event)).toEqual(['inspection.canceled']);
		});
	});

	describe('authenticity (webhookSecret)', () => {
		it('sends the shared secret in the named header', async () => {
			await sandbox.control.addWebhook({
				org: 'acme',
				url: receiver.url,
				secret: 's3cret',
				secret_header: 'X-Webhook-Secret',
			});
			await sandbox.control.publishReports((await inspectionWith('confirmed')).id);
			const [got] = await receiver.until(1);
			expect(got.headers['x-webhook-secret']).toBe('s3cret');
		});

		it('signs the raw body with hex HMAC-SHA256 keyed by the secret', async () => {
			await sandbox.control.addWebhook({
				org: 'acme',
				url: receiver.url,
				secret: 'hmac-key',
				hmac_header: 'X-Signature',
			});
			await sandbox.control.publishReports((await inspectionWith('confirmed')).id);
			const [got] = await receiver.until(1);
			expect(got.headers['x-signature']).toBe(
				createHmac('sha256', 'hmac-key').update(got.raw).digest('hex'),
			);
			expect(got.headers['x-webhook-secret']).toBeUndefined();
		});

		it('refuses a header without a secret', async () => {
			await expect(
				sandbox.control.addWebhook({ org: 'acme', url: receiver.url, hmac_header: 'X-Signature' }),
			).rejects.toThrow(/400/);
			await expect(
				sandbox.control.addWebhook({
					org: 'acme',
					url: 'ftp://x',
					events: ['inspection.confirmed'],
				}),
			).rejects.toThrow(/400/);
			await expect(
				sandbox.control.addWebhook({
					org: 'acme',
					url: receiver.url,
					events: ['inspection.deleted' as 'inspection.confirmed'],
				}),
			).rejects.toThrow(/400/);
		});
	});

	describe('retries', () => {
		it('retries a non-2xx answer with backoff, the same delivery id each time, and logs every attempt', async () => {
			receiver.statuses = [500, 503];
			const hook = await sandbox.control.addWebhook({
				org: 'acme',
				url: receiver.url,
				retry_delays_ms: [100, 250, 1000],
			});
			await sandbox.control.cancelInspection((await inspectionWith('confirmed')).id);
			const got = await receiver.until(3);
			expect(got).toHaveLength(3);
			expect(new Set(got.map((r) => r.body.id)).size).toBe(1);
			expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(90);
			expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(240);
			await sleep(50);
			const data = (await sandbox.control.deliveries()).data.filter(
				(d) => d.receiver_id === hook.id,
			);
			expect(data.map((d) => [d.attempt, d.status, d.receiver_id])).toEqual([
				[1, 500, hook.id],
				[2, 503, hook.id],
				[3, 200, hook.id],
			]);
			expect(
				data.every((d) => d.delivery_id === got[0].body.id && d.event === 'inspection.canceled'),
			).toBe(true);
		});

		it('gives up after the last retry, and records a receiver that cannot be reached', async () => {
			receiver.statuses = [500, 500, 500, 500];
			const failing = await sandbox.control.addWebhook({
				org: 'acme',
				url: receiver.url,
				retry_delays_ms: [20, 20],
			});
			const unreachable = await sandbox.control.addWebhook({
				org: 'acme',
				url: 'http://127.0.0.1:9/nothing-listens',
				retry_delays_ms: [],
			});
			await sandbox.control.publishReports((await inspectionWith('confirmed')).id);
			await receiver.until(3);
			await sleep(200);
			expect(receiver.received).toHaveLength(3);
			const { data } = await sandbox.control.deliveries();
			expect(
				data.filter((d) => d.receiver_id === failing.id).map((d) => [d.attempt, d.status]),
			).toEqual([
				[1, 500],
				[2, 500],
				[3, 500],
			]);
			expect(data.filter((d) => d.receiver_id === unreachable.id)).toEqual([
				expect.objectContaining({ attempt: 1, status: null, error: expect.any(String) }),
			]);
		});

		it('uses 200 ms, 1 s and 3 s by default', async () => {
			const hook = await sandbox.control.addWebhook({ org: 'acme', url: receiver.url });
			expect(hook.retry_delays_ms).toEqual([200, 1000, 3000]);
			expect((await sandbox.control.webhooks()).map((w) => w.id)).toEqual([hook.id]);
			await sandbox.control.removeWebhook(hook.id);
			expect(await sandbox.control.webhooks()).toEqual([]);
		});
	});
}
