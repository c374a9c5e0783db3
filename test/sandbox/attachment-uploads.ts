/** Attachment uploads: every rule of the spec's report/document table (storedFileNames, attachmentUploadParts), and the automation email per report. */
import { FILE_RULES } from '../../nodes/shared/endpoints';
import { SAMPLE_FILES } from '../../sandbox/samples';
import { expectError, fields, file, ids, type Json, useSandbox } from './support';

export function attachmentUploads(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	const MB = 1024 * 1024;
	let inspections: Json[] = [];
	let confirmed: Json;
	let unconfirmed: Json[];

	beforeAll(async () => {
		inspections = (await api().walk('/v1/inspections?include_canceled=true')).records;
		confirmed = inspections.find((i) => i.status === 'confirmed') as Json;
		unconfirmed = ['draft', 'waiting', 'review', 'canceled'].map(
			(s) => inspections.find((i) => i.status === s) as Json,
		);
	});
	const path = (i: Json) => `/v1/inspections/${i.id}/attachments`;
	const pdf = (
		name = 'Report.pdf',
		extra: Record<string, string> = { kind: 'report', name: 'Radon' },
	) => file(SAMPLE_FILES.pdf, name, 'application/pdf', extra);

	describe('upload rules', () => {
		it('a report with a file: 201 with the Attachment and a signed url; the next id of that inspection', async () => {
			const before = (await api().get(`${path(confirmed)}?limit=200`)).body.data as Json[];
			const res = await api().upload(
				path(confirmed),
				pdf('Final Report.pdf', {
					kind: 'report',
					name: 'Final',
					description: 'See https://x.example',
				}),
			);
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({
				id: String(Math.max(0, ...before.map((a) => Number(a.id))) + 1),
				inspection_id: confirmed.id,
				kind: 'report',
				name: 'Final',
				description: 'See https://x.example',
				filename: 'Final_Report.pdf',
				content_type: 'application/pdf',
				size_bytes: SAMPLE_FILES.pdf.length,
				visible_to_client: true,
			});
			const served = await fetch(res.body.url);
			expect(Buffer.from(await served.arrayBuffer()).equals(SAMPLE_FILES.pdf)).toBe(true);
		});

		it('a report may be only a link: no file, url null', async () => {
			const res = await api().upload(
				path(confirmed),
				fields({ kind: 'report', name: 'Lab results', description: 'https://lab.example/r/1' }),
			);
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({
				url: null,
				filename: null,
				content_type: null,
				size_bytes: null,
			});
		});

		it.each(['draft', 'waiting', 'review', 'canceled'])(
			'refuses a report on a %s inspection with 400',
			async (status) => {
				const target = unconfirmed.find((i) => i.status === status) as Json;
				expectError(await api().upload(path(target), pdf()), 400, 'inspection_id');
				expect(
					(
						await api().upload(
							path(target),
							file(SAMPLE_FILES.pdf, 'doc.pdf', 'application/pdf', { kind: 'document' }),
						)
					).status,
				).toBe(201);
			},
		);

		it('requires kind, a report’s name and a document’s file', async () => {
			expectError(
				await api().upload(path(confirmed), file(SAMPLE_FILES.pdf, 'a.pdf', 'application/pdf')),
				400,
				'kind',
			);
			expectError(await api().upload(path(confirmed), pdf('a.pdf', { kind: 'memo' })), 400, 'kind');
			expectError(
				await api().upload(path(confirmed), pdf('a.pdf', { kind: 'report' })),
				400,
				'name',
			);
			expectError(
				await api().upload(path(confirmed), pdf('a.pdf', { kind: 'report', name: '  ' })),
				400,
				'name',
			);
			expectError(await api().upload(path(confirmed), fields({ kind: 'document' })), 400, 'file');
		});

		it('internal_only is for documents (attachmentUploadParts): true hides the document from the client', async () => {
			expectError(
				await api().upload(
					path(confirmed),
					pdf('a.pdf', { kind: 'report', name: 'R', internal_only: 'false' }),
				),
				400,
				'internal_only',
			);
			expectError(
				await api().upload(
					path(confirmed),
					pdf('a.pdf', { kind: 'document', internal_only: 'yes' }),
				),
				400,
				'internal_only',
			);
			const hidden = (
				await api().upload(
					path(confirmed),
					pdf('notes.pdf', { kind: 'document', internal_only: 'true' }),
				)
			).body;
			expect(hidden).toMatchObject({
				kind: 'document',
				visible_to_client: false,
				name: 'notes.pdf',
			});
			const shown = (
				await api().upload(
					path(confirmed),
					pdf('disclosure.pdf', { kind: 'document', internal_only: 'false', name: 'Disclosure' }),
				)
			).body;
			expect(shown).toMatchObject({ visible_to_client: true, name: 'Disclosure' });
			const listed = (await api().get(`${path(confirmed)}?visible_to_client=false&limit=200`)).body
				.data as Json[];
			expect(ids(listed)).toContain(hidden.id);
			expect(ids(listed)).not.toContain(shown.id);
		});

		it('refuses unknown form fields', async () => {
			expectError(
				await api().upload(path(confirmed), pdf('a.pdf', { kind: 'document', folder: 'x' })),
				400,
				'folder',
			);
		});

		it.each(Object.entries(FILE_RULES.document.types))(
			'takes a .%s document of a matching type',
			async (ext, types) => {
				const res = await api().upload(
					path(confirmed),
					file(Buffer.from('x'), `doc.${ext}`, types[0], { kind: 'document' }),
				);
				expect(res.status).toBe(201);
			},
		);

		it.each(Object.entries(FILE_RULES.report.types))(
			'takes a .%s report of a matching type',
			async (ext, types) => {
				expect(
					(
						await api().upload(
							path(confirmed),
							file(Buffer.from('x'), `r.${ext}`, types[0], { kind: 'report', name: 'R' }),
						)
					).status,
				).toBe(201);
			},
		);

		it('refuses report types outside the report column, and types of neither', async () => {
			for (const [ext, type] of [
				['txt', 'text/plain'],
				['csv', 'text/csv'],
				['webp', 'image/webp'],
				['zip', 'application/zip'],
			]) {
				expectError(
					await api().upload(
						path(confirmed),
						file(Buffer.from('x'), `r.${ext}`, type, { kind: 'report', name: 'R' }),
					),
					400,
					'file',
				);
			}
			expectError(
				await api().upload(
					path(confirmed),
					file(Buffer.from('x'), 'd.exe', 'application/octet-stream', { kind: 'document' }),
				),
				400,
				'file',
			);
		});

		it('refuses a content type that does not match the extension', async () => {
			expectError(
				await api().upload(
					path(confirmed),
					file(SAMPLE_FILES.pdf, 'a.pdf', 'text/plain', { kind: 'document' }),
				),
				400,
				'file',
			);
			expectError(
				await api().upload(
					path(confirmed),
					file(SAMPLE_FILES.png, 'a.jpg', 'image/png', { kind: 'report', name: 'R' }),
				),
				400,
				'file',
			);
		});

		it('sanitizes file names (storedFileNames)', async () => {
			const cases = [
				['My Report (final) #2.pdf', 'My_Report_final_2.pdf'],
				['Résumé été.pdf', 'Resume_ete.pdf'],
				['../../etc/passwd.pdf', 'passwd.pdf'],
				['.hidden report.pdf', 'hidden_report.pdf'],
				['отчёт.pdf', 'file.pdf'],
			];
			for (const [given, stored] of cases) {
				const res = await api().upload(
					path(confirmed),
					file(SAMPLE_FILES.pdf, given, 'application/pdf', { kind: 'document' }),
				);
				expect(res.body.filename).toBe(stored);
				expect(decodeURIComponent(new URL(res.body.url).pathname)).toMatch(
					new RegExp(`/${stored.replace('.', '\\.')}$`),
				);
			}
		});

		it('limits a document to 10 MB and a report to 25 MB (413)', async () => {
			const eleven = Buffer.alloc(10 * MB + 1);
			expectError(
				await api().upload(
					path(confirmed),
					file(eleven, 'd.pdf', 'application/pdf', { kind: 'document' }),
				),
				413,
				'file',
			);
			expect(
				(
					await api().upload(
						path(confirmed),
						file(eleven, 'r.pdf', 'application/pdf', { kind: 'report', name: 'R' }),
					)
				).status,
			).toBe(201);
			const late = new FormData();
			late.append('file', new Blob([eleven], { type: 'application/pdf' }), 'late.pdf');
			late.append('kind', 'document');
			expectError(await api().upload(path(confirmed), late), 413, 'file');
			expectError(
				await api().upload(
					path(confirmed),
					file(Buffer.alloc(25 * MB + 1), 'r.pdf', 'application/pdf', {
						kind: 'report',
						name: 'R',
					}),
				),
				413,
				'file',
			);
		});
	});

	describe('automation emails', () => {
		it('each report upload emails the client and agents once; documents and refused uploads send nothing', async () => {
			const before = (await sandbox.control.emails()).count;
			await api().upload(path(confirmed), pdf());
			await api().upload(path(confirmed), fields({ kind: 'report', name: 'Link only' }));
			await api().upload(path(confirmed), pdf('d.pdf', { kind: 'document' }));
			await api().upload(path(unconfirmed[0]), pdf());
			const after = await sandbox.control.emails();
			expect(after.count).toBe(before + 2);
			const clientEmails = confirmed.contacts
				.filter((c: Json) => c.role === 'Customer')
				.map((c: Json) => c.email);
			expect(after.data.at(-1)).toMatchObject({
				org: 'acme',
				inspection_id: confirmed.id,
				to: expect.arrayContaining(clientEmails),
			});
		});
	});
}
