/**
 * Contact Create or Update: matched on email (case-insensitive), created or
 * updated in input order (a repeated new email updates the contact the first
 * item created), only the fields set are sent, duplicates refused without a
 * write, and the matching plan's requests counted in the sandbox log (demo
 * seed: 520 acme contacts, so a walk is 3 pages).
 */
import type { IDataObject } from 'n8n-workflow';

import { needsCount, planFor, walkPages } from '../../nodes/InspectionBusiness/helpers/emailMatch';
import { withSandbox } from '../helpers/n8n';
import { api, errorText, requests, run } from './support';
import { withRetry } from '../helpers/limits';

export function upsert(): void {
	const sandbox = withSandbox({}, { reset: true });
	withRetry();

	const upsert = (
		items: IDataObject[],
		parameters: IDataObject = {},
		options: { continueOnFail?: boolean } = {},
	) =>
		run(
			sandbox,
			{
				resource: 'contact',
				operation: 'upsert',
				email: '={{ $json.email }}',
				first_name: '={{ $json.first_name ?? "" }}',
				...parameters,
			},
			{ items: items.map((json) => ({ json })), ...options },
		);

	const contactsWithEmail = async (email: string) =>
		(await api<{ data: IDataObject[] }>(sandbox, '/v1/contacts', { email, limit: '200' })).data;

	/** The GETs of the matching step, by kind. */
	async function reads() {
		const log = await requests(sandbox, { method: 'GET', pathPrefix: '/v1/contacts' });
		return {
			count: log.filter((e) => e.query.limit === '1' && !e.query.email).length,
			lookups: log.filter((e) => e.query.email !== undefined).length,
			pages: log.filter((e) => e.query.limit === '200' && !e.query.email).length,
			total: log.length,
		};
	}

	let existing: IDataObject[];
	beforeEach(async () => {
		existing = (await api<{ data: IDataObject[] }>(sandbox, '/v1/contacts', { limit: '3' })).data;
		await sandbox.control.clearRequests();
	});

	describe('the plan rule', () => {
		test('one email is looked up without counting; more count first, then the cheaper', () => {
			expect(planFor(1)).toEqual({ uniqueEmails: 1, strategy: 'lookup', lookupRequests: 1 });
			// Bench row: 1,000 emails against 5,000 contacts → walk 1 + 25 instead of 1,000 lookups.
			expect(planFor(1_000, 5_000)).toEqual({
				uniqueEmails: 1_000,
				contacts: 5_000,
				strategy: 'walk',
				lookupRequests: 1_000,
				walkRequests: 26,
			});
			expect(planFor(3, 520).strategy).toBe('lookup'); // 3 pages ties 3 lookups
			expect(planFor(4, 520).strategy).toBe('walk');
			expect(planFor(2, 0).strategy).toBe('walk'); // no contacts: nothing to read after the count
		});

		test('never more than one request above the cheaper plan known in advance', () => {
			for (let unique = 1; unique <= 60; unique++) {
				for (let contacts = 0; contacts <= 12_000; contacts += 97) {
					const plan = planFor(unique, needsCount(unique) ? contacts : undefined);
					const spent =
						plan.strategy === 'walk'
							? Number(plan.walkRequests)
							: plan.lookupRequests + (plan.contacts === undefined ? 0 : 1);
					expect(spent).toBeLessThanOrEqual(Math.min(unique, 1 + walkPages(contacts)) + 1);
				}
			}
		});
	});

	describe('Create or Update', () => {
		test('one new email: one lookup, then created, marked created', async () => {
			const { items, error } = await upsert([
				{ email: 'new.person@example.com', first_name: 'New' },
			]);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				email: 'new.person@example.com',
				first_name: 'New',
				action: 'created',
			});
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(await reads()).toEqual({ count: 0, lookups: 1, pages: 0, total: 1 });
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});

		test('matched case-insensitively and updated with only the fields set', async () => {
			const target = existing[0];
			const shouted = String(target.email).toUpperCase();
			const { items, error } = await upsert([{ email: shouted }], {
				additionalFields: { city: 'Boulder', phone: '' },
				fieldsToClear: ['notes'],
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				id: target.id,
				email: target.email, // the match key is not written
				first_name: target.first_name, // empty First Name: left as is
				phone: target.phone, // empty value: not sent
				city: 'Boulder',
				notes: null,
				action: 'updated',
			});
			const patches = await requests(sandbox, { method: 'PATCH' });
			expect(patches.map((e) => e.path)).toEqual([`/v1/contacts/${String(target.id)}`]);
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(0);
		});

		test('an existing contact with nothing to change is output unchanged, with no write', async () => {
			const { items, error } = await upsert([{ email: existing[1].email }]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ id: existing[1].id, action: 'unchanged' });
			expect(await requests(sandbox, { method: 'PATCH' })).toHaveLength(0);
		});

		test('many emails: count, one walk of 3 pages (no lookup), then writes in input order; a repeated new email updates the first', async () => {
			const input = [
				{ email: 'twice@example.com', first_name: 'First' },
				{ email: String(existing[0].email).toUpperCase(), first_name: 'Renamed' },
				{ email: 'other@example.com', first_name: 'Other' },
				{ email: 'TWICE@example.com', first_name: 'Second' },
				{ email: existing[1].email, first_name: 'Also' },
			];
			const { items, error } = await upsert(input);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.action)).toEqual([
				'created',
				'updated',
				'created',
				'updated',
				'updated',
			]);
			expect(items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
			expect(items[3].json.id).toBe(items[0].json.id);
			expect(items[3].json.first_name).toBe('Second');
			expect(items[1].json.id).toBe(existing[0].id);
			// 4 unique emails > 3 pages: count (1) + walk (3), never a lookup.
			expect(await reads()).toEqual({ count: 1, lookups: 0, pages: 3, total: 4 });
			expect((await contactsWithEmail('twice@example.com')).map((c) => c.id)).toEqual([
				items[0].json.id,
			]);
		});

		test('two unique emails against 3 pages: count, then 2 lookups, each email as first spelled', async () => {
			await upsert([
				{ email: 'c@example.com', first_name: 'C' },
				{ email: existing[0].email, first_name: 'D' },
				{ email: 'C@EXAMPLE.COM', first_name: 'C2' },
			]);
			expect(await reads()).toEqual({ count: 1, lookups: 2, pages: 0, total: 3 });
			// Each email looked up once, as its first item spells it.
			const lookups = await requests(sandbox, { method: 'GET', pathPrefix: '/v1/contacts' });
			expect(lookups.flatMap((e) => (e.query.email ? [e.query.email] : []))).toEqual([
				'c@example.com',
				existing[0].email,
			]);
		});

		test('a re-run finds the contact it created and updates it: one contact per email', async () => {
			const input = [{ email: 'retry@example.com', first_name: 'Retry' }];
			expect((await upsert(input)).items[0].json.action).toBe('created');
			const again = await upsert(input, { additionalFields: { city: 'Aurora' } });
			expect(again.items[0].json).toMatchObject({ action: 'updated', city: 'Aurora' });
			expect(await contactsWithEmail('retry@example.com')).toHaveLength(1);
		});

		test('an email held by two contacts fails its item, naming the email and both ids, with no write', async () => {
			const dup = 'dup@example.com';
			const ids: string[] = [];
			for (const name of ['One', 'Two']) {
				const created = await upsert([{ email: `${name}-${dup}`, first_name: name }]);
				ids.push(String(created.items[0].json.id));
			}
			// The API itself allows two contacts with one email; make both hold it.
			for (const id of ids) await sandbox.control.updateContact(id, { email: dup });
			await sandbox.control.clearRequests();
			const result = await upsert([{ email: dup, first_name: 'Three' }]);
			// Listed in the API's order, by id.
			expect(result.error?.message).toBe(
				`2 contacts have the email ${dup}: ${[...ids].sort().join(', ')}`,
			);
			expect(errorText(result)).toContain('Nothing was written');
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(0);
			expect(await requests(sandbox, { method: 'PATCH' })).toHaveLength(0);
		});

		test('a new email without First Name fails before sending, naming the field', async () => {
			const result = await upsert([{ email: 'nameless@example.com' }]);
			expect(result.error?.message).toBe('First Name is required to create nameless@example.com');
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(0);
		});

		test('continue-on-fail: a bad email and a duplicate-free set fail or pass per item, and the bad one is not looked up', async () => {
			const { items, error } = await upsert(
				[
					{ email: 'not-an-email', first_name: 'Bad' },
					{ email: 'good@example.com', first_name: 'Good' },
					{ email: 'nameless2@example.com' },
				],
				{},
				{ continueOnFail: true },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(3);
			expect(items[0].json.error).toContain('email');
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(items[1].json).toMatchObject({ email: 'good@example.com', action: 'created' });
			expect(items[2].json.error).toContain('First Name is required');
			expect(items[2].pairedItem).toEqual({ item: 2 });
			// 2 valid emails: count + 2 lookups; the bad one is never sent.
			expect(await reads()).toEqual({ count: 1, lookups: 2, pages: 0, total: 3 });
		});

		test('a matching read that keeps failing fails every item it served, and nothing is written', async () => {
			// The count's four attempts (a GET is retried) all answer 500.
			await sandbox.control.queueFaults(
				...[1, 2, 3, 4].map(() => ({ kind: '500' as const, method: 'GET', path: '/v1/contacts' })),
			);
			const { items, error } = await upsert(
				[
					{ email: 'e@example.com', first_name: 'E' },
					{ email: 'f@example.com', first_name: 'F' },
				],
				{},
				{ continueOnFail: true },
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			for (const item of items) expect(item.json.error).toContain('500');
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(0);
		});

		test('a field both set and cleared is refused before anything is sent', async () => {
			const result = await upsert([{ email: existing[0].email }], {
				additionalFields: { phone: '1' },
				fieldsToClear: ['phone'],
			});
			expect(result.error?.message).toBe('Phone is both set and cleared');
			expect(errorText(result)).toContain('Remove Phone from Additional Fields');
			expect(await requests(sandbox)).toHaveLength(0);
		});
	});
}
