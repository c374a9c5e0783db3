/**
 * Contact Download Photo and Inspection Download Cover Photo: the records of
 * all items are read together for fresh signed links (⌈unique/200⌉ requests),
 * each file is fetched without the API key into the binary property, and a
 * record without a photo is an item-level error.
 */
import type { IDataObject } from 'n8n-workflow';

import { allPages, errorText, requests, run } from './support';
import { withSandbox } from '../helpers/n8n';

export function photos(): void {
	const sandbox = withSandbox();

	const bytesOf = async (url: unknown) =>
		Buffer.from(await (await fetch(String(url))).arrayBuffer());

	let withPhoto: IDataObject[];
	let withoutPhoto: IDataObject;
	let covered: IDataObject[];
	let uncovered: IDataObject;
	beforeAll(async () => {
		const contacts = (await allPages(sandbox, '/v1/contacts')).records;
		withPhoto = contacts.filter((c) => c.photo_url).slice(0, 3);
		withoutPhoto = contacts.find((c) => !c.photo_url) as IDataObject;
		const inspections = (await allPages(sandbox, '/v1/inspections')).records;
		covered = inspections.filter((i) => i.cover_photo_url).slice(0, 2);
		uncovered = inspections.find((i) => !i.cover_photo_url) as IDataObject;
		expect(withPhoto).toHaveLength(3);
		expect(covered).toHaveLength(2);
	});

	describe('Contact → Download Photo', () => {
		test('M items: one read of their records, M downloads without the key, files in the named property', async () => {
			// Four items, one contact twice: 3 unique ids in one request, 4 downloads.
			const ids = [...withPhoto.map((c) => String(c.id)), String(withPhoto[0].id)];
			const { items, error } = await run(
				sandbox,
				{
					resource: 'contact',
					operation: 'downloadPhoto',
					id: '={{ $json.id }}',
					binaryPropertyName: 'photo',
				},
				{ items: ids.map((id) => ({ json: { id } })) },
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.id)).toEqual(ids);
			expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
			for (const [index, item] of items.entries()) {
				const reference = await bytesOf(item.json.photo_url);
				expect(item.binary?.photo.data.equals(reference)).toBe(true);
				expect(item.binary?.photo.mimeType).toMatch(/^image\//);
				expect(item.json.id).toBe(ids[index]);
			}

			const reads = await requests(sandbox, { pathPrefix: '/v1/' });
			expect(reads).toHaveLength(1);
			expect(String(reads[0].query.ids).split(',')).toHaveLength(3);
			const files = (await requests(sandbox, { pathPrefix: '/files/' })).filter(
				(entry) => entry.key === null,
			);
			// 4 by the node, 4 by this test's reference fetches; none carries the key.
			expect(files).toHaveLength(8);
			expect((await requests(sandbox)).filter((e) => e.key !== null)).toHaveLength(1);
		});

		test('a contact without a photo fails its item, naming it; continue-on-fail keeps the others', async () => {
			const ids = [String(withoutPhoto.id), String(withPhoto[0].id)];
			const stopped = await run(
				sandbox,
				{ resource: 'contact', operation: 'downloadPhoto', id: ids[0] },
				{ items: [{ json: {} }] },
			);
			expect(stopped.error?.message).toBe(`Contact ${ids[0]} has no photo`);
			expect(errorText(stopped)).toContain('Nothing was downloaded');
			expect(await requests(sandbox, { pathPrefix: '/files/' })).toHaveLength(0);

			const { items, error } = await run(
				sandbox,
				{ resource: 'contact', operation: 'downloadPhoto', id: '={{ $json.id }}' },
				{ items: ids.map((id) => ({ json: { id } })), continueOnFail: true },
			);
			expect(error).toBeUndefined();
			expect(items[0].json.error).toBe(`Contact ${ids[0]} has no photo`);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(items[1].binary?.data.data.length).toBeGreaterThan(0);
		});

		test('an unknown contact is an item-level "not found", with nothing downloaded', async () => {
			const unknown = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
			const result = await run(
				sandbox,
				{ resource: 'contact', operation: 'downloadPhoto', id: unknown },
				{ items: [{ json: {} }] },
			);
			expect(result.error?.message).toBe(`Contact ${unknown} not found`);
			expect(await requests(sandbox, { pathPrefix: '/files/' })).toHaveLength(0);
		});

		test('the link is fresh: read in the same step even when the input carries an expired one', async () => {
			const contact = withPhoto[1];
			// Two hours later every link read before has expired (the sandbox's links last one hour).
			await sandbox.control.advanceClock(2 * 60 * 60 * 1000);
			expect((await fetch(String(contact.photo_url))).status).toBe(410);
			const { items, error } = await run(
				sandbox,
				{ resource: 'contact', operation: 'downloadPhoto', id: '={{ $json.id }}' },
				{ items: [{ json: contact }] },
			);
			expect(error).toBeUndefined();
			expect(items[0].json.photo_url).not.toBe(contact.photo_url);
			expect(items[0].binary?.data.data.equals(await bytesOf(items[0].json.photo_url))).toBe(true);
		});
	});

	describe('Inspection → Download Cover Photo', () => {
		test('downloads each cover photo into the binary property, one read for all items', async () => {
			const ids = covered.map((i) => String(i.id));
			const { items, error } = await run(
				sandbox,
				{
					resource: 'inspection',
					operation: 'downloadCoverPhoto',
					id: '={{ $json.id }}',
					binaryPropertyName: 'cover',
				},
				{ items: ids.map((id) => ({ json: { id } })) },
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.id)).toEqual(ids);
			for (const item of items) {
				expect(item.binary?.cover.data.equals(await bytesOf(item.json.cover_photo_url))).toBe(true);
			}
			const reads = await requests(sandbox, { pathPrefix: '/v1/' });
			expect(reads.map((e) => e.path)).toEqual(['/v1/inspections']);
		});

		test('an inspection without a cover photo fails its item, naming it', async () => {
			const result = await run(
				sandbox,
				{ resource: 'inspection', operation: 'downloadCoverPhoto', id: String(uncovered.id) },
				{ items: [{ json: {} }] },
			);
			expect(result.error?.message).toBe(`Inspection ${String(uncovered.id)} has no cover photo`);
		});
	});
}
