/** Every GET /v1/contacts filter, checked against the full list. */
import { ids, type Json, useSandbox } from './support';

export function contactFilters(): void {
	const sandbox = useSandbox();
	let all: Json[] = [];

	beforeAll(async () => {
		all = (await sandbox.api().walk('/v1/contacts')).records;
	});

	async function filtered(query: string): Promise<string[]> {
		return ids((await sandbox.api().walk(`/v1/contacts?${query}`)).records).sort();
	}
	const expected = (keep: (c: Json) => boolean) => ids(all.filter(keep)).sort();

	describe('contact filters', () => {
		it('role: agent, client and every exact role occur and filter by the derived roles', async () => {
			expect(await filtered('role=agent')).toEqual(
				expected((c) => c.roles.includes('Buyer Agent') || c.roles.includes('Listing Agent')),
			);
			expect(await filtered('role=client')).toEqual(expected((c) => c.roles.includes('Customer')));
			for (const role of [
				'Customer',
				'Buyer Agent',
				'Listing Agent',
				'Lender',
				'Title Company',
				'Others',
			]) {
				const want = expected((c) => c.roles.includes(role));
				expect(want.length).toBeGreaterThan(0);
				expect(await filtered(`role=${encodeURIComponent(role)}`)).toEqual(want);
			}
		});

		it('tag_id: only contacts with that tag', async () => {
			const tag = all.find((c) => c.tags.length)?.tags[0];
			expect(await filtered(`tag_id=${tag.id}`)).toEqual(
				expected((c) => c.tags.some((t: Json) => t.id === tag.id)),
			);
		});

		it('tag: any of several names, case-insensitive', async () => {
			const names = ['vip', 'INVESTOR'];
			const want = expected((c) =>
				c.tags.some(
					(t: Json) => names.includes(t.name.toLowerCase()) || names.includes(t.name.toUpperCase()),
				),
			);
			expect(want.length).toBeGreaterThan(0);
			expect(await filtered(names.map((n) => `tag=${n}`).join('&'))).toEqual(want);
			expect(await filtered('tag=no%20such%20tag')).toEqual([]);
		});

		it('agency_id: only contacts linked to that agency', async () => {
			const agencyId = all.find((c) => c.agency_id)?.agency_id;
			const want = expected((c) => c.agency_id === agencyId);
			expect(await filtered(`agency_id=${agencyId}`)).toEqual(want);
			const agency = (await sandbox.api().get(`/v1/agencies?ids=${agencyId}`)).body.data[0];
			expect(agency.contact_count).toBe(want.length);
		});

		it('email: exact match, case-insensitive', async () => {
			const email: string = all[10].email;
			expect(await filtered(`email=${encodeURIComponent(email.toUpperCase())}`)).toEqual([
				all[10].id,
			]);
			expect(await filtered(`email=${encodeURIComponent(email.slice(1))}`)).toEqual([]);
		});

		it('search: name, email, or phone digits (3 or more) contain the text', async () => {
			const name = 'mateo';
			expect(await filtered(`search=${name}`)).toEqual(
				expected(
					(c) =>
						`${c.first_name} ${c.last_name ?? ''}`.toLowerCase().includes(name) ||
						c.email.toLowerCase().includes(name),
				),
			);
			const phone = all.find((c) => c.phone)?.phone as string;
			const digits = phone.replace(/\D/g, '').slice(-4);
			const byPhone = await filtered(
				`search=${encodeURIComponent(`${digits.slice(0, 2)}-${digits.slice(2)}`)}`,
			);
			expect(byPhone).toEqual(
				expected(
					(c) =>
						(c.phone ?? '').replace(/\D/g, '').includes(digits) ||
						c.email.includes(`${digits.slice(0, 2)}-${digits.slice(2)}`),
				),
			);
			expect(byPhone).toContain(all.find((c) => c.phone === phone)?.id);
			const fullName = `${all[3].first_name} ${all[3].last_name}`;
			expect(await filtered(`search=${encodeURIComponent(fullName)}`)).toContain(all[3].id);
		});

		it('updated_since: inclusive, on updated_at (updatedSinceInclusive)', async () => {
			const pivot = [...all].sort((a, b) => (a.updated_at < b.updated_at ? -1 : 1))[
				Math.floor(all.length / 2)
			];
			const want = expected((c) => c.updated_at >= pivot.updated_at);
			const got = await filtered(`updated_since=${encodeURIComponent(pivot.updated_at)}`);
			expect(got).toEqual(want);
			expect(got).toContain(pivot.id);
			expect(await filtered(`updated_since=${pivot.updated_at.slice(0, 10)}`)).toEqual(
				expected((c) => c.updated_at >= pivot.updated_at.slice(0, 10)),
			);
		});

		it('filters combine', async () => {
			expect(await filtered('role=agent&tag=vip')).toEqual(
				expected(
					(c) =>
						(c.roles.includes('Buyer Agent') || c.roles.includes('Listing Agent')) &&
						c.tags.some((t: Json) => t.name === 'VIP'),
				),
			);
		});
	});
}
