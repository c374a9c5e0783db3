/**
 * n8n's Retry On Fail and a re-run of a failed execution send a whole write
 * again. Skip Duplicates: each report upload emails the client, so with the
 * option on (the default for reports) the node lists the inspection's reports
 * first and outputs the one already there instead of uploading it twice.
 * Contact Create has no such check; its error says how to re-run safely.
 */
import type { IDataObject } from 'n8n-workflow';

import { sanitizeFilename } from '../../nodes/shared/filenames';
import { SAMPLE_FILES } from '../../sandbox/samples';
import type { TestItem } from '../helpers/n8n';
import { withSandbox } from '../helpers/n8n';
import { allPages, errorText, requests, run } from './support';

export function retrySafety(): void {
	const sandbox = withSandbox({}, { reset: true });

	const pdf = (fileName: string, data: Buffer = SAMPLE_FILES.pdf): TestItem[] => [
		{ json: {}, binary: { data: { data, fileName, mimeType: 'application/pdf' } } },
	];

	let inspectionId: string;
	beforeAll(async () => {
		const inspections = (await allPages(sandbox, '/v1/inspections')).records;
		inspectionId = String(inspections.find((i) => i.status === 'confirmed')?.id);
	});

	const upload = (parameters: IDataObject, items?: TestItem[]) =>
		run(
			sandbox,
			{
				resource: 'attachment',
				operation: 'upload',
				inspection_id: inspectionId,
				kind: 'report',
				name: 'Radon Report',
				...parameters,
			},
			{ items },
		);
	const attachments = async (kind: string) =>
		(await allPages(sandbox, `/v1/inspections/${inspectionId}/attachments`, { kind })).records;
	const emailsOf = async (attachmentIds: unknown[]) =>
		(await sandbox.control.emails()).data.filter(
			(email) =>
				email.inspection_id === inspectionId && attachmentIds.includes(email.attachment_id),
		);

	describe('reports (Skip Duplicates on by default)', () => {
		test('the same report again is not uploaded: the one there is output, marked skipped', async () => {
			const first = await upload({}, pdf('Radon report.pdf'));
			expect(first.error).toBeUndefined();
			await sandbox.control.clearRequests();

			const again = await upload({}, pdf('Radon report.pdf'));
			expect(again.error).toBeUndefined();
			expect(again.items).toEqual([
				{
					// The signed url is fresh in each answer; the rest is the stored report.
					json: {
						...first.items[0].json,
						url: expect.any(String),
						skipped: true,
						reason: 'duplicate',
					},
					pairedItem: { item: 0 },
				},
			]);
			// One request: the list of the inspection's reports; no upload.
			expect((await requests(sandbox)).map((e) => [e.method, e.path, e.query.kind])).toEqual([
				['GET', `/v1/inspections/${inspectionId}/attachments`, 'report'],
			]);
			const reports = await attachments('report');
			expect(reports.filter((r) => r.filename === 'Radon_report.pdf')).toHaveLength(1);
			expect(await emailsOf([first.items[0].json.id])).toHaveLength(1);
		});

		test('a retry after a reset that applied the upload outputs the report, and the client got one email', async () => {
			await sandbox.control.queueFaults({
				kind: 'reset',
				method: 'POST',
				path: `/v1/inspections/${inspectionId}/attachments`,
			});
			const failed = await upload({}, pdf('inspection.pdf'));
			expect(errorText(failed)).toMatch(/report upload may have been received/);
			// What n8n's Retry On Fail does: the same node, the same input, once more.
			const retried = await upload({}, pdf('inspection.pdf'));
			expect(retried.error).toBeUndefined();
			expect(retried.items[0].json).toMatchObject({
				filename: 'inspection.pdf',
				skipped: true,
				reason: 'duplicate',
			});
			const reports = (await attachments('report')).filter((r) => r.filename === 'inspection.pdf');
			expect(reports).toHaveLength(1);
			expect(await emailsOf([reports[0].id])).toHaveLength(1);
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});

		test('with Skip Duplicates off the same report is uploaded again, with no list request', async () => {
			await upload({ skipDuplicates: false }, pdf('twice.pdf'));
			await upload({ skipDuplicates: false }, pdf('twice.pdf'));
			expect((await requests(sandbox)).map((e) => e.method)).toEqual(['POST', 'POST']);
			expect((await attachments('report')).filter((r) => r.filename === 'twice.pdf')).toHaveLength(
				2,
			);
		});

		test('the same file name with another size is another report', async () => {
			await upload({}, pdf('final.pdf'));
			const other = Buffer.concat([SAMPLE_FILES.pdf, Buffer.from('\n% revised\n')]);
			const second = await upload({}, pdf('final.pdf', other));
			expect(second.items[0].json.skipped).toBeUndefined();
			expect((await attachments('report')).filter((r) => r.filename === 'final.pdf')).toHaveLength(
				2,
			);
		});

		test('a document with the same file and size is not a duplicate of a report', async () => {
			await upload({ kind: 'document' }, pdf('shared.pdf'));
			const report = await upload({}, pdf('shared.pdf'));
			expect(report.items[0].json).toMatchObject({ kind: 'report', filename: 'shared.pdf' });
			expect(report.items[0].json.skipped).toBeUndefined();
		});

		test('a report without a file is the same when its name and description are', async () => {
			const link = { sendFile: false, name: 'Sewer scope', description: 'https://example.com/s' };
			const first = await upload(link);
			const same = await upload({ ...link, name: '  Sewer scope ' });
			expect(same.items[0].json).toMatchObject({
				id: first.items[0].json.id,
				skipped: true,
			});
			const changed = await upload({ ...link, description: 'https://example.com/s2' });
			expect(changed.items[0].json.skipped).toBeUndefined();
			expect((await attachments('report')).filter((r) => r.name === 'Sewer scope')).toHaveLength(2);
		});

		test('a duplicate within one run: the second item outputs what the first uploaded', async () => {
			const { items } = await upload({}, [...pdf('batch.pdf'), ...pdf('batch.pdf')]);
			expect(items.map((item) => [item.json.id, item.json.skipped, item.pairedItem])).toEqual([
				[items[0].json.id, undefined, { item: 0 }],
				[items[0].json.id, true, { item: 1 }],
			]);
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});

		test('a file the server would refuse costs no request, not even the list', async () => {
			const result = await upload({}, [
				{
					json: {},
					binary: { data: { data: SAMPLE_FILES.txt, fileName: 'a.txt', mimeType: 'text/plain' } },
				},
			]);
			expect(result.error?.message).toMatch(/report must be one of/);
			expect(await requests(sandbox)).toHaveLength(0);
		});
	});

	describe('documents (Skip Duplicates off by default)', () => {
		test('the same document twice is uploaded twice unless Skip Duplicates is on', async () => {
			await upload({ kind: 'document' }, pdf('plan.pdf'));
			await upload({ kind: 'document' }, pdf('plan.pdf'));
			const skipped = await upload({ kind: 'document', skipDuplicates: true }, pdf('plan.pdf'));
			expect(skipped.items[0].json).toMatchObject({ kind: 'document', skipped: true });
			expect((await requests(sandbox)).map((e) => [e.method, e.query.kind])).toEqual([
				['POST', undefined],
				['POST', undefined],
				['GET', 'document'],
			]);
			expect((await attachments('document')).filter((d) => d.filename === 'plan.pdf')).toHaveLength(
				2,
			);
		});
	});

	describe('the server file name rule (storedFileNames), shared by node and sandbox', () => {
		test.each([
			['Radon report.pdf', 'Radon_report.pdf'],
			['Rapport d’été (final).pdf', 'Rapport_dete_final.pdf'],
			['C:\\scans\\roof.jpg', 'roof.jpg'],
			['reports/2024/roof.pdf', 'roof.pdf'],
			['.hidden', 'hidden'],
			['***.pdf', 'file.pdf'],
		])('%s is stored as %s', (name, stored) => {
			expect(sanitizeFilename(name)).toBe(stored);
		});

		test('the node predicts the name the server stores', async () => {
			const name = 'Ünïcode & spaces (v2).pdf';
			const { items } = await upload({ skipDuplicates: false }, pdf(name));
			expect(items[0].json.filename).toBe(sanitizeFilename(name));
		});
	});

	describe('Contact Create when the answer is lost', () => {
		test('the error says to look the contact up by email and names Create or Update as retry-safe', async () => {
			await sandbox.control.queueFaults({ kind: 'reset', method: 'POST', path: '/v1/contacts' });
			const result = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Retry',
				email: 'retry.safe@example.com',
			});
			expect(result.error?.message).toMatch(/may have been applied/);
			expect(result.error?.description).toMatch(
				/a re-run would create a second one\. Look it up by email .*Create or Update .*safe to retry/,
			);
			expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
		});
	});
}
