/**
 * Local validation: bad input fails with an error naming the field and the
 * reason, and nothing reaches the API (request log count 0). Also the shape of
 * what valid input sends: JSON bodies and multipart uploads (the attachment
 * fields kind, name, description and internal_only, and the file).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { getByIds, paginate } from '../../nodes/shared/transport/pages';
import { apiRequest } from '../../nodes/shared/transport/request';
import { uploadFile, type UploadOptions } from '../../nodes/shared/transport/upload';
import { withSandbox } from '../helpers/n8n';
import { drain, failureOf, inNode } from './context';

export function validation(): void {
	const sandbox = withSandbox();
	const UUID = '7d4c2a8e-59a1-4b7e-9d1f-2f3e4a5b6c7d';
	const MB = 1024 * 1024;

	async function expectRefusedLocally(
		fn: (this: IExecuteFunctions) => Promise<unknown>,
		message: RegExp,
	) {
		const error = await failureOf(sandbox.credentials(), fn);
		expect(error.message).toMatch(message);
		expect(error.description).toBe('Nothing was sent to the API.');
		expect((await sandbox.control.requests()).count).toBe(0);
	}

	describe('query parameters', () => {
		it.each<[string, IDataObject, RegExp]>([
			['limit above 200', { limit: 201 }, /"limit": must be at most 200/],
			['limit not a whole number', { limit: 2.5 }, /"limit": must be a whole number/],
			['an unknown role', { role: 'Plumber' }, /"role": must be one of agent, client, Customer/],
			[
				'a sort field that is not sortable',
				{ sort: 'email' },
				/"sort": must be one of first_name, .* with "-" in front/,
			],
			[
				'a bad updated_since',
				{ updated_since: 'yesterday' },
				/"updated_since": "yesterday" is not an ISO 8601 date/,
			],
			['an impossible date', { updated_since: '2024-02-30' }, /"updated_since"/],
			['a tag_id that is not a UUID', { tag_id: 'vip' }, /"tag_id": "vip" is not an ID/],
			['an id that is not a UUID', { ids: `${UUID},42` }, /"ids": "42" is not an ID/],
			[
				'201 ids',
				{ ids: Array.from({ length: 201 }, () => UUID).join(',') },
				/"ids": at most 200 IDs per request, got 201/,
			],
			[
				'an unknown parameter',
				{ colour: 'red' },
				/"colour": not a parameter of GET \/v1\/contacts/,
			],
		])('%s', async (_name, query, message) => {
			await expectRefusedLocally(async function () {
				return await apiRequest.call(this, 'listContacts', { query });
			}, message);
		});

		it('a boolean filter must be true or false (inspections)', async () => {
			await expectRefusedLocally(async function () {
				return await drain(
					paginate.call(this, 'listInspections', { query: { include_deleted: 'yes' } }),
				);
			}, /"include_deleted": must be true or false/);
		});

		it('a Limit below 1 is refused before any request', async () => {
			await expectRefusedLocally(async function () {
				return await drain(paginate.call(this, 'listTags', { max: 0 }));
			}, /"Limit": must be a whole number of at least 1/);
		});

		it('getByIds checks every id before the first batch', async () => {
			const ids = [...Array.from({ length: 300 }, () => UUID), 'not-an-id'];
			await expectRefusedLocally(async function () {
				return await getByIds.call(this, 'listContacts', ids);
			}, /"ids": "not-an-id" is not an ID/);
		});

		it('a path id that is not a UUID', async () => {
			await expectRefusedLocally(async function () {
				return await apiRequest.call(this, 'deleteContactPhoto', {
					pathParams: { contact_id: '12' },
				});
			}, /"contact_id": "12" is not an ID/);
		});
	});

	describe('JSON bodies', () => {
		const create = (body: IDataObject) =>
			async function (this: IExecuteFunctions) {
				return await apiRequest.call(this, 'createContact', { body });
			};
		it.each<[string, IDataObject, RegExp]>([
			['a missing required field', { first_name: 'Ann' }, /"email": is required/],
			[
				'an unknown field',
				{ first_name: 'Ann', email: 'a@b.co', nickname: 'A' },
				/"nickname": not a field of ContactCreate/,
			],
			[
				'a bad email',
				{ first_name: 'Ann', email: 'ann-at-example' },
				/"email": "ann-at-example" is not an email address/,
			],
			[
				'11 CC addresses',
				{
					first_name: 'A',
					email: 'a@b.co',
					cc_email: Array.from({ length: 11 }, (_, i) => `c${i}@b.co`).join(','),
				},
				/"cc_email": at most 10 addresses, got 11/,
			],
			[
				'a bad CC address',
				{ first_name: 'A', email: 'a@b.co', cc_email: 'x@y.co, nope' },
				/"cc_email": "nope" is not an email address/,
			],
			[
				'a country that is not ISO-2',
				{ first_name: 'A', email: 'a@b.co', country: 'USA' },
				/"country": "USA" is not an ISO 3166 alpha-2/,
			],
			[
				'a birthday that is not a date',
				{ first_name: 'A', email: 'a@b.co', birthday: '1990-13-01' },
				/"birthday": "1990-13-01" is not a date/,
			],
			[
				'an agency_id that is not a UUID',
				{ first_name: 'A', email: 'a@b.co', agency_id: 'acme' },
				/"agency_id": "acme" is not an ID/,
			],
			[
				'tag_ids that are not UUIDs',
				{ first_name: 'A', email: 'a@b.co', tag_ids: ['vip'] },
				/"tag_ids": "vip" is not an ID/,
			],
			[
				'tags together with tag_ids',
				{ first_name: 'A', email: 'a@b.co', tags: ['VIP'], tag_ids: [UUID] },
				/"tags": send either "tags" or "tag_ids", not both/,
			],
			[
				'null for a field that is not nullable',
				{ first_name: null, email: 'a@b.co' },
				/"first_name": cannot be empty/,
			],
		])('%s', async (_name, body, message) => {
			await expectRefusedLocally(create(body), message);
		});

		it('tags together with tag_ids on an update too', async () => {
			await expectRefusedLocally(async function () {
				return await apiRequest.call(this, 'updateContact', {
					pathParams: { contact_id: UUID },
					body: { tags: [], tag_ids: [] },
				});
			}, /send either "tags" or "tag_ids", not both/);
		});

		it('valid input is sent as JSON, null kept', async () => {
			const created = await inNode(
				sandbox.credentials(),
				create({
					first_name: 'Valid',
					email: 'valid@example.com',
					country: 'CA',
					phone: null,
					tags: [],
				}),
			);
			expect(created).toMatchObject({ first_name: 'Valid', country: 'CA', phone: null, tags: [] });
		});
	});

	describe('uploads', () => {
		const upload = (
			endpoint: 'uploadContactPhoto' | 'uploadAttachment',
			options: Partial<UploadOptions> & Pick<UploadOptions, 'rule'>,
		) =>
			async function (this: IExecuteFunctions) {
				return await uploadFile.call(this, endpoint, {
					pathParams:
						endpoint === 'uploadContactPhoto' ? { contact_id: UUID } : { inspection_id: UUID },
					fields: {},
					...options,
				});
			};
		const file = (fileName: string, mimeType: string, bytes = 10) => ({
			data: Buffer.alloc(bytes, 1),
			fileName,
			mimeType,
		});

		it.each<[string, ReturnType<typeof upload>, RegExp]>([
			[
				'a photo of a disallowed type',
				upload('uploadContactPhoto', { rule: 'photo', file: file('me.bmp', 'image/bmp') }),
				/a photo must be one of jpg, jpeg, png, gif, webp; "me.bmp" is not/,
			],
			[
				'a photo whose type does not match its extension',
				upload('uploadContactPhoto', { rule: 'photo', file: file('me.jpg', 'image/png') }),
				/"image\/png" does not match ".jpg"/,
			],
			[
				'a photo over 10 MB',
				upload('uploadContactPhoto', {
					rule: 'photo',
					file: file('me.png', 'image/png', 10 * MB + 1),
				}),
				/a photo may be at most 10 MB/,
			],
			[
				'a photo without a file',
				upload('uploadContactPhoto', { rule: 'photo' }),
				/"file": a photo upload needs a file/,
			],
			[
				'a document without a file',
				upload('uploadAttachment', { rule: 'document' }),
				/"file": a document upload needs a file/,
			],
			[
				'a document over 10 MB',
				upload('uploadAttachment', {
					rule: 'document',
					file: file('a.csv', 'text/csv', 10 * MB + 1),
				}),
				/a document may be at most 10 MB/,
			],
			[
				'a report over 25 MB',
				upload('uploadAttachment', {
					rule: 'report',
					fields: { name: 'R' },
					file: file('r.pdf', 'application/pdf', 25 * MB + 1),
				}),
				/a report may be at most 25 MB/,
			],
			[
				'a report without a name',
				upload('uploadAttachment', { rule: 'report', file: file('r.pdf', 'application/pdf') }),
				/"name": a report needs a name/,
			],
			[
				'a report that is a txt',
				upload('uploadAttachment', {
					rule: 'report',
					fields: { name: 'R' },
					file: file('r.txt', 'text/plain'),
				}),
				/a report must be one of pdf, doc/,
			],
			[
				'internal_only on a report',
				upload('uploadAttachment', {
					rule: 'report',
					fields: { name: 'R', internal_only: 'true' },
				}),
				/"internal_only": only documents/,
			],
			[
				'internal_only that is not true/false',
				upload('uploadAttachment', {
					rule: 'document',
					fields: { internal_only: 'yes' },
					file: file('a.txt', 'text/plain'),
				}),
				/"internal_only": must be "true" or "false"/,
			],
			[
				'an unknown multipart field',
				upload('uploadAttachment', {
					rule: 'document',
					fields: { title: 'x' },
					file: file('a.txt', 'text/plain'),
				}),
				/"title": not a field of AttachmentUpload/,
			],
			[
				'a kind that contradicts the rule',
				upload('uploadAttachment', {
					rule: 'document',
					fields: { kind: 'report' },
					file: file('a.txt', 'text/plain'),
				}),
				/"kind": "report" does not match the document upload/,
			],
		])('%s', async (_name, fn, message) => {
			await expectRefusedLocally(fn, message);
		});

		it('sends multipart with a boundary, never as JSON: the sandbox reads every part', async () => {
			// The sandbox answers 400 to a body that is not multipart/form-data, and busboy cannot
			// split one without its boundary, so a 201 with the parts logged shows both.
			const inspections = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listInspections', { query: { limit: 1 } });
			});
			const inspectionId = String((inspections.data as IDataObject[])[0].id);
			await sandbox.control.clearRequests();
			await inNode(
				sandbox.credentials(),
				upload('uploadAttachment', {
					pathParams: { inspection_id: inspectionId },
					rule: 'document',
					fields: { internal_only: 'true', description: 'Inspector notes' },
					file: file('notes v2.txt', 'text/plain; charset=utf-8'),
				}),
			);
			const [document] = (await sandbox.control.requests({ method: 'POST' })).data;
			expect(document.status).toBe(201);
			expect(document.form?.files).toEqual([
				expect.objectContaining({
					field: 'file',
					filename: 'notes v2.txt',
					contentType: 'text/plain',
				}),
			]);
			const contacts = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listContacts', { query: { limit: 1 } });
			});
			const contactId = String((contacts.data as IDataObject[])[0].id);
			await sandbox.control.clearRequests();
			await inNode(sandbox.credentials(), async function () {
				return await uploadFile.call(this, 'uploadContactPhoto', {
					pathParams: { contact_id: contactId },
					fields: {},
					file: {
						data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary'),
						fileName: 'me.gif',
						mimeType: 'image/gif',
					},
					rule: 'photo',
				});
			});
			const [posted] = (await sandbox.control.requests({ method: 'POST' })).data;
			expect(posted.form).toEqual({
				fields: {},
				files: [
					expect.objectContaining({ field: 'file', filename: 'me.gif', contentType: 'image/gif' }),
				],
			});
		});

		it('sends kind, name, description and internal_only as strings', async () => {
			const inspections = await inNode(sandbox.credentials(), async function () {
				return await apiRequest.call(this, 'listInspections', { query: { limit: 1 } });
			});
			const inspectionId = String((inspections.data as IDataObject[])[0].id);
			await sandbox.control.clearRequests();
			await inNode(
				sandbox.credentials(),
				upload('uploadAttachment', {
					pathParams: { inspection_id: inspectionId },
					rule: 'document',
					fields: { internal_only: 'true', description: 'Private', name: 'Notes' },
					file: file('notes.csv', 'text/csv'),
				}),
			);
			const [posted] = (await sandbox.control.requests({ method: 'POST' })).data;
			expect(posted.form?.fields).toEqual({
				kind: 'document',
				internal_only: 'true',
				description: 'Private',
				name: 'Notes',
			});
			expect(posted.form?.files).toEqual([
				expect.objectContaining({ field: 'file', filename: 'notes.csv', contentType: 'text/csv' }),
			]);
		});
	});
}
