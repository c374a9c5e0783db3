/**
 * Uploads from n8n binary input: the contact photo, additional reports and
 * documents. Type and size are checked before anything is sent; the server's
 * own refusals (not a real image, a report on an unconfirmed inspection) are
 * shown clearly.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../nodes/shared/endpoints';
import { SAMPLE_FILES } from '../../sandbox/samples';
import type { TestItem } from '../helpers/n8n';
import { withSandbox } from '../helpers/n8n';
import { allPages, api, errorText, requests, run } from './support';

export function uploads(): void {
	const sandbox = withSandbox({}, { reset: true });

	const withFile = (
		data: Buffer,
		fileName: string,
		mimeType: string,
		property = 'data',
	): TestItem[] => [{ json: {}, binary: { [property]: { data, fileName, mimeType } } }];
	/** Bytes that start like a JPEG, `size` long. */
	const jpegOfSize = (size: number) =>
		Buffer.concat([SAMPLE_FILES.jpg, Buffer.alloc(size - SAMPLE_FILES.jpg.length)]);

	let contactId: string;
	let confirmedId: string;
	let unconfirmed: IDataObject;
	beforeAll(async () => {
		contactId = String(
			(await api<{ data: IDataObject[] }>(sandbox, '/v1/contacts', { limit: '1' })).data[0].id,
		);
		const inspections = (await allPages(sandbox, '/v1/inspections')).records;
		confirmedId = String(inspections.find((i) => i.status === 'confirmed')?.id);
		unconfirmed = inspections.find(
			(i) => i.status !== 'confirmed' && i.status !== 'canceled',
		) as IDataObject;
	});

	describe('contact photo', () => {
		const upload = (items: TestItem[], extra: IDataObject = {}) =>
			run(
				sandbox,
				{ resource: 'contact', operation: 'uploadPhoto', contact_id: contactId, ...extra },
				{ items },
			);

		test('a jpg from the binary property is sent as multipart `file`, with its name and type', async () => {
			const { items, error } = await upload(
				withFile(SAMPLE_FILES.jpg, 'portrait.jpg', 'image/jpeg'),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ id: contactId });
			expect(items[0].json.photo_url).toEqual(expect.stringContaining('/files/'));
			const [entry] = await requests(sandbox, { method: 'POST' });
			expect(entry.form?.files).toEqual([
				{
					field: 'file',
					filename: 'portrait.jpg',
					contentType: 'image/jpeg',
					size: SAMPLE_FILES.jpg.length,
				},
			]);
		});

		test('the binary property name is configurable', async () => {
			const { items } = await upload(withFile(SAMPLE_FILES.png, 'p.png', 'image/png', 'photo'), {
				binaryPropertyName: 'photo',
			});
			expect(items[0].json.photo_url).toBeTruthy();
		});

		test.each([
			['another type', SAMPLE_FILES.txt, 'notes.txt', 'text/plain', /photo must be one of/],
			[
				'a type that does not match the extension',
				SAMPLE_FILES.jpg,
				'portrait.jpg',
				'image/png',
				/does not match/,
			],
			[
				'a file over 10 MB',
				jpegOfSize(LIMITS.photoMaxBytes + 1),
				'big.jpg',
				'image/jpeg',
				/at most 10 MB/,
			],
		])(
			'%s is refused locally, naming the file field, with no request',
			async (_case, data, fileName, mimeType, reason) => {
				const result = await upload(withFile(data, fileName, mimeType));
				expect(result.error?.message).toContain('"file"');
				expect(result.error?.message).toMatch(reason);
				expect(await requests(sandbox)).toHaveLength(0);
			},
		);

		test('the refusal is item-level: with continue-on-fail the next item is still uploaded', async () => {
			const { items } = await run(
				sandbox,
				{ resource: 'contact', operation: 'uploadPhoto', contact_id: contactId },
				{
					items: [
						...withFile(SAMPLE_FILES.txt, 'notes.txt', 'text/plain'),
						...withFile(SAMPLE_FILES.webp, 'p.webp', 'image/webp'),
					],
					continueOnFail: true,
				},
			);
			expect(items[0]).toMatchObject({
				json: { error: expect.stringContaining('"file"') },
				pairedItem: { item: 0 },
			});
			expect(items[1]).toMatchObject({ json: { id: contactId }, pairedItem: { item: 1 } });
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});

		test("a .jpg that is no image is the server's 400, shown", async () => {
			const result = await upload(
				withFile(Buffer.from('not really a picture'), 'fake.jpg', 'image/jpeg'),
			);
			expect(result.error?.message).toContain('400');
			expect(await requests(sandbox)).toHaveLength(1);
		});

		test('a missing binary property is an item error naming it and the ones there, with no request', async () => {
			const { items } = await run(
				sandbox,
				{ resource: 'contact', operation: 'uploadPhoto', contact_id: contactId },
				{
					items: [{ json: {} }, ...withFile(SAMPLE_FILES.jpg, 'p.jpg', 'image/jpeg', 'photo')],
					continueOnFail: true,
				},
			);
			expect(items).toEqual([
				{
					json: {
						error: 'Input Binary Field "data": the item has no binary data named "data"',
						description: expect.stringMatching(
							/^The item has no binary data at all\..*Nothing was sent/,
						),
					},
					pairedItem: { item: 0 },
				},
				{
					json: {
						error: 'Input Binary Field "data": the item has no binary data named "data"',
						description: expect.stringMatching(/^Its binary fields are: photo\./),
					},
					pairedItem: { item: 1 },
				},
			]);
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('a .jpg typed application/octet-stream is sent as image/jpeg', async () => {
			const { error } = await upload(
				withFile(SAMPLE_FILES.jpg, 'scan.jpg', 'application/octet-stream'),
			);
			expect(error).toBeUndefined();
			const [entry] = await requests(sandbox, { method: 'POST' });
			expect(entry.form?.files[0]).toMatchObject({
				filename: 'scan.jpg',
				contentType: 'image/jpeg',
			});
		});

		test('Delete Photo clears photo_url, and deleting again is fine', async () => {
			await upload(withFile(SAMPLE_FILES.gif, 'p.gif', 'image/gif'));
			const first = await run(sandbox, {
				resource: 'contact',
				operation: 'deletePhoto',
				contact_id: contactId,
			});
			expect(first.items[0].json).toMatchObject({ id: contactId, photo_url: null });
			const again = await run(sandbox, {
				resource: 'contact',
				operation: 'deletePhoto',
				contact_id: contactId,
			});
			expect(again.error).toBeUndefined();
			expect(again.items[0].json.photo_url).toBeNull();
		});
	});

	describe('attachments', () => {
		const upload = (parameters: IDataObject, items?: TestItem[]) =>
			run(sandbox, { resource: 'attachment', operation: 'upload', ...parameters }, { items });

		test('a report with a file on a confirmed inspection', async () => {
			const { items, error } = await upload(
				{
					inspection_id: confirmedId,
					kind: 'report',
					name: 'Radon Report',
					description: 'See https://example.com/radon',
				},
				withFile(SAMPLE_FILES.pdf, 'radon.pdf', 'application/pdf'),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				inspection_id: confirmedId,
				kind: 'report',
				name: 'Radon Report',
				visible_to_client: true,
			});
			const [entry] = await requests(sandbox, { method: 'POST' });
			expect(entry.form?.fields).toEqual({
				kind: 'report',
				name: 'Radon Report',
				description: 'See https://example.com/radon',
			});
			expect(entry.form?.files.map((f) => f.filename)).toEqual(['radon.pdf']);
		});

		test('a report without a file (Send File off) is only its name and description', async () => {
			const { items } = await upload({
				inspection_id: confirmedId,
				kind: 'report',
				name: 'Link only',
				description: 'https://example.com/r',
				sendFile: false,
			});
			expect(items[0].json).toMatchObject({ kind: 'report', name: 'Link only', url: null });
			const [entry] = await requests(sandbox, { method: 'POST' });
			expect(entry.form?.files).toEqual([]);
		});

		test("a report on an inspection that is not confirmed is the server's 400, shown clearly", async () => {
			const result = await upload(
				{ inspection_id: String(unconfirmed.id), kind: 'report', name: 'Too early' },
				withFile(SAMPLE_FILES.pdf, 'early.pdf', 'application/pdf'),
			);
			expect(result.error?.message).toContain('400');
			expect(result.error?.message).toContain('confirmed');
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});

		test('a report needs a name, checked before sending', async () => {
			const result = await upload({
				inspection_id: confirmedId,
				kind: 'report',
				name: '',
				sendFile: false,
			});
			expect(result.error?.message).toContain('"name"');
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('a document marked internal only is inspector-only, on any inspection', async () => {
			const { items } = await upload(
				{ inspection_id: String(unconfirmed.id), kind: 'document', internal_only: true },
				withFile(SAMPLE_FILES.txt, 'notes.txt', 'text/plain'),
			);
			expect(items[0].json).toMatchObject({ kind: 'document', visible_to_client: false });
			const [entry] = await requests(sandbox, { method: 'POST' });
			expect(entry.form?.fields).toEqual({ kind: 'document', internal_only: 'true' });
		});

		test('a document is visible to the client by default', async () => {
			const { items } = await upload(
				{ inspection_id: confirmedId, kind: 'document' },
				withFile(SAMPLE_FILES.csv, 'items.csv', 'text/csv'),
			);
			expect(items[0].json).toMatchObject({ kind: 'document', visible_to_client: true });
		});

		test.each([
			[
				'a report of a type only documents take',
				'report',
				SAMPLE_FILES.txt,
				'notes.txt',
				'text/plain',
				/report must be one of/,
			],
			[
				'a document over 10 MB',
				'document',
				Buffer.alloc(LIMITS.documentMaxBytes + 1),
				'big.pdf',
				'application/pdf',
				/at most 10 MB/,
			],
			[
				'a report over 25 MB',
				'report',
				Buffer.alloc(LIMITS.reportMaxBytes + 1),
				'big.pdf',
				'application/pdf',
				/at most 25 MB/,
			],
		])(
			'%s is refused locally with no request',
			async (_case, kind, data, fileName, mimeType, reason) => {
				const result = await upload(
					{ inspection_id: confirmedId, kind, name: 'X' },
					withFile(data, fileName, mimeType),
				);
				expect(result.error?.message).toMatch(reason);
				expect(await requests(sandbox)).toHaveLength(0);
			},
		);

		test('a document without a binary is an item error naming the field, with no request', async () => {
			const result = await upload({ inspection_id: confirmedId, kind: 'document' }, [{ json: {} }]);
			expect(result.error?.message).toBe(
				'Input Binary Field "data": the item has no binary data named "data"',
			);
			expect(result.error?.context.itemIndex).toBe(0);
			expect(errorText(result)).toMatch(/Nothing was sent/);
			expect(await requests(sandbox)).toHaveLength(0);
		});

		test('a document from another binary field lists the fields the item has', async () => {
			const result = await upload(
				{ inspection_id: confirmedId, kind: 'document', binaryPropertyName: 'attachment' },
				[
					{
						json: {},
						binary: {
							data: { data: SAMPLE_FILES.pdf, fileName: 'a.pdf', mimeType: 'application/pdf' },
							scan: { data: SAMPLE_FILES.jpg, fileName: 'b.jpg', mimeType: 'image/jpeg' },
						},
					},
				],
			);
			expect(result.error?.message).toContain('"attachment"');
			expect(result.error?.description).toMatch(/^Its binary fields are: data, scan\./);
			expect(await requests(sandbox)).toHaveLength(0);
		});

		describe('a binary typed application/octet-stream', () => {
			test('a .pdf report is sent as application/pdf', async () => {
				const { items, error } = await upload(
					{ inspection_id: confirmedId, kind: 'report', name: 'Octet' },
					withFile(SAMPLE_FILES.pdf, 'octet.PDF', 'application/octet-stream'),
				);
				expect(error).toBeUndefined();
				expect(items[0].json).toMatchObject({ content_type: 'application/pdf' });
				const [entry] = await requests(sandbox, { method: 'POST' });
				expect(entry.form?.files[0]).toMatchObject({ contentType: 'application/pdf' });
			});

			test('a .csv document is sent as text/csv', async () => {
				const { items } = await upload(
					{ inspection_id: confirmedId, kind: 'document' },
					withFile(SAMPLE_FILES.csv, 'items.csv', 'application/octet-stream'),
				);
				expect(items[0].json).toMatchObject({ content_type: 'text/csv' });
			});

			test('an extension the kind does not take is still refused, with no request', async () => {
				const result = await upload(
					{ inspection_id: confirmedId, kind: 'report', name: 'X' },
					withFile(SAMPLE_FILES.csv, 'items.csv', 'application/octet-stream'),
				);
				expect(result.error?.message).toMatch(/report must be one of/);
				expect(await requests(sandbox)).toHaveLength(0);
			});

			test('the Content Type option overrides the type, and is checked against the extension', async () => {
				const overridden = await upload(
					{
						inspection_id: confirmedId,
						kind: 'document',
						uploadOptions: { contentType: 'text/plain' },
					},
					withFile(SAMPLE_FILES.txt, 'notes.txt', 'text/csv'),
				);
				expect(overridden.items[0].json).toMatchObject({ content_type: 'text/plain' });
				const mismatch = await upload(
					{
						inspection_id: confirmedId,
						kind: 'document',
						uploadOptions: { contentType: 'image/png' },
					},
					withFile(SAMPLE_FILES.pdf, 'a.pdf', 'application/octet-stream'),
				);
				expect(mismatch.error?.message).toMatch(/"image\/png" does not match "\.pdf"/);
				expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
			});
		});
	});
}
