/** ContactCreate / ContactUpdate field rules, null clears, updated_at (createAnswers201, updateAnswers200, unchangedContactWrite) and derived roles. */
import { ENDPOINTS } from '../../nodes/shared/endpoints';
import { contactHelpers, expectError, type Json, useSandbox } from './support';

export function contactWrite(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	const { newContact, getContact, tagsByName } = contactHelpers(sandbox);

	describe('create (POST /v1/contacts)', () => {
		it('answers 201 with the full Contact (createAnswers201)', async () => {
			const res = await api().post('/v1/contacts', {
				first_name: 'Ada',
				last_name: 'Lovelace',
				email: 'ada@example.com',
				phone: '303-555-0100',
				social: { x: 'https://x.example/ada' },
			});
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({
				first_name: 'Ada',
				last_name: 'Lovelace',
				email: 'ada@example.com',
				tags: [],
				roles: [],
				photo_url: null,
				agency: null,
				agency_id: null,
				uses_agency_address: false,
			});
			expect(res.body.created_at).toBe(res.body.updated_at);
			expect(await getContact(res.body.id)).toEqual(res.body);
		});

		it.each(['first_name', 'email'])('requires %s', async (name) => {
			const body: Json = { first_name: 'A', email: 'a@example.com' };
			delete body[name];
			expectError(await api().post('/v1/contacts', body), 400, name);
		});

		it('refuses additional properties, naming them', async () => {
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'a@example.com',
					favourite_color: 'blue',
				}),
				400,
				'favourite_color',
			);
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'a@example.com',
					roles: ['Customer'],
				}),
				400,
				'roles',
			);
		});

		it('refuses a body that is not a JSON object', async () => {
			expectError(
				await api().request('POST', '/v1/contacts', {
					raw: 'first_name=A',
					contentType: 'application/x-www-form-urlencoded',
				}),
				400,
				'body',
			);
			expectError(
				await api().request('POST', '/v1/contacts', {
					raw: '{"first_name":',
					contentType: 'application/json',
				}),
				400,
				'body',
			);
			expectError(await api().post('/v1/contacts', [{ first_name: 'A' }]), 400, 'body');
		});

		it.each([
			['email', 'not-an-email'],
			['email', 'a@b'],
			['email', ''],
			['first_name', ''],
			['first_name', 42],
			['cc_email', 'x@example.com, nope'],
			['cc_email', Array.from({ length: 11 }, (_, i) => `cc${i}@example.com`).join(',')],
			['country', 'us'],
			['country', 'USA'],
			['country', 'XX'],
			['birthday', '1990-02-30'],
			['birthday', '1990/01/01'],
			['social', { x: 1 }],
			['social', 'x'],
			['uses_agency_address', 'yes'],
			['agency_id', 'not-a-uuid'],
			['tag_ids', ['not-a-uuid']],
			['tags', 'VIP'],
			['phone', 5550100],
		])('refuses %s = %j with a 400 naming it', async (name, value) => {
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'a@example.com',
					[name]: value,
				}),
				400,
				name,
			);
		});

		it('accepts up to 10 CC addresses, a real ISO country and a calendar birthday', async () => {
			const cc = Array.from({ length: 10 }, (_, i) => `cc${i}@example.com`).join(',');
			const c = await newContact({ cc_email: cc, country: 'DE', birthday: '2000-02-29' });
			expect(c).toMatchObject({ country: 'DE', birthday: '2000-02-29' });
			expect(c.cc_email.split(',')).toHaveLength(10);
		});

		it('refuses tags with tag_ids', async () => {
			const vip = (await tagsByName()).get('VIP');
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'a@example.com',
					tags: ['VIP'],
					tag_ids: [vip?.id],
				}),
				400,
				'tags',
			);
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'a@example.com',
					tags: null,
					tag_ids: [],
				}),
				400,
				'tags',
			);
		});

		it('refuses an unknown tag and creates nothing', async () => {
			const before = (await api().get('/v1/contacts?limit=1')).body.total;
			expectError(
				await api().post('/v1/contacts', {
					first_name: 'A',
					email: 'unknown-tag@example.com',
					tags: ['VIP', 'No Such Tag'],
				}),
				400,
				'tags',
			);
			expect((await api().get('/v1/contacts?limit=1')).body.total).toBe(before);
			expect((await api().get('/v1/contacts?email=unknown-tag@example.com')).body.total).toBe(0);
		});
	});

	describe('update (PATCH /v1/contacts/{id})', () => {
		it('answers 200 with the Contact, changing only the fields sent (updateAnswers200)', async () => {
			const c = await newContact({ last_name: 'Before', phone: '1' });
			const res = await api().patch(`/v1/contacts/${c.id}`, { last_name: 'After' });
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({ last_name: 'After', phone: '1', first_name: 'Test' });
			expect(await getContact(c.id)).toEqual(res.body);
		});

		it('clears optional fields with null, but first_name and email cannot be null', async () => {
			const c = await newContact({
				last_name: 'X',
				notes: 'n',
				social: { a: 'b' },
				country: 'US',
				birthday: '1999-01-01',
				cc_email: 'a@example.com',
			});
			const res = await api().patch(`/v1/contacts/${c.id}`, {
				last_name: null,
				notes: null,
				social: null,
				country: null,
				birthday: null,
				cc_email: null,
			});
			expect(res.body).toMatchObject({
				last_name: null,
				notes: null,
				social: null,
				country: null,
				birthday: null,
				cc_email: null,
			});
			expectError(
				await api().patch(`/v1/contacts/${c.id}`, { first_name: null }),
				400,
				'first_name',
			);
			expectError(await api().patch(`/v1/contacts/${c.id}`, { email: null }), 400, 'email');
		});

		it('runs every field check of ContactUpdate from the endpoint table', async () => {
			const c = await newContact();
			expectError(await api().patch(`/v1/contacts/${c.id}`, { nickname: 'x' }), 400, 'nickname');
			expectError(await api().patch(`/v1/contacts/${c.id}`, { email: 'bad' }), 400, 'email');
			const names = ENDPOINTS.updateContact.body.fields.map((f) => f.name);
			expect(names).toEqual(ENDPOINTS.createContact.body.fields.map((f) => f.name));
		});

		it('bumps updated_at on every change, and only on a change (unchangedContactWrite)', async () => {
			const c = await newContact({ notes: 'a' });
			await sandbox.control.advanceClock(60_000);
			const changed = (await api().patch(`/v1/contacts/${c.id}`, { notes: 'b' })).body;
			expect(changed.updated_at > c.updated_at).toBe(true);
			expect(changed.created_at).toBe(c.created_at);
			await sandbox.control.advanceClock(60_000);
			const same = (await api().patch(`/v1/contacts/${c.id}`, { notes: 'b' })).body;
			expect(same.updated_at).toBe(changed.updated_at);
			const polled = await api().get(
				`/v1/contacts?updated_since=${encodeURIComponent(changed.updated_at)}&ids=${c.id}`,
			);
			expect(polled.body.total).toBe(1);
		});
	});

	describe('roles', () => {
		it('are derived from the inspections a contact is on', async () => {
			const c = await newContact();
			expect(c.roles).toEqual([]);
			await sandbox.control.createInspection({
				org: 'acme',
				contacts: [{ id: c.id, role: 'Lender' }],
			});
			await sandbox.control.createInspection({
				org: 'acme',
				contacts: [{ id: c.id, role: 'Buyer Agent' }],
			});
			expect((await getContact(c.id)).roles).toEqual(['Buyer Agent', 'Lender']);
			expect((await api().get(`/v1/contacts?role=agent&ids=${c.id}`)).body.total).toBe(1);
		});

		it('cannot be written', async () => {
			const c = await newContact();
			expectError(await api().patch(`/v1/contacts/${c.id}`, { roles: ['Lender'] }), 400, 'roles');
		});
	});
}
