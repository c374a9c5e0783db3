/**
 * Version 2's resource locators (From List · By ID · By URL, recordLinks) for every
 * picked record, and version 1 workflows, whose id strings keep working.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { nodeDescription } from '../../nodes/InspectionBusiness/actions/nodeDescription';
import { idFromRecordUrl } from '../../nodes/shared/locators';
import { NOT_AN_ID } from '../../nodes/shared/rules/formats';
import { withSandbox } from '../helpers/n8n';
import { allPages, api, errorText, requests, run } from './support';

export function locators(): void {
	const sandbox = withSandbox();

	const rl = (mode: 'list' | 'id' | 'url', value: string) => ({ __rl: true, mode, value });

	let contact: IDataObject;
	let inspection: IDataObject;
	let event: IDataObject;
	let attachment: IDataObject;
	beforeAll(async () => {
		contact = (await api<{ data: IDataObject[] }>(sandbox, '/v1/contacts', { limit: '1' })).data[0];
		inspection = (await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', { limit: '1' }))
			.data[0];
		event = (await api<{ data: IDataObject[] }>(sandbox, '/v1/events', { limit: '1' })).data[0];
		attachment = (await api<{ data: IDataObject[] }>(sandbox, '/v1/attachments', { limit: '1' }))
			.data[0];
	});

	describe('the description', () => {
		const picked = (name: string, resource: string, operation: string) =>
			nodeDescription.properties.filter(
				(p) =>
					p.name === name &&
					(p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
					(p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
			);
		const versionOf = (p: INodeProperties) => JSON.stringify(p.displayOptions?.show?.['@version']);

		test.each([
			['id', 'contact', 'get', 'searchContacts'],
			['contact_id', 'contact', 'update', 'searchContacts'],
			['contact_id', 'contact', 'uploadPhoto', 'searchContacts'],
			['contact_id', 'contact', 'deletePhoto', 'searchContacts'],
			['id', 'contactStats', 'get', 'searchContacts'],
			['id', 'inspection', 'get', 'searchInspections'],
			['id', 'agency', 'get', 'searchAgencies'],
			['id', 'inspectionEvent', 'get', 'searchEvents'],
			['inspection_id', 'attachment', 'getAllForInspection', 'searchInspections'],
			['inspection_id', 'attachment', 'upload', 'searchInspections'],
			['inspection_id', 'attachment', 'download', 'searchInspections'],
			['attachment_id', 'attachment', 'download', 'searchAttachments'],
			['inspection_id', 'attachment', 'get', 'searchInspections'],
			['attachment_id', 'attachment', 'get', 'searchAttachments'],
		])('%s of %s / %s: a string in v1, a locator from v2', (name, resource, operation, search) => {
			const [v1, v2] = picked(name, resource, operation);
			expect(v1.type).toBe('string');
			expect(versionOf(v1)).toBe('[1]');
			expect(v2.type).toBe('resourceLocator');
			expect(versionOf(v2)).toBe('[{"_cnd":{"gte":2}}]');
			expect(v2.modes?.map((m) => m.name)).toEqual(
				name === 'attachment_id' ? ['list', 'id'] : ['list', 'id', 'url'],
			);
			expect(v2.modes?.[0].typeOptions?.searchListMethod).toBe(search);
		});
	});

	describe('By URL (recordLinks)', () => {
		const uuid = '3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a';
		const other = '0d5c2b1e-8d47-4c1a-9e2f-6b5a4d3c2b1a';
		test.each([
			['contact', `https://app.example.com/contacts/${uuid}`, uuid],
			['contact', `https://app.example.com/org/7/contacts/${uuid}/edit?tab=notes#top`, uuid],
			['inspection', `https://portal.inspectionbusiness.example/reports/${uuid}`, uuid],
			['inspection', `https://app.example.com/inspections/${uuid}`, uuid],
			['agency', `http://app.example.com/agencies/${uuid}`, uuid],
			['event', `https://app.example.com/events/${uuid}`, uuid],
			['contact', `https://app.example.com/inspections/${uuid}`, undefined],
			['inspection', `https://app.example.com/reports/not-an-id`, undefined],
			['contact', `app.example.com/contacts/${uuid}`, undefined],
			// A link of a shape the package has not seen is read when it holds exactly one ID.
			['inspection', `https://reports.example.net/view?report=${uuid}&lang=en`, uuid],
			['inspection', `https://portal.example.com/r/${uuid.toUpperCase()}#summary`, uuid],
			['contact', `https://app.example.com/people/${uuid}/profile?copy=${uuid}`, uuid],
			['contact', `https://app.example.com/inspections/${other}/contacts/${uuid}`, uuid],
			['inspection', `https://portal.example.com/r/${uuid}?agent=${other}`, undefined],
			['agency', `https://app.example.com/agencies/x${uuid}0`, undefined],
		] as const)('%s from %s', (kind, url, id) => {
			expect(idFromRecordUrl(kind, url)).toBe(id);
		});

		test("Get takes a contact's link and an inspection's portal_url", async () => {
			const contactLink = `https://app.example.com/contacts/${String(contact.id)}?tab=notes`;
			const byLink = await run(sandbox, {
				resource: 'contact',
				operation: 'get',
				id: rl('url', contactLink),
				simplify: false,
			});
			expect(byLink.error).toBeUndefined();
			expect(byLink.items[0].json.id).toBe(contact.id);

			const byPortal = await run(sandbox, {
				resource: 'inspection',
				operation: 'get',
				id: rl('url', String(inspection.portal_url)),
			});
			expect(byPortal.error).toBeUndefined();
			expect(byPortal.items[0].json.id).toBe(inspection.id);
		});

		test('a link the node cannot read fails its item, naming the field and the link forms, never the whole run', async () => {
			const links = [
				'https://app.example.com/agencies/none',
				`https://app.example.com/agencies/${String(contact.id)}`,
				`https://app.example.com/contacts/${String(contact.id)}`,
			];
			for (const typed of [links[0], links[1]]) {
				// Typed in (no expression): n8n's parameter check used to refuse the whole run.
				const result = await run(sandbox, {
					resource: 'contact',
					operation: 'get',
					id: rl('url', typed),
				});
				expect(result.error?.message).toMatch(
					/^Contact \(By URL\): the link ".*" (holds no ID|is a link to another kind of record \(Agency\))/,
				);
				expect(result.error?.description).toBe(
					'By URL takes a link to the contact (…/contacts/<ID>), or any http(s) link that holds exactly one ID (a UUID).',
				);
			}
			// From an expression, item by item: with continue-on-fail the good link still runs.
			const mapped = await run(
				sandbox,
				{
					resource: 'contact',
					operation: 'get',
					id: rl('url', '={{ $json.link }}'),
					simplify: false,
				},
				{ items: links.map((link) => ({ json: { link } })), continueOnFail: true },
			);
			expect(mapped.error).toBeUndefined();
			expect(mapped.items.map((item) => item.json.error ?? item.json.id)).toEqual([
				expect.stringMatching(/^Contact \(By URL\): the link .* holds no ID/),
				expect.stringMatching(/is a link to another kind of record/),
				contact.id,
			]);
			expect(await requests(sandbox, { pathPrefix: '/v1' })).toHaveLength(1);
		});

		test('the agency in Additional Fields and in Filters takes a link too', async () => {
			const agency = (await api<{ data: IDataObject[] }>(sandbox, '/v1/agencies', { limit: '1' }))
				.data[0];
			const link = `https://app.example.com/agencies/${String(agency.id)}`;
			const created = await run(sandbox, {
				resource: 'contact',
				operation: 'create',
				first_name: 'Linked',
				email: 'linked.by.url@example.com',
				additionalFields: { agency_id: rl('url', link) },
			});
			expect(created.error).toBeUndefined();
			expect(created.items[0].json.agency_id).toBe(agency.id);
			const listed = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				returnAll: true,
				simplify: false,
				filters: { agency_id: rl('url', link) },
			});
			expect(listed.error).toBeUndefined();
			expect(listed.items.map((item) => item.json.id)).toContain(created.items[0].json.id);
			await sandbox.control.clearRequests();

			const refused = await run(sandbox, {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { agency_id: rl('url', 'https://app.example.com/agencies/') },
			});
			expect(refused.error?.message).toBe(
				'Invalid value for Agency "agency_id": the link "https://app.example.com/agencies/" holds no ID (a UUID); By URL takes a link to the agency (…/agencies/<ID>), or any http(s) link that holds exactly one ID (a UUID)',
			);
			expect(await requests(sandbox, { pathPrefix: '/v1' })).toHaveLength(0);
		});
	});

	describe('From List and By ID', () => {
		test('an event and a contact by their locator values', async () => {
			const eventGet = await run(sandbox, {
				resource: 'inspectionEvent',
				operation: 'get',
				id: rl('list', String(event.id)),
			});
			expect(eventGet.items.map((i) => i.json.id)).toEqual([event.id]);
			const update = await run(sandbox, {
				resource: 'contact',
				operation: 'update',
				contact_id: rl('id', String(contact.id)),
				updateFields: { notes: 'picked by ID' },
			});
			expect(update.error).toBeUndefined();
			expect(update.items[0].json).toMatchObject({ id: contact.id, notes: 'picked by ID' });
		});

		test('an attachment by its inspection (portal link) and its ID from the list', async () => {
			const inspectionId = String(attachment.inspection_id);
			const portal = (
				await api<{ data: IDataObject[] }>(sandbox, '/v1/inspections', { ids: inspectionId })
			).data[0].portal_url;
			const result = await run(sandbox, {
				resource: 'attachment',
				operation: 'get',
				inspection_id: rl('url', String(portal)),
				attachment_id: rl('list', String(attachment.id)),
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({
				id: attachment.id,
				inspection_id: inspectionId,
			});
		});
	});

	describe('version 1 workflows keep working unchanged', () => {
		test('Get, Update and Get Many for Inspection with plain id strings', async () => {
			const v1 = { typeVersion: 1 };
			const get = await run(
				sandbox,
				{ resource: 'contact', operation: 'get', id: String(contact.id) },
				v1,
			);
			// Version 1 has no contact Simplify: the full record, as before.
			expect(get.items[0].json).toMatchObject({ id: contact.id, tags: expect.any(Array) });
			expect(get.items[0].json.created_at).toBeDefined();

			const update = await run(
				sandbox,
				{
					resource: 'contact',
					operation: 'update',
					contact_id: String(contact.id),
					updateFields: { city: 'Version One' },
				},
				v1,
			);
			expect(update.items[0].json).toMatchObject({ id: contact.id, city: 'Version One' });

			const inspectionId = String(attachment.inspection_id);
			const listed = await run(
				sandbox,
				{
					resource: 'attachment',
					operation: 'getAllForInspection',
					inspection_id: inspectionId,
					returnAll: true,
				},
				v1,
			);
			const expected = await allPages(sandbox, `/v1/inspections/${inspectionId}/attachments`);
			expect(listed.items.map((i) => i.json.id)).toEqual(expected.records.map((a) => a.id));
		});

		test('a v1 id string with a link in it is refused, as before (no URL mode in v1)', async () => {
			const result = await run(
				sandbox,
				{
					resource: 'contact',
					operation: 'get',
					id: `https://app.example.com/contacts/${String(contact.id)}`,
				},
				{ typeVersion: 1 },
			);
			expect(errorText(result)).toContain(
				`Contact ID "id": "https://app.example.com/contacts/${String(contact.id)}" ${NOT_AN_ID}`,
			);
		});
	});
}
