/**
 * Seeds: deterministic (same seed and day, same data and ids) and the demo's
 * contents. The large seed (seconds of CPU to build) is in seed.large.test.ts,
 * in the heavy lane.
 */
import { CONTACT_ROLES, INSPECTION_STATUSES } from '../../nodes/shared/endpoints';
import { buildSeed } from '../../sandbox/seed';
import type { Store } from '../../sandbox/store';
import { type Json, useSandbox } from './support';

export function seed(): void {
	const sandbox = useSandbox();
	const ANCHOR = Date.UTC(2026, 2, 1);
	const dump = (store: Store) =>
		JSON.stringify([
			...store.contacts.values(),
			...store.tags.values(),
			...store.agencies.values(),
			...store.inspections.values(),
			...store.events.values(),
			...store.attachments.entries(),
		]);

	describe('determinism', () => {
		it('the same seed and anchor give the same records and ids', () => {
			const a = buildSeed('demo', ANCHOR);
			const b = buildSeed('demo', ANCHOR);
			expect(dump(a)).toBe(dump(b));
			expect([...a.files.keys()]).toEqual([...b.files.keys()]);
		});

		it('a reset brings back the same data through the API', async () => {
			const before = (
				await sandbox.api().walk('/v1/inspections?include_canceled=true&include_deleted=true')
			).records;
			await sandbox.api().post('/v1/contacts', { first_name: 'Extra', email: 'extra@example.com' });
			await sandbox.control.reset();
			const after = (
				await sandbox.api().walk('/v1/inspections?include_canceled=true&include_deleted=true')
			).records;
			const stable = (r: Json) => ({
				...r,
				cover_photo_url: r.cover_photo_url && new URL(r.cover_photo_url).pathname,
			});
			expect(after.map(stable)).toEqual(before.map(stable));
			expect((await sandbox.api().get('/v1/contacts?email=extra@example.com')).body.total).toBe(0);
		});

		it('ids are uuids drawn from the PRNG', () => {
			const store = buildSeed('demo', ANCHOR);
			for (const id of [...store.contacts.keys(), ...store.inspections.keys()].slice(0, 500)) {
				expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
			}
		});
	});

	describe('demo seed', () => {
		it('gives Acme ≥500 contacts, 25 tags, 40 agencies and 1,200 inspections, Globex fewer', async () => {
			const { orgs } = await sandbox.control.info();
			expect(orgs.acme).toMatchObject({ tags: 25, agencies: 40, inspections: 1200 });
			expect(orgs.acme.contacts).toBeGreaterThanOrEqual(500);
			expect(orgs.acme.sample_inspection_ids.length).toBeGreaterThan(0);
			expect(orgs.acme.deleted_inspection_ids.length).toBeGreaterThan(0);
			expect(orgs.globex.contacts).toBeGreaterThan(0);
			expect(orgs.globex.contacts).toBeLessThan(orgs.acme.contacts);
			expect(orgs.globex.inspections).toBeLessThan(orgs.acme.inspections);
		});

		it('holds every role, photos, tags and agency links on contacts', async () => {
			const contacts = (await sandbox.api().walk('/v1/contacts')).records;
			const roles = new Set(contacts.flatMap((c) => c.roles));
			expect([...roles].sort()).toEqual([...CONTACT_ROLES].sort());
			expect(contacts.filter((c) => c.photo_url).length).toBeGreaterThan(5);
			expect(contacts.some((c) => c.tags.length > 1)).toBe(true);
			expect(contacts.some((c) => c.agency_id && c.uses_agency_address)).toBe(true);
			expect(contacts.some((c) => !c.agency_id && c.agency_name)).toBe(true);
		});

		it('holds inspections in every status, with events and attachments of both kinds', async () => {
			const inspections = (
				await sandbox.api().walk('/v1/inspections?include_canceled=true&include_deleted=true')
			).records;
			expect(new Set(inspections.map((i) => i.status))).toEqual(new Set(INSPECTION_STATUSES));
			expect(inspections.filter((i) => i.cover_photo_url).length).toBeGreaterThan(10);
			expect((await sandbox.api().get('/v1/events?limit=1')).body.total).toBeGreaterThan(100);
			expect(
				(await sandbox.api().get('/v1/attachments?kind=report&limit=1')).body.total,
			).toBeGreaterThan(50);
			expect(
				(await sandbox.api().get('/v1/attachments?kind=document&visible_to_client=false&limit=1'))
					.body.total,
			).toBeGreaterThan(10);
		});
	});
}
