/** Inspections (visibility, fields, updated_since), events (eventsPath) and contact stats (contactStatsPath, contactStatsRevenue). */
import { INSPECTION_STATUSES, REPORT_STATUSES } from '../../nodes/shared/endpoints';
import { ids, type Json, useSandbox } from './support';

export function inspections(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	let everything: Json[] = [];

	beforeAll(async () => {
		everything = (await api().walk('/v1/inspections?include_canceled=true&include_deleted=true'))
			.records;
	});

	describe('visibility', () => {
		it('leaves canceled and deleted inspections out by default', async () => {
			const plain = (await api().walk('/v1/inspections')).records;
			expect(ids(plain).sort()).toEqual(
				ids(everything.filter((i) => i.status !== 'canceled' && !i.deleted)).sort(),
			);
			expect(plain.length).toBeGreaterThan(500);
		});

		it('include_canceled=true adds canceled ones', async () => {
			const withCanceled = (await api().walk('/v1/inspections?include_canceled=true')).records;
			expect(ids(withCanceled).sort()).toEqual(ids(everything.filter((i) => !i.deleted)).sort());
			expect(withCanceled.some((i) => i.status === 'canceled' && i.canceled_at)).toBe(true);
		});

		it('ids returns canceled ones too, but not deleted ones without include_deleted', async () => {
			const canceled = everything.find((i) => i.status === 'canceled' && !i.deleted);
			const deleted = everything.find((i) => i.deleted);
			const res = await api().get(`/v1/inspections?ids=${canceled?.id},${deleted?.id}`);
			expect(ids(res.body.data)).toEqual([canceled?.id]);
			const both = await api().get(
				`/v1/inspections?ids=${canceled?.id},${deleted?.id}&include_deleted=true`,
			);
			expect(ids(both.body.data).sort()).toEqual([canceled?.id, deleted?.id].sort());
		});

		it('include_deleted=true adds deleted ones with deleted: true and deleted_at', async () => {
			const deleted = everything.filter((i) => i.deleted);
			expect(deleted.length).toBeGreaterThan(0);
			expect(deleted.every((i) => typeof i.deleted_at === 'string')).toBe(true);
			expect(everything.filter((i) => !i.deleted).every((i) => i.deleted_at === null)).toBe(true);
			const res = (await api().walk('/v1/inspections?include_deleted=true')).records;
			expect(ids(res).sort()).toEqual(
				ids(everything.filter((i) => i.status !== 'canceled')).sort(),
			);
		});

		it('a deleted inspection shows up in an updated_since poll with include_deleted', async () => {
			const target = everything.find((i) => !i.deleted && i.status !== 'canceled');
			await sandbox.control.advanceClock(1000);
			const { now } = await sandbox.control.getClock();
			await sandbox.control.deleteInspection(target?.id);
			const poll = await api().get(
				`/v1/inspections?updated_since=${encodeURIComponent(now)}&include_deleted=true`,
			);
			expect(poll.body.data).toEqual([
				expect.objectContaining({ id: target?.id, deleted: true, deleted_at: expect.any(String) }),
			]);
			expect(
				(await api().get(`/v1/inspections?updated_since=${encodeURIComponent(now)}`)).body.total,
			).toBe(0);
			await sandbox.control.reset();
		});
	});

	describe('records', () => {
		it('hold every status, every report status, and every field of the Inspection resource, realistically filled', async () => {
			expect(new Set(everything.map((i) => i.status))).toEqual(new Set(INSPECTION_STATUSES));
			expect(new Set(everything.map((i) => i.reports.status))).toEqual(new Set(REPORT_STATUSES));
			for (const i of everything) {
				expect(i.confirmed).toBe(i.status === 'confirmed');
				if (i.scheduled_for && i.duration_hours) {
					expect(Date.parse(i.ends_at) - Date.parse(i.scheduled_for)).toBe(
						i.duration_hours * 3_600_000,
					);
				}
				expect(i.portal_url).toMatch(/^https:\/\//);
				expect(i.address.full).toContain(i.address.city);
				expect(i.contacts.length).toBeGreaterThan(0);
			}
			const filled = (pick: (i: Json) => unknown) =>
				everything.some((i) => {
					const v = pick(i);
					return Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== false;
				});
			for (const pick of [
				(i: Json) => i.add_ons,
				(i: Json) => i.urgent,
				(i: Json) => i.booked_online,
				(i: Json) => i.notes,
				(i: Json) => i.description,
				(i: Json) => i.referral_source,
				(i: Json) => i.discount_codes,
				(i: Json) => i.custom_fields,
				(i: Json) => i.cover_photo_url,
				(i: Json) => i.agreements.items,
				(i: Json) => i.reports.items,
				(i: Json) => i.price.pay_at_close_status,
				(i: Json) => i.price.paid,
				(i: Json) => i.address.unit,
				(i: Json) => i.inspectors.length > 1,
			]) {
				expect(filled(pick)).toBe(true);
			}
		});

		it('render contacts with their current name, email and role', async () => {
			const i = everything.find((x) => !x.deleted && x.contacts.length);
			const person = i?.contacts[0];
			await api().patch(`/v1/contacts/${person.id}`, { first_name: 'Renamed' });
			const again = (await api().get(`/v1/inspections?ids=${i?.id}`)).body.data[0];
			expect(again.contacts[0]).toMatchObject({
				id: person.id,
				role: person.role,
				first_name: 'Renamed',
				email: person.email,
			});
		});

		it('serve the cover photo behind a signed link without a key', async () => {
			const i = everything.find((x) => x.cover_photo_url);
			const res = await fetch(i?.cover_photo_url);
			expect(res.status).toBe(200);
			expect(res.headers.get('content-type')).toBe('image/jpeg');
		});

		it('updated_since is inclusive on updated_at (updatedSinceInclusive)', async () => {
			const pivot = everything.filter((i) => !i.deleted && i.status !== 'canceled')[100];
			const res = (
				await api().walk(`/v1/inspections?updated_since=${encodeURIComponent(pivot.updated_at)}`)
			).records;
			expect(ids(res)).toContain(pivot.id);
			expect(res.every((i) => i.updated_at >= pivot.updated_at)).toBe(true);
			expect(ids(res).sort()).toEqual(
				ids(
					everything.filter(
						(i) => !i.deleted && i.status !== 'canceled' && i.updated_at >= pivot.updated_at,
					),
				).sort(),
			);
		});
	});

	describe('events (eventsPath)', () => {
		let events: Json[] = [];
		beforeAll(async () => {
			events = (await api().walk('/v1/events')).records;
		});

		it('are appointments of the organization’s inspections, with event_type always null', async () => {
			expect(events.length).toBeGreaterThan(100);
			const known = new Set(ids(everything));
			expect(
				events.every(
					(e) =>
						known.has(e.inspection_id) && e.event_type === null && Array.isArray(e.inspector_ids),
				),
			).toBe(true);
		});

		it('filter by inspection_id, ids and updated_since (inclusive)', async () => {
			const e = events[7];
			expect(
				ids((await api().get(`/v1/events?inspection_id=${e.inspection_id}`)).body.data).sort(),
			).toEqual(ids(events.filter((x) => x.inspection_id === e.inspection_id)).sort());
			expect(ids((await api().get(`/v1/events?ids=${e.id}`)).body.data)).toEqual([e.id]);
			const since = (
				await api().walk(`/v1/events?updated_since=${encodeURIComponent(e.updated_at)}`)
			).records;
			expect(ids(since).sort()).toEqual(
				ids(events.filter((x) => x.updated_at >= e.updated_at)).sort(),
			);
		});
	});

	describe('contact stats (contactStatsPath, contactStatsRevenue)', () => {
		it('count inspections and revenue per role in [from, to), leaving out canceled and deleted ones', async () => {
			const c = (
				await api().post('/v1/contacts', { first_name: 'Stat', email: 'stats@example.com' })
			).body;
			const at = (d: string) => ({ scheduled_for: `${d}T15:00:00Z` });
			const make = (role: string, quote: number, d: string, status = 'confirmed') =>
				sandbox.control.createInspection({
					org: 'acme',
					contacts: [{ id: c.id, role }],
					quote,
					status,
					...at(d),
				});
			await make('Buyer Agent', 400, '2024-03-01');
			await make('Listing Agent', 300, '2024-03-15');
			await make('Customer', 200, '2024-04-01');
			await make('Buyer Agent', 999, '2024-03-10', 'canceled');
			const deleted = await make('Buyer Agent', 888, '2024-03-11');
			await sandbox.control.deleteInspection(deleted.id as string);
			const all = (await api().get(`/v1/contacts/stats?contact_ids=${c.id}`)).body.data[0];
			expect(all).toMatchObject({
				contact_id: c.id,
				first_name: 'Stat',
				email: 'stats@example.com',
				total_inspections: 3,
				buying_agent_inspections: 1,
				listing_agent_inspections: 1,
				client_inspections: 1,
				total_revenue: 900,
				buying_agent_revenue: 400,
				listing_agent_revenue: 300,
				inspection_count: 3,
				revenue: 900,
				first_inspection_at: '2024-03-01T15:00:00.000Z',
				last_inspection_at: '2024-04-01T15:00:00.000Z',
			});
			const march = (
				await api().get(
					`/v1/contacts/stats?contact_ids=${c.id}&from=2024-03-01T15:00:00Z&to=2024-04-01T15:00:00Z`,
				)
			).body.data[0];
			expect(march).toMatchObject({
				total_inspections: 2,
				total_revenue: 700,
				client_inspections: 0,
				last_inspection_at: '2024-03-15T15:00:00.000Z',
			});
		});

		it('count upcoming inspections in the next 30 days by the sandbox clock', async () => {
			const c = (
				await api().post('/v1/contacts', { first_name: 'Soon', email: 'soon@example.com' })
			).body;
			const { now } = await sandbox.control.getClock();
			const inDays = (d: number) => new Date(Date.parse(now) + d * 86_400_000).toISOString();
			for (const d of [1, 29, 31])
				await sandbox.control.createInspection({
					org: 'acme',
					contacts: [{ id: c.id, role: 'Customer' }],
					scheduled_for: inDays(d),
				});
			expect(
				(await api().get(`/v1/contacts/stats?contact_ids=${c.id}`)).body.data[0]
					.upcoming_inspections_30d,
			).toBe(2);
		});

		it('list one row per contact', async () => {
			const stats = await api().get('/v1/contacts/stats?limit=1');
			const contacts = await api().get('/v1/contacts?limit=1');
			expect(stats.body.total).toBe(contacts.body.total);
		});
	});
}
