/**
 * Attachment Download: a fresh signed link from the inspection's list, the
 * file into a binary property, the attachment record as JSON, and never the
 * API key on the signed-link host.
 */
import type { IDataObject } from 'n8n-workflow';

import { withSandbox } from '../helpers/n8n';
import { api, requests, run } from './support';

export function download(): void {
	const sandbox = withSandbox();

	let attachment: IDataObject;
	let bytes: Buffer;
	beforeAll(async () => {
		const page = await api<{ data: IDataObject[] }>(sandbox, '/v1/attachments', { limit: '200' });
		attachment = page.data.find((a) => a.url) as IDataObject;
		// The file's bytes, fetched without any key, as the reference.
		bytes = Buffer.from(await (await fetch(String(attachment.url))).arrayBuffer());
	});

	test('downloads the file into the binary property, the record as JSON, without the key', async () => {
		const { items, error } = await run(sandbox, {
			resource: 'attachment',
			operation: 'download',
			inspection_id: String(attachment.inspection_id),
			attachment_id: String(attachment.id),
			binaryPropertyName: 'report',
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: attachment.id,
			inspection_id: attachment.inspection_id,
			filename: attachment.filename,
		});
		expect(items[0].binary?.report.data.equals(bytes)).toBe(true);
		expect(items[0].binary?.report).toMatchObject({
			mimeType: attachment.content_type,
			fileName: attachment.filename,
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });

		const log = await requests(sandbox);
		expect(log.map((entry) => entry.path.split('/')[1])).toEqual(['v1', 'files']);
		const files = await requests(sandbox, { pathPrefix: '/files/' });
		expect(files).toHaveLength(1);
		expect(files[0].key).toBeNull();
		expect(files[0].status).toBe(200);
	});

	test('several items of one inspection share one listing', async () => {
		const items = [0, 1].map(() => ({
			json: { inspection: attachment.inspection_id, id: attachment.id },
		}));
		const result = await run(
			sandbox,
			{
				resource: 'attachment',
				operation: 'download',
				inspection_id: '={{ $json.inspection }}',
				attachment_id: '={{ $json.id }}',
			},
			{ items },
		);
		expect(result.items).toHaveLength(2);
		expect(await requests(sandbox, { pathPrefix: '/v1/' })).toHaveLength(1);
		expect(await requests(sandbox, { pathPrefix: '/files/' })).toHaveLength(2);
	});

	test('URL mode downloads a signed link given by expression, keeping the input JSON', async () => {
		const { items } = await run(
			sandbox,
			{ resource: 'attachment', operation: 'download', source: 'url', url: '={{ $json.url }}' },
			{ items: [{ json: attachment }] },
		);
		expect(items[0].json).toEqual(attachment);
		expect(items[0].binary?.data.data.equals(bytes)).toBe(true);
		const log = await requests(sandbox);
		expect(log).toHaveLength(1);
		expect(log[0].key).toBeNull();
	});

	test('an attachment ID the inspection does not have is an item error naming both', async () => {
		const result = await run(sandbox, {
			resource: 'attachment',
			operation: 'download',
			inspection_id: String(attachment.inspection_id),
			attachment_id: 'no-such-attachment',
		});
		expect(result.error?.message).toBe(
			`Attachment no-such-attachment not found on inspection ${String(attachment.inspection_id)}`,
		);
		expect(await requests(sandbox, { pathPrefix: '/files/' })).toHaveLength(0);
	});

	test('a report without a file is an item error saying so', async () => {
		const inspections = await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', {
			limit: '200',
		});
		const confirmed = inspections.data.find((i) => i.status === 'confirmed') as IDataObject;
		const report = await run(sandbox, {
			resource: 'attachment',
			operation: 'upload',
			inspection_id: String(confirmed.id),
			kind: 'report',
			name: 'Only a link',
			sendFile: false,
		});
		const result = await run(sandbox, {
			resource: 'attachment',
			operation: 'download',
			inspection_id: String(confirmed.id),
			attachment_id: String(report.items[0].json.id),
		});
		expect(result.error?.message).toBe(
			`Attachment ${String(report.items[0].json.id)} has no file to download`,
		);
	});

	test('an expired link in URL mode is an error with the hint to read the record again', async () => {
		await sandbox.control.advanceClock(2 * 60 * 60 * 1000);
		const result = await run(
			sandbox,
			{ resource: 'attachment', operation: 'download', source: 'url', url: '={{ $json.url }}' },
			{ items: [{ json: attachment }] },
		);
		expect(result.error?.description).toMatch(/fresh link/);
	});

	test('a URL mapped to something that is not text fails the item, naming URL, with no request', async () => {
		await sandbox.control.clearRequests();
		const result = await run(
			sandbox,
			{ resource: 'attachment', operation: 'download', source: 'url', url: '={{ $json.link }}' },
			{ items: [{ json: { link: { href: 'https://example.com/a.pdf' } } }] },
		);
		expect(result.error?.message).toBe('URL: must be a link, got object');
		expect(await requests(sandbox)).toHaveLength(0);
	});
}
