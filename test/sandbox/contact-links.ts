/** Contact tags (names case-insensitive, replace, clear, unknown: 400 and nothing changes) and the agency link rules. */
import { contactHelpers, expectError, type Json, useSandbox } from './support';

export function contactLinks(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	const { newContact, getContact, tagsByName } = contactHelpers(sandbox);
	const agencies = async () => (await api().walk('/v1/agencies')).records;

	describe('tags on contacts', () => {
		it('replaces the tags by name, case-insensitive, and keeps tag contact_count right', async () => {
			const tags = await tagsByName();
			const c = await newContact({ tags: ['vip'] });
			expect(c.tags).toEqual([{ id: tags.get('VIP')?.id, name: 'VIP' }]);
			const res = await api().patch(`/v1/contacts/${c.id}`, { tags: ['INVESTOR', 'newsletter'] });
			expect(res.body.tags.map((t: Json) => t.name)).toEqual(['Investor', 'Newsletter']);
			const after = await tagsByName();
			expect(after.get('VIP')?.contact_count).toBe(tags.get('VIP')?.contact_count);
			expect(after.get('Investor')?.contact_count).toBe(
				(tags.get('Investor')?.contact_count ?? 0) + 1,
			);
			expect(after.get('Newsletter')?.contact_count).toBe(
				(tags.get('Newsletter')?.contact_count ?? 0) + 1,
			);
		});

		it('replaces the tags by id; an empty list or {tags: []} clears them', async () => {
			const tags = await tagsByName();
			const c = await newContact({ tag_ids: [tags.get('VIP')?.id] });
			expect(c.tags.map((t: Json) => t.name)).toEqual(['VIP']);
			expect((await api().patch(`/v1/contacts/${c.id}`, { tags: [] })).body.tags).toEqual([]);
			await api().patch(`/v1/contacts/${c.id}`, { tag_ids: [tags.get('Investor')?.id] });
			expect((await api().patch(`/v1/contacts/${c.id}`, { tag_ids: [] })).body.tags).toEqual([]);
		});

		it('leaves tags unchanged when neither is sent', async () => {
			const c = await newContact({ tags: ['VIP'] });
			expect(
				(await api().patch(`/v1/contacts/${c.id}`, { notes: 'x' })).body.tags.map(
					(t: Json) => t.name,
				),
			).toEqual(['VIP']);
		});

		it('refuses tags with tag_ids, and an unknown name or id, changing nothing at all', async () => {
			const tags = await tagsByName();
			const c = await newContact({ tags: ['VIP'], notes: 'keep' });
			const globexTag = (await sandbox.api('globex').get('/v1/tags?limit=1')).body.data[0];
			expectError(
				await api().patch(`/v1/contacts/${c.id}`, {
					notes: 'changed',
					tags: ['Investor'],
					tag_ids: [],
				}),
				400,
				'tags',
			);
			expectError(
				await api().patch(`/v1/contacts/${c.id}`, { notes: 'changed', tags: ['Investor', 'Nope'] }),
				400,
				'tags',
			);
			expectError(
				await api().patch(`/v1/contacts/${c.id}`, {
					notes: 'changed',
					tag_ids: [tags.get('Investor')?.id, '00000000-0000-4000-8000-000000000000'],
				}),
				400,
				'tag_ids',
			);
			expectError(
				await api().patch(`/v1/contacts/${c.id}`, { notes: 'changed', tag_ids: [globexTag.id] }),
				400,
				'tag_ids',
			);
			expect(await getContact(c.id)).toEqual(c);
			expect((await tagsByName()).get('Investor')?.contact_count).toBe(
				tags.get('Investor')?.contact_count,
			);
		});

		it('sees tags created and renamed in the business tools', async () => {
			const tag = await sandbox.control.createTag('acme', 'Spring Gala');
			const c = await newContact({ tags: ['spring gala'] });
			await sandbox.control.updateTag(tag.id as string, 'Spring Gala 2026');
			expect((await getContact(c.id)).tags).toEqual([{ id: tag.id, name: 'Spring Gala 2026' }]);
			expect(
				(await api().walk('/v1/tags')).records.find((t) => t.id === tag.id)?.contact_count,
			).toBe(1);
		});
	});

	describe('agency link', () => {
		it('links an agency_name matching an agency case-insensitively, keeps others as plain text', async () => {
			const agency = (await agencies())[0];
			const linked = await newContact({ agency_name: agency.name.toUpperCase() });
			expect(linked).toMatchObject({
				agency_id: agency.id,
				agency_name: agency.name,
				agency: { id: agency.id, name: agency.name, phone: agency.phone, website: agency.website },
			});
			const text = await newContact({ agency_name: 'Nowhere Realty' });
			expect(text).toMatchObject({ agency_id: null, agency_name: 'Nowhere Realty', agency: null });
		});

		it('prefers agency_id over agency_name', async () => {
			const [a, b] = await agencies();
			const c = await newContact({ agency_id: a.id, agency_name: b.name });
			expect(c).toMatchObject({ agency_id: a.id, agency_name: a.name });
			const moved = (
				await api().patch(`/v1/contacts/${c.id}`, { agency_id: b.id, agency_name: 'ignored' })
			).body;
			expect(moved).toMatchObject({ agency_id: b.id, agency_name: b.name });
		});

		it('unlinks with agency_id null (unchangedContactWrite) and refuses an unknown agency_id', async () => {
			const [a] = await agencies();
			const c = await newContact({ agency_id: a.id });
			expect((await api().patch(`/v1/contacts/${c.id}`, { agency_id: null })).body).toMatchObject({
				agency_id: null,
				agency_name: null,
				agency: null,
			});
			expect(
				(await api().patch(`/v1/contacts/${c.id}`, { agency_id: null, agency_name: a.name })).body,
			).toMatchObject({ agency_id: null, agency_name: a.name });
			const globexAgency = (await sandbox.api('globex').get('/v1/agencies?limit=1')).body.data[0];
			expectError(
				await api().patch(`/v1/contacts/${c.id}`, { agency_id: globexAgency.id }),
				400,
				'agency_id',
			);
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'a@example.com',
					agency_id: '00000000-0000-4000-8000-000000000000',
				}),
				400,
				'agency_id',
			);
		});

		it('keeps agency contact_count right', async () => {
			const [a, b] = await agencies();
			const count = async (id: string) =>
				(await api().get(`/v1/agencies?ids=${id}`)).body.data[0].contact_count;
			const [ca, cb] = [await count(a.id), await count(b.id)];
			const c = await newContact({ agency_id: a.id });
			expect(await count(a.id)).toBe(ca + 1);
			await api().patch(`/v1/contacts/${c.id}`, { agency_id: b.id });
			expect([await count(a.id), await count(b.id)]).toEqual([ca, cb + 1]);
		});

		it('uses_agency_address: true makes the address fields follow the agency’s', async () => {
			const [a] = await agencies();
			const c = await newContact({
				agency_id: a.id,
				address: '1 Own St',
				city: 'Owntown',
				zip: '11111',
				country: 'CA',
			});
			expect(c).toMatchObject({ address: '1 Own St', city: 'Owntown', uses_agency_address: false });
			const follows = (await api().patch(`/v1/contacts/${c.id}`, { uses_agency_address: true }))
				.body;
			expect(follows).toMatchObject({
				uses_agency_address: true,
				address: a.address,
				address_line2: a.address_line2,
				city: a.city,
				state: a.state,
				zip: a.zip,
				country: a.country,
			});
			const own = (await api().patch(`/v1/contacts/${c.id}`, { uses_agency_address: false })).body;
			expect(own).toMatchObject({
				address: '1 Own St',
				city: 'Owntown',
				zip: '11111',
				country: 'CA',
			});
		});
	});
}
