/**
 * Contact Create and Update: every field reaches the contact, "leave as is"
 * versus "clear" (null), tags by name and by ID, both together refused before
 * sending, an unknown tag refused by the server with nothing changed, and the
 * agency picked through its resource locator.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { withSandbox } from '../helpers/n8n';
import { api, errorText, requests, run } from './support';

export function contactWrite(): void {
	const sandbox = withSandbox({}, { reset: true });

	interface Tag {
		id: string;
		name: string;
	}
	let tags: Tag[];
	let agencyId: string;
	let contact: IDataObject;

	beforeEach(async () => {
		tags = (await api<{ data: Tag[] }>(sandbox, '/v1/tags', { limit: '3' })).data;
		agencyId = String(
			(await api<{ data: IDataObject[] }>(sandbox, '/v1/agencies', { limit: '1' })).data[0].id,
		);
		const created = await run(sandbox, {
			resource: 'contact',
			operation: 'create',
			first_name: 'Ada',
			email: 'ada@example.com',
			additionalFields: { phone: '303-555-0100', city: 'Denver', tags: [tags[0].name] },
		});
		contact = created.items[0].json;
		await sandbox.control.clearRequests();
	});

	const readContact = async (id: string) =>
		(await api<{ data: IDataObject[] }>(sandbox, '/v1/contacts', { ids: id })).data[0];
	const tagNames = (record: IDataObject) => (record.tags as Tag[]).map((tag) => tag.name).sort();

	describe('Create', () => {
		test('sends every field given, tags by name, the agency from the list, social profiles', async () => {
			const { items, error } = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Grace',
				email: 'grace@example.com',
				additionalFields: {
					last_name: 'Hopper',
					cc_email: 'office@example.com, assistant@example.com',
					phone: '303-555-0199',
					business_name: 'Hopper Homes',
					address: '1 Main St',
					address_line2: 'Suite 2',
					city: 'Denver',
					state: 'CO',
					zip: '80202',
					country: 'US',
					birthday: '1906-12-09',
					website: 'https://hopper.example.com',
					notes: 'Met at the open house',
					uses_agency_address: false,
					agency_id: { __rl: true, mode: 'list', value: agencyId },
					tags: [tags[0].name, tags[1].name],
					social: { profiles: [{ network: 'linkedin', url: 'https://www.linkedin.com/in/grace' }] },
				},
			});
			expect(error).toBeUndefined();
			const created = items[0].json;
			expect(created).toMatchObject({
				first_name: 'Grace',
				last_name: 'Hopper',
				email: 'grace@example.com',
				phone: '303-555-0199',
				business_name: 'Hopper Homes',
				address: '1 Main St',
				address_line2: 'Suite 2',
				city: 'Denver',
				state: 'CO',
				zip: '80202',
				country: 'US',
				birthday: '1906-12-09',
				website: 'https://hopper.example.com',
				notes: 'Met at the open house',
				uses_agency_address: false,
				agency_id: agencyId,
				social: { linkedin: 'https://www.linkedin.com/in/grace' },
			});
			expect(String(created.cc_email).replace(/\s/g, '')).toBe(
				'office@example.com,assistant@example.com',
			);
			expect(tagNames(created)).toEqual([tags[0].name, tags[1].name].sort());
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(await readContact(String(created.id))).toMatchObject({
				first_name: 'Grace',
				agency_id: agencyId,
			});
		});

		test.each([
			[
				'as typed',
				'office@example.com,assistant@example.com',
				'office@example.com,assistant@example.com',
			],
			[
				'entries trimmed, blank ones dropped',
				' office@example.com ,  assistant@example.com, ',
				'office@example.com,assistant@example.com',
			],
			['one address', ' office@example.com ', 'office@example.com'],
		])('CC Email is sent %s, not re-joined with ", "', async (_name, typed, sent) => {
			const { items, error } = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Carbon',
				email: 'carbon@example.com',
				additionalFields: { cc_email: typed },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.cc_email).toBe(sent);
			expect((await readContact(String(items[0].json.id))).cc_email).toBe(sent);
		});

		test.each([
			[
				'11 addresses',
				Array.from({ length: 11 }, (_, i) => `cc${i}@example.com`).join(','),
				'at most 10 addresses, got 11',
			],
			['a blank address between two', 'a@example.com, ,b@example.com', ''],
		])('CC Email with %s', async (_name, typed, refusal) => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Carbon',
				email: 'carbon@example.com',
				additionalFields: { cc_email: typed },
			});
			if (refusal) {
				expect(errorText(result)).toContain(`CC Email "cc_email": ${refusal}`);
				expect(await requests(sandbox)).toHaveLength(0);
			} else {
				// A blank entry is dropped by the node, so the rule book never sees one.
				expect(result.items[0].json.cc_email).toBe('a@example.com,b@example.com');
			}
		});

		test('tags by ID and the agency by ID', async () => {
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Linus',
				email: 'linus@example.com',
				additionalFields: {
					tag_ids: `${tags[1].id}, ${tags[2].id}`,
					agency_id: { __rl: true, mode: 'id', value: agencyId },
				},
			});
			expect(tagNames(items[0].json)).toEqual([tags[1].name, tags[2].name].sort());
			expect(items[0].json.agency_id).toBe(agencyId);
		});

		test('tags by name and by ID together are refused before sending', async () => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Both',
				email: 'both@example.com',
				additionalFields: { tags: [tags[0].name], tag_ids: tags[1].id },
			});
			expect(result.error?.message).toBe('Tags and Tag IDs cannot be used together');
			expect(result.error?.description).toContain('not both');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('with continue-on-fail the refused item is an error item and the next one is created', async () => {
			const { items } = await run(
				sandbox,
				{
					resource: 'contact',
					operation: 'create',
					first_name: '={{ $json.name }}',
					email: '={{ $json.email }}',
					additionalFields: { tags: '={{ $json.tags }}', tag_ids: '={{ $json.tagIds }}' },
				},
				{
					items: [
						{
							json: {
								name: 'One',
								email: 'one@example.com',
								tags: [tags[0].name],
								tagIds: tags[1].id,
							},
						},
						{ json: { name: 'Two', email: 'two@example.com', tags: [tags[0].name], tagIds: '' } },
					],
					continueOnFail: true,
				},
			);
			expect(items[0]).toMatchObject({
				json: { error: 'Tags and Tag IDs cannot be used together' },
				pairedItem: { item: 0 },
			});
			expect(items[1]).toMatchObject({ json: { first_name: 'Two' }, pairedItem: { item: 1 } });
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});

		test('a required field that an expression leaves empty is refused locally, naming it', async () => {
			const result = await run(
				sandbox,
				{
					resource: 'contact',
					operation: 'create',
					first_name: 'No Mail',
					email: '={{ $json.email }}',
				},
				{ items: [{ json: { email: '' } }] },
			);
			expect(errorText(result)).toContain('email');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test("an unknown tag name is the server's 400, shown clearly, and creates nothing", async () => {
			const before = (await api<{ total: number }>(sandbox, '/v1/contacts', { limit: '1' })).total;
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Ghost',
				email: 'ghost@example.com',
				additionalFields: { tags: ['No Such Tag'] },
			});
			expect(result.error?.message).toMatch(/No Such Tag|tag/i);
			expect(result.error?.message).toContain('400');
			expect((await api<{ total: number }>(sandbox, '/v1/contacts', { limit: '1' })).total).toBe(
				before,
			);
		});
	});

	describe('Update', () => {
		const update = (parameters: IDataObject) =>
			run(sandbox, {
				resource: 'contact',
				operation: 'update',
				contact_id: String(contact.id),
				...parameters,
			});

		test('only the fields set change; the others are left as they are', async () => {
			const { items } = await update({ updateFields: { last_name: 'Lovelace' } });
			expect(items[0].json).toMatchObject({
				last_name: 'Lovelace',
				phone: '303-555-0100',
				city: 'Denver',
			});
			expect(tagNames(items[0].json)).toEqual([tags[0].name]);
			expect(await readContact(String(contact.id))).toMatchObject({
				first_name: 'Ada',
				phone: '303-555-0100',
			});
		});

		test('an empty value in Update Fields leaves the field as it is', async () => {
			const { items } = await update({ updateFields: { phone: '', last_name: 'Byron' } });
			expect(items[0].json).toMatchObject({ phone: '303-555-0100', last_name: 'Byron' });
		});

		test('Fields to Clear sends null: the fields are emptied, the agency unlinked', async () => {
			await update({ updateFields: { agency_id: { __rl: true, mode: 'list', value: agencyId } } });
			expect((await readContact(String(contact.id))).agency_id).toBe(agencyId);
			const { items } = await update({ fieldsToClear: ['phone', 'city', 'agency_id'] });
			expect(items[0].json).toMatchObject({
				phone: null,
				city: null,
				agency_id: null,
				first_name: 'Ada',
			});
		});

		test('tags: replaced by name, then by ID, then cleared (an empty list)', async () => {
			const byName = await update({ updateFields: { tags: [tags[1].name] } });
			expect(tagNames(byName.items[0].json)).toEqual([tags[1].name]);
			const byId = await update({ updateFields: { tag_ids: [tags[2].id] } });
			expect(tagNames(byId.items[0].json)).toEqual([tags[2].name]);
			const cleared = await update({ fieldsToClear: ['tags'] });
			expect(cleared.items[0].json.tags).toEqual([]);
		});

		test("an unknown tag is the server's 400, and nothing on the contact changes", async () => {
			const result = await update({
				updateFields: { first_name: 'Changed', tags: ['No Such Tag'] },
			});
			expect(result.error?.message).toContain('400');
			expect(await requests(sandbox, { method: 'PATCH' })).toHaveLength(1);
			const after = await readContact(String(contact.id));
			expect(after.first_name).toBe('Ada');
			expect(tagNames(after)).toEqual([tags[0].name]);
		});

		test('a field both set and cleared is refused before sending', async () => {
			const result = await update({ updateFields: { phone: '1' }, fieldsToClear: ['phone'] });
			expect(result.error?.message).toBe('Phone is both set and cleared');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('tags set by ID while clearing tags is the exclusive pair, refused before sending', async () => {
			const result = await update({
				updateFields: { tag_ids: tags[1].id },
				fieldsToClear: ['tags'],
			});
			expect(result.error?.message).toBe('Tags and Tag IDs cannot be used together');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('nothing to update is refused before sending', async () => {
			const result = await update({});
			expect(result.error?.message).toBe('Nothing to update');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('tags mapped to an object are refused, naming the field; the contact keeps its tags', async () => {
			const result = await update({ updateFields: { tags: { name: tags[1].name } } });
			expect(result.error?.message).toContain('tags');
			expect(await requests(sandbox)).toHaveLength(0);
			expect(tagNames(await readContact(String(contact.id)))).toEqual([tags[0].name]);
		});

		test('an unknown contact is a 404 naming the contact and its ID', async () => {
			const unknown = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'update',
				contact_id: unknown,
				updateFields: { city: 'Boulder' },
			});
			expect(result.error?.message).toContain('404');
			expect(result.error?.description).toContain(`contact "${unknown}"`);
		});

		test('a malformed contact ID is refused locally, naming the field', async () => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'update',
				contact_id: '12',
				updateFields: { city: 'Boulder' },
			});
			expect(result.error?.message).toContain('contact_id');
			expect(await requests(sandbox)).toHaveLength(0);
		});
	});

	describe('values the API would refuse are refused before sending, naming the field', () => {
		test.each([
			[
				'a first name of only spaces',
				{ first_name: '  ' },
				'First Name "first_name": must not be blank',
			],
			[
				'an email whose domain ends in a digit',
				{ email: 'a@b.c1' },
				'Email "email": "a@b.c1" is not an email address',
			],
			[
				'an unassigned country code',
				{ additionalFields: { country: 'XX' } },
				'Country "country": "XX" is not an ISO 3166',
			],
			[
				'an impossible birthday',
				{ additionalFields: { birthday: '2001-02-29' } },
				'Birthday "birthday": "2001-02-29" is not a date',
			],
		])('%s', async (_name, parameters, message) => {
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Rule',
				email: 'rule@example.com',
				...parameters,
			});
			expect(result.error?.message).toContain(message);
			expect(result.error?.description).toBe('Nothing was sent to the API.');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('a country in lower case or with spaces is sent in capitals', async () => {
			const { items, error } = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Rule',
				email: 'rule@example.com',
				additionalFields: { country: ' ca ' },
			});
			expect(error).toBeUndefined();
			expect(items[0].json.country).toBe('CA');
		});

		test.each([
			['a Luxon DateTime', "={{ DateTime.fromISO('2000-02-28T20:00:00Z') }}"],
			['a JS Date', '={{ new Date(Date.UTC(2000, 1, 28, 20)) }}'],
			['ISO text with a time', '2000-02-28T20:00:00Z'],
		])(
			'a birthday given as %s becomes its calendar date in the workflow timezone',
			async (_name, birthday) => {
				// 20:00 UTC on 28 February is already 29 February in Auckland (UTC+13).
				const { items, error } = await run(
					sandbox,
					{
						resource: 'contact',
						operation: 'create',
						first_name: 'Leap',
						email: 'leap@example.com',
						additionalFields: { birthday },
					},
					{ timezone: 'Pacific/Auckland' },
				);
				expect(error).toBeUndefined();
				expect(items[0].json.birthday).toBe('2000-02-29');
			},
		);
	});

	describe('Update never wipes what the user did not touch', () => {
		const linkedin = 'https://www.linkedin.com/in/ada';
		let id: string;
		beforeEach(async () => {
			id = String(contact.id);
			await run(sandbox, {
				resource: 'contact',
				operation: 'update',
				contact_id: id,
				updateFields: {
					social: { profiles: [{ network: 'linkedin', url: linkedin }] },
					cc_email: 'office@example.com',
				},
			});
			await sandbox.control.clearRequests();
		});
		const update = (updateFields: INodeParameters) =>
			run(sandbox, { resource: 'contact', operation: 'update', contact_id: id, updateFields });

		test.each<[string, INodeParameters]>([
			['the Social collection added but empty', { social: {} }],
			['a Social profile left all blank', { social: { profiles: [{ network: '', url: ' ' }] } }],
			['CC emails of only separators and spaces', { cc_email: ' , ' }],
			['tags and tag IDs left empty', { tags: [], tag_ids: ' , ' }],
		])('%s sends nothing for that field', async (_name, untouched) => {
			const { items, error } = await update({ ...untouched, city: 'Boulder' });
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ city: 'Boulder', social: { linkedin } });
			expect(String(items[0].json.cc_email)).toBe('office@example.com');
			expect(tagNames(await readContact(id))).toEqual([tags[0].name]);
			expect(await requests(sandbox, { method: 'PATCH' })).toHaveLength(1);
		});

		test.each<[string, INodeParameters, string]>([
			[
				'a blank network name',
				{ network: ' ', url: 'https://x.example/ada' },
				'the profile with URL "https://x.example/ada" has no network name',
			],
			['a network without a URL', { network: 'x', url: '' }, 'the x profile has no URL'],
		])(
			'a Social profile with %s is an item-level error, with no request',
			async (_name, profile, reason) => {
				const result = await update({ social: { profiles: [profile] } });
				expect(result.error?.message).toContain(`Social "social": ${reason}`);
				expect(await requests(sandbox)).toHaveLength(0);
				expect((await readContact(id)).social).toEqual({ linkedin });
			},
		);

		test('Fields to Clear empties the social map: clearing is explicit', async () => {
			const { items } = await run(sandbox, {
				resource: 'contact',
				operation: 'update',
				contact_id: id,
				fieldsToClear: ['social'],
			});
			expect(items[0].json.social).toBeNull();
		});
	});
}
