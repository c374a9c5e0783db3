/**
 * Get (Contact, Agency, Inspection): the IDs of all input items in ⌈M/200⌉
 * requests, output in item order with pairedItem, item-level errors for
 * missing and malformed IDs, continue-on-fail keeping the other items.
 */
import type { IDataObject } from 'n8n-workflow';

import { NOT_AN_ID } from '../../nodes/shared/rules/formats';
import { withSandbox } from '../helpers/n8n';
import { allPages, api, requests, run } from './support';

export function get(): void {
	const sandbox = withSandbox({}, { reset: true });

	const UNKNOWN = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
	const itemsOf = (ids: string[]) => ids.map((id) => ({ json: { id } }));
	const idCounts = (log: Array<{ query: Record<string, string | string[]> }>) =>
		log.map((entry) => String(entry.query.ids).split(',').length);

	let contactIds: string[];
	beforeAll(async () => {
		contactIds = (await allPages(sandbox, '/v1/contacts')).records
			.slice(0, 450)
			.map((c) => String(c.id));
	});

	test('450 items: three requests of 200, 200 and 50 IDs; output in item order, paired', async () => {
		// Reversed, so the output order cannot come from the server's order by ID.
		const ids = [...contactIds].reverse();
		const { items, error } = await run(
			sandbox,
			{ resource: 'contact', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(ids) },
		);
		expect(error).toBeUndefined();
		expect(idCounts(await requests(sandbox))).toEqual([200, 200, 50]);
		expect(items.map((item) => item.json.id)).toEqual(ids);
		expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	});

	test('a repeated ID is fetched once and output for each item', async () => {
		const ids = [contactIds[0], contactIds[1], contactIds[0]];
		const { items } = await run(
			sandbox,
			{ resource: 'contact', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(ids) },
		);
		expect(idCounts(await requests(sandbox))).toEqual([2]);
		expect(items.map((item) => item.json.id)).toEqual(ids);
	});

	test('450 items with 440 unique IDs (repeats across the 200-ID boundary, some in upper case): one output per item, paired, in three requests of 200, 200 and 40 IDs', async () => {
		const unique = contactIds.slice(0, 440);
		const repeats = unique.slice(0, 10).map((id, i) => (i % 2 ? id.toUpperCase() : id));
		const ids = [...unique, ...repeats];
		const { items, error } = await run(
			sandbox,
			{ resource: 'contact', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(ids) },
		);
		expect(error).toBeUndefined();
		expect(idCounts(await requests(sandbox))).toEqual([200, 200, 40]);
		// IDs are UUIDs, compared without regard to case; the API answers them in lower case.
		expect(items.map((item) => item.json.id)).toEqual(ids.map((id) => id.toLowerCase()));
		expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	});

	test('a missing record is an item-level "not found" naming the resource and ID', async () => {
		const ids = [contactIds[0], UNKNOWN, contactIds[1]];
		const result = await run(
			sandbox,
			{ resource: 'contact', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(ids) },
		);
		expect(result.error?.message).toBe(`Contact ${UNKNOWN} not found`);
		expect(result.error?.description).toContain('No contact with this ID');
		expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);
	});

	test('with continue-on-fail, the missing one becomes an error item and the others are kept', async () => {
		const ids = [contactIds[0], UNKNOWN, contactIds[1]];
		const { items, error } = await run(
			sandbox,
			{ resource: 'contact', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(ids), continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.id).toBe(contactIds[0]);
		expect(items[1].json.error).toBe(`Contact ${UNKNOWN} not found`);
		expect(items[2].json.id).toBe(contactIds[1]);
		expect(await requests(sandbox)).toHaveLength(1);
	});

	test('a malformed ID is an item error before anything is sent', async () => {
		const result = await run(
			sandbox,
			{ resource: 'agency', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(['not-an-id']) },
		);
		expect(result.error?.message).toBe(
			`Invalid value for Agency ID "id": "not-an-id" ${NOT_AN_ID}`,
		);
		expect(await requests(sandbox)).toHaveLength(0);
	});

	test('with continue-on-fail a malformed ID fails its item only', async () => {
		const agencies = await api<{ data: IDataObject[] }>(sandbox, '/v1/agencies', { limit: '2' });
		const ids = [String(agencies.data[0].id), 'nope', String(agencies.data[1].id)];
		await sandbox.control.clearRequests();
		const { items } = await run(
			sandbox,
			{ resource: 'agency', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(ids), continueOnFail: true },
		);
		expect(items.map((item) => item.json.id ?? item.json.error)).toEqual([
			ids[0],
			`Invalid value for Agency ID "id": "nope" ${NOT_AN_ID}`,
			ids[2],
		]);
		expect(idCounts(await requests(sandbox))).toEqual([2]);
	});

	test('a failed batch request fails every item of the batch, each with its own error item', async () => {
		const { items } = await run(
			sandbox,
			{ resource: 'contact', operation: 'get', id: '={{ $json.id }}' },
			{ items: itemsOf(contactIds.slice(0, 2)), continueOnFail: true, key: 'revoked' },
		);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of items) {
			expect(item.json.error).toMatch(/401/);
			expect(item.json.description).toMatch(/API key/);
		}
		expect(await requests(sandbox)).toHaveLength(1);
	});

	describe('inspections', () => {
		test('a canceled inspection is found by ID; Simplify shapes it', async () => {
			const page = await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', { limit: '1' });
			const id = String(page.data[0].id);
			await sandbox.control.cancelInspection(id);
			const { items } = await run(sandbox, { resource: 'inspection', operation: 'get', id });
			expect(items[0].json).toMatchObject({ id, status: 'canceled' });
			// Simplified: the property and the contacts list are left out; the full record has them.
			expect(items[0].json.property).toBeUndefined();
			expect(items[0].json.contacts).toBeUndefined();
			const raw = await run(sandbox, {
				resource: 'inspection',
				operation: 'get',
				id,
				simplify: false,
			});
			expect(raw.items[0].json.property).toBeDefined();
			expect(raw.items[0].json.contacts).toBeDefined();
		});

		test('a deleted inspection needs Include Deleted', async () => {
			const page = await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', {
				limit: '1',
				sort: '-created_at',
			});
			const id = String(page.data[0].id);
			await sandbox.control.deleteInspection(id);
			await sandbox.control.clearRequests();

			const without = await run(sandbox, { resource: 'inspection', operation: 'get', id });
			expect(without.error?.message).toBe(`Inspection ${id} not found`);
			expect(without.error?.description).toContain('Include Deleted');

			const withDeleted = await run(sandbox, {
				resource: 'inspection',
				operation: 'get',
				id,
				options: { include_deleted: true },
				simplify: false,
			});
			expect(withDeleted.items[0].json).toMatchObject({ id, deleted: true });
			const log = await requests(sandbox);
			expect(log.map((entry) => entry.query.include_deleted)).toEqual([undefined, 'true']);
		});
	});
}
