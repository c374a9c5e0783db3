/** The control API: clock, business-tool actions, request log, loopback-only access. */
import { sleep } from 'n8n-workflow';
import { networkInterfaces } from 'node:os';
import { startSandbox } from '../../sandbox';
import { SandboxControl } from '../../sandbox/client';
import { isLoopback } from '../../sandbox/control';
import { SAMPLE_FILES } from '../../sandbox/samples';
import { file, type Json, useSandbox } from './support';

export function control(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	const inspection = async (status: string) =>
		(await api().walk('/v1/inspections?include_canceled=true')).records.find(
			(i) => i.status === status,
		) as Json;

	describe('clock', () => {
		it('gets, sets and advances; it keeps flowing after a set', async () => {
			const set = await sandbox.control.setClock('2030-01-01T00:00:00Z');
			expect(Date.parse(set.now) - Date.parse('2030-01-01T00:00:00Z')).toBeLessThan(1000);
			await sleep(30);
			const later = await sandbox.control.getClock();
			expect(Date.parse(later.now)).toBeGreaterThan(Date.parse(set.now));
			const advanced = await sandbox.control.advanceClock(3_600_000);
			expect(Date.parse(advanced.now) - Date.parse(later.now)).toBeGreaterThanOrEqual(3_600_000);
		});

		it('stamps writes with the sandbox time', async () => {
			await sandbox.control.setClock('2031-05-05T12:00:00Z');
			const c = (
				await api().post('/v1/contacts', { first_name: 'Clock', email: 'clock@example.com' })
			).body;
			expect(c.created_at.slice(0, 13)).toBe('2031-05-05T12');
			const log = (
				await sandbox.control.requests({ method: 'POST', pathPrefix: '/v1/contacts' })
			).data.at(-1);
			expect(log?.time.slice(0, 13)).toBe('2031-05-05T12');
		});

		it('refuses a bad time', async () => {
			await expect(sandbox.control.setClock('soon')).rejects.toThrow(/400/);
		});

		afterAll(async () => await sandbox.control.setClock(new Date().toISOString()));
	});

	describe('inspection actions', () => {
		it.each([
			[
				'confirm',
				'waiting',
				(i: Json) => expect(i).toMatchObject({ status: 'confirmed', confirmed: true }),
			],
			[
				'cancel',
				'confirmed',
				(i: Json) => expect(i).toMatchObject({ status: 'canceled', canceled_at: i.updated_at }),
			],
			['publish', 'confirmed', (i: Json) => expect(i.reports.status).toBe('published')],
			[
				'pay',
				'confirmed',
				(i: Json) =>
					expect(i.price).toMatchObject({
						amount_paid: i.price.quote,
						amount_due: 0,
						payment_status: 'paid',
						paid: true,
					}),
			],
			[
				'delete',
				'review',
				(i: Json) => expect(i).toMatchObject({ deleted: true, deleted_at: i.updated_at }),
			],
		] as const)('%s changes the inspection and bumps updated_at', async (action, status, check) => {
			const before = await inspection(status);
			await sandbox.control.advanceClock(1000);
			const act = {
				confirm: sandbox.control.confirmInspection,
				cancel: sandbox.control.cancelInspection,
				publish: sandbox.control.publishReports,
				pay: sandbox.control.payInspection,
				delete: sandbox.control.deleteInspection,
			}[action];
			const after = await act(before.id);
			check(after);
			expect(String(after.updated_at) > before.updated_at).toBe(true);
			const listed = (await api().get(`/v1/inspections?ids=${before.id}&include_deleted=true`)).body
				.data[0];
			expect(listed).toEqual({ ...after, cover_photo_url: listed.cover_photo_url });
		});

		it('reschedule moves scheduled_for and ends_at', async () => {
			const before = await inspection('confirmed');
			const after = await sandbox.control.rescheduleInspection(
				before.id,
				'2032-02-02T09:00:00Z',
				2,
			);
			expect(after).toMatchObject({
				scheduled_for: '2032-02-02T09:00:00.000Z',
				ends_at: '2032-02-02T11:00:00.000Z',
				duration_hours: 2,
			});
			expect(String(after.updated_at) > before.updated_at).toBe(true);
		});

		it('create makes an inspection visible to v1 with the given contacts', async () => {
			const contact = (await api().get('/v1/contacts?limit=1')).body.data[0];
			const made = await sandbox.control.createInspection({
				org: 'acme',
				status: 'confirmed',
				contacts: [{ id: contact.id, role: 'Customer' }],
			});
			expect(made).toMatchObject({
				status: 'confirmed',
				contacts: [expect.objectContaining({ id: contact.id, role: 'Customer' })],
			});
			expect((await api().get(`/v1/inspections?ids=${made.id}`)).body.total).toBe(1);
			expect((await sandbox.api('globex').get(`/v1/inspections?ids=${made.id}`)).body.total).toBe(
				0,
			);
		});

		it('refuses unknown inspections and actions', async () => {
			await expect(
				sandbox.control.confirmInspection('00000000-0000-4000-8000-000000000000'),
			).rejects.toThrow(/404/);
			const res = await fetch(
				`${sandbox.baseUrl}/_sandbox/inspections/${(await inspection('confirmed')).id}/explode`,
				{ method: 'POST' },
			);
			expect(res.status).toBe(404);
		});
	});

	describe('reports, refunds and quotes in the business tools', () => {
		const listed = async (id: string) =>
			(await api().get(`/v1/inspections?ids=${id}`)).body.data[0] as Json;

		it('publishes reports one at a time: the reports status is partial until every one is', async () => {
			const { control } = sandbox;
			const id = String((await control.createInspection({ org: 'acme', status: 'confirmed' })).id);
			await control.addReport(id, 'Home Inspection Report');
			const both = (await control.addReport(id, 'Radon Report')) as Json;
			const [first, second] = both.reports.items as Json[];
			expect(both.reports).toEqual({
				status: 'pending',
				items: [
					{ id: first.id, name: 'Home Inspection Report', status: 'pending' },
					{ id: second.id, name: 'Radon Report', status: 'pending' },
				],
			});
			await control.setReportStatus(id, first.id, 'published');
			expect((await listed(id)).reports.status).toBe('partial');
			await control.setReportStatus(id, second.id, 'published');
			expect((await listed(id)).reports.status).toBe('published');
			const fixed = (await control.setReportStatus(id, first.id, 'pending')) as Json;
			expect(fixed.reports.status).toBe('partial');
			expect(await listed(id)).toMatchObject({ updated_at: fixed.updated_at });
			await expect(control.setReportStatus(id, 'rpt-none', 'published')).rejects.toThrow(/404/);
			await expect(control.setReportStatus(id, first.id, 'gone' as never)).rejects.toThrow(/400/);
		});

		it('a refund lowers what was paid, and the payment fields follow; a quote may be null', async () => {
			const { control } = sandbox;
			const id = String((await control.createInspection({ org: 'acme', status: 'confirmed' })).id);
			await control.payInspection(id);
			expect((await control.refund(id, 100)).price).toMatchObject({
				quote: 425,
				amount_paid: 325,
				amount_due: 100,
				payment_status: 'partial',
				paid: false,
			});
			await expect(control.refund(id, 400)).rejects.toThrow(/400/);
			await control.addPayment(id, 100);
			expect((await control.setQuote(id, null)).price).toMatchObject({
				quote: null,
				amount_paid: 425,
				amount_due: 0,
				paid: true,
			});
			expect((await listed(id)).price.quote).toBeNull();
		});
	});

	describe('inspection events in the business tools', () => {
		it('create puts an appointment on the inspection, listed by v1 exactly as answered', async () => {
			const on = await inspection('confirmed');
			const made = await sandbox.control.createEvent({
				inspection_id: on.id,
				name: 'Key drop-off',
				start_at: '2032-03-03T08:00:00Z',
				end_at: '2032-03-03T08:30:00Z',
			});
			expect(made).toMatchObject({
				inspection_id: on.id,
				name: 'Key drop-off',
				start_at: '2032-03-03T08:00:00.000Z',
				end_at: '2032-03-03T08:30:00.000Z',
				inspector_ids: on.inspectors.map((x: Json) => x.id),
			});
			expect(made.created_at).toBe(made.updated_at);
			const listed = (await api().get(`/v1/events?ids=${made.id}`)).body.data;
			expect(listed).toEqual([made]);
			// Another organization's key does not see it.
			expect((await sandbox.api('globex').get(`/v1/events?ids=${made.id}`)).body.total).toBe(0);
		});

		it('update changes only the given fields and bumps updated_at, so updated_since finds it', async () => {
			const [event] = (await api().get('/v1/events?limit=1')).body.data;
			await sandbox.control.advanceClock(1000);
			const moved = await sandbox.control.updateEvent(event.id, {
				start_at: '2033-01-01T10:00:00Z',
			});
			expect(moved).toEqual({
				...event,
				start_at: '2033-01-01T10:00:00.000Z',
				updated_at: moved.updated_at,
			});
			expect(Date.parse(String(moved.updated_at))).toBeGreaterThan(Date.parse(event.updated_at));
			const since = (
				await api().get(`/v1/events?updated_since=${encodeURIComponent(String(moved.updated_at))}`)
			).body.data.map((e: Json) => e.id);
			expect(since).toContain(event.id);
		});

		it('refuses an unknown inspection or event (404) and a bad field (400), changing nothing', async () => {
			const unknown = '00000000-0000-4000-8000-000000000000';
			await expect(sandbox.control.createEvent({ inspection_id: unknown })).rejects.toThrow(/404/);
			await expect(sandbox.control.updateEvent(unknown, { name: 'x' })).rejects.toThrow(/404/);
			const [event] = (await api().get('/v1/events?limit=1')).body.data;
			await expect(
				sandbox.control.updateEvent(event.id, { name: 'Renamed', start_at: 'tomorrow' }),
			).rejects.toThrow(/400.*start_at/);
			await expect(
				sandbox.control.updateEvent(event.id, { inspector_ids: 'insp-1' }),
			).rejects.toThrow(/400.*inspector_ids/);
			expect((await api().get(`/v1/events?ids=${event.id}`)).body.data[0]).toEqual(event);
		});
	});

	describe('contacts and tags in the business tools', () => {
		it('create and update contacts with the v1 rules', async () => {
			const made = await sandbox.control.createContact('globex', {
				first_name: 'Tool',
				email: 'tool@example.com',
			});
			expect((await sandbox.api('globex').get(`/v1/contacts?ids=${made.id}`)).body.total).toBe(1);
			const changed = await sandbox.control.updateContact(made.id as string, { last_name: 'Made' });
			expect(changed.last_name).toBe('Made');
			await expect(
				sandbox.control.updateContact(made.id as string, { email: 'nope' }),
			).rejects.toThrow(/400/);
		});

		it('refuse a duplicate tag name', async () => {
			await expect(sandbox.control.createTag('acme', 'vip')).rejects.toThrow(/400/);
		});
	});

	describe('request log', () => {
		it('records method, path, parsed query (repeats as arrays), status, key and time, with a count', async () => {
			await sandbox.control.clearRequests();
			await api().get('/v1/contacts?tag=VIP&tag=Investor&limit=2');
			await sandbox.api('revoked').get('/v1/tags');
			const log = await sandbox.control.requests();
			expect(log.count).toBe(2);
			expect(log.data[0]).toMatchObject({
				method: 'GET',
				path: '/v1/contacts',
				query: { tag: ['VIP', 'Investor'], limit: '2' },
				status: 200,
				key: 'ib_sandbox_acme_owner',
				time: expect.any(String),
			});
			expect(log.data[1]).toMatchObject({ status: 401, key: 'ib_sandbox_revoked' });
			expect((await sandbox.control.requests({ pathPrefix: '/v1/tags' })).count).toBe(1);
			await sandbox.control.clearRequests();
			expect((await sandbox.control.requests()).count).toBe(0);
		});

		it('records the form fields and file sizes of uploads', async () => {
			const target = await inspection('confirmed');
			await sandbox.control.clearRequests();
			await api().upload(
				`/v1/inspections/${target.id}/attachments`,
				file(SAMPLE_FILES.pdf, 'Radon Report.pdf', 'application/pdf', {
					kind: 'report',
					name: 'Radon',
					description: 'pCi/L 2.1',
				}),
			);
			const [entry] = (await sandbox.control.requests()).data;
			expect(entry).toMatchObject({
				method: 'POST',
				status: 201,
				form: {
					fields: { kind: 'report', name: 'Radon', description: 'pCi/L 2.1' },
					files: [
						{
							field: 'file',
							filename: 'Radon Report.pdf',
							contentType: 'application/pdf',
							size: SAMPLE_FILES.pdf.length,
						},
					],
				},
			});
		});

		it('does not record control requests', async () => {
			await sandbox.control.clearRequests();
			await sandbox.control.info();
			expect((await sandbox.control.requests()).count).toBe(0);
		});
	});

	describe('settings and reset', () => {
		it('reset re-seeds and can switch seeds', async () => {
			await api().post('/v1/contacts', { first_name: 'Gone', email: 'gone@example.com' });
			const info = await sandbox.control.reset('demo');
			expect(info.seed).toBe('demo');
			expect((await api().get('/v1/contacts?email=gone@example.com')).body.total).toBe(0);
			await expect(sandbox.control.reset('huge' as 'demo')).rejects.toThrow(/400/);
		});

		it('latency_ms delays v1 answers', async () => {
			await sandbox.control.settings({ latency_ms: 150 });
			const started = Date.now();
			await api().get('/v1/tags?limit=1');
			expect(Date.now() - started).toBeGreaterThanOrEqual(140);
			await sandbox.control.settings({ latency_ms: 0 });
		});
	});

	describe('loopback only', () => {
		it('recognizes loopback addresses', () => {
			for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2'])
				expect(isLoopback(address)).toBe(true);
			for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', undefined])
				expect(isLoopback(address)).toBe(false);
		});

		const external = Object.values(networkInterfaces())
			.flat()
			.find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

		(external ? it : it.skip)(
			'refuses control requests from a non-loopback address with 403, but serves v1 there',
			async () => {
				const running = await startSandbox({ port: 0, host: '0.0.0.0' });
				try {
					const remote = `http://${external}:${running.port}`;
					const res = await fetch(`${remote}/_sandbox/info`);
					expect(res.status).toBe(403);
					expect(((await res.json()) as Json).error.code).toBe('forbidden');
					expect(
						(
							await fetch(`${remote}/v1/tags`, {
								headers: { Authorization: 'Bearer ib_sandbox_globex' },
							})
						).status,
					).toBe(200);
					expect((await new SandboxControl(running.baseUrl).info()).seed).toBe('demo');
				} finally {
					await running.stop();
				}
			},
		);
	});
}
