/**
 * Every operation of the action node in a real n8n (`n8n execute`), against the
 * sandbox; each output is checked against the sandbox's own API and request log.
 */
import { SANDBOX_KEYS } from '../../sandbox/index';
import type { ExecutionOutput, N8nUserFolder, NodeItem } from '../../scripts/n8n-instance';
import { nodeItems } from '../../scripts/n8n-instance';
import { allOperations } from '../support/fieldMap';
import {
	AGENCIES_LISTED,
	ALL_OPERATIONS_ID,
	allOperationsWorkflow,
	DOCUMENT_CSV,
	INSPECTIONS_LISTED,
	REPORT_PDF,
} from './workflows/all-operations';
import { NODE_TYPES } from './workflows/build';
import { upsertWorkflow } from './workflows/upsert';
import { PHOTO_JPEG } from './workflows/files';
import { useN8n } from './support/instance';

type Json = Record<string, unknown>;

const instance = useN8n('actions', { template: 'suite', server: false });
const workflow = allOperationsWorkflow();

let n8n: N8nUserFolder;
let output: ExecutionOutput;
let emailsBefore: number;
const items = (node: string): NodeItem[] => nodeItems(output, node);
const json = (node: string): Json[] => items(node).map((item) => item.json);
const one = (node: string): Json => {
	const [only, ...rest] = json(node);
	expect(rest).toHaveLength(0);
	return only;
};
const ids = (records: Json[]) => records.map((record) => record.id);
/** What the workflow sent (the tests' own reads use another key). */
const requests = async (method: string, pathPrefix: string) =>
	(await instance.control.requests({ method, pathPrefix })).data.filter(
		(entry) => entry.key !== SANDBOX_KEYS.acmeStaff,
	);

beforeAll(async () => {
	await instance.control.reset();
	await instance.control.clearRequests();
	emailsBefore = (await instance.control.emails()).count;
	n8n = instance.userFolder;
	output = await n8n.execute(ALL_OPERATIONS_ID);
}, 10 * 60_000);

it('runs every resource and operation of the node, each producing items', () => {
	const actionNodes = workflow.nodes.filter((node) => node.type === NODE_TYPES.action);
	// Create or Update and the photo downloads run in their own workflow (upsert.e2e.test.ts).
	const elsewhere = upsertWorkflow().nodes.filter((node) => node.type === NODE_TYPES.action);
	const covered = new Set(
		[...actionNodes, ...elsewhere].map((node) => {
			const { resource, operation } = node.parameters as { resource: string; operation: string };
			return `${resource}.${operation}`;
		}),
	);
	expect([...covered].sort()).toEqual(
		allOperations()
			.map(({ resource, operation }) => `${resource}.${operation}`)
			.sort(),
	);
	for (const node of actionNodes)
		expect({ node: node.name, items: items(node.name).length > 0 }).toEqual({
			node: node.name,
			items: true,
		});
});

it('lists tags and agencies, and gets agencies by ID in one batched request', async () => {
	expect(ids(json('Tags')).sort()).toEqual(ids(await instance.api.all<Json>('/v1/tags')).sort());
	const listed = ids(json('Agencies'));
	expect(listed).toHaveLength(AGENCIES_LISTED);
	expect(ids(json('Agency by ID'))).toEqual(listed);
	const batched = (await requests('GET', '/v1/agencies')).filter(
		(entry) => entry.query.ids !== undefined,
	);
	expect(batched.map((entry) => String(entry.query.ids).split(','))).toEqual([listed]);
});

it('creates and updates a contact, uploads its photo from binary, and removes it', async () => {
	const created = one('Create contact');
	const firstTag = json('Tags')[0];
	expect(created).toMatchObject({
		first_name: 'E2E',
		last_name: 'Tester',
		phone: '555-0100',
		country: 'US',
		birthday: '1980-05-17',
		agency_id: json('Agencies')[0].id,
		social: { linkedin: 'https://www.linkedin.com/in/e2e-tester' },
		tags: [{ id: firstTag.id, name: firstTag.name }],
	});
	expect(one('Update contact')).toMatchObject({
		id: created.id,
		city: 'Springfield',
		phone: null,
		notes: 'Updated by the e2e test',
	});

	const photo = one('Upload photo');
	expect(photo).toMatchObject({ id: created.id, photo_url: expect.stringMatching(/^http/) });
	const uploads = await requests('POST', `/v1/contacts/${String(created.id)}/photo`);
	expect(uploads.map((entry) => [entry.status, entry.form?.files])).toEqual([
		[
			200,
			[
				{
					field: 'file',
					filename: 'portrait.jpg',
					contentType: 'image/jpeg',
					size: PHOTO_JPEG.length,
				},
			],
		],
	]);
	expect(one('Delete photo')).toMatchObject({ id: created.id, photo_url: null });

	const [stored] = (
		await instance.api.get<{ data: Json[] }>('/v1/contacts', { ids: String(created.id) })
	).data;
	expect(one('Get contact')).toEqual(stored);
	expect(stored).toMatchObject({ city: 'Springfield', phone: null, photo_url: null });
});

it('filters, sorts and pages contacts, and reads their statistics', async () => {
	const created = one('Create contact');
	const recent = json('Recently changed contacts');
	expect(ids(recent)).toContain(created.id);
	const times = recent.map((contact) => String(contact.updated_at));
	expect(times).toEqual([...times].sort().reverse());
	expect(times.every((time) => time >= String(created.created_at))).toBe(true);

	const agents = await instance.api.all<Json>('/v1/contacts', { role: 'agent' });
	expect(ids(json('Agents')).sort()).toEqual(ids(agents).sort());
	const pages = (await requests('GET', '/v1/contacts')).filter(
		(entry) => entry.query.role === 'agent',
	);
	expect(pages).toHaveLength(Math.ceil(agents.length / 200));
	expect(pages.every((entry) => entry.query.limit === '200')).toBe(true);

	const firstFive = ids(json('Agents').slice(0, 5)).join(',');
	const stats = await instance.api.all<Json>('/v1/contacts/stats', {
		contact_ids: firstFive,
		from: '2000-01-01T00:00:00Z',
	});
	expect(json('Agent stats')).toEqual(stats);
	expect(stats).toHaveLength(5);
});

it('lists inspections and events, and gets inspections by ID in one batched request', async () => {
	const listed = json('Inspections');
	expect(listed).toHaveLength(INSPECTIONS_LISTED);
	const page = await instance.api.get<{ data: Json[] }>('/v1/inspections', {
		limit: INSPECTIONS_LISTED,
		include_canceled: true,
		sort: '-updated_at',
	});
	expect(ids(listed)).toEqual(ids(page.data));
	expect(ids(json('Inspection by ID'))).toEqual(ids(listed));
	const batched = (await requests('GET', '/v1/inspections')).filter(
		(entry) => entry.query.ids !== undefined,
	);
	// The batch of Inspection by ID, then version 2's Get by portal link.
	expect(batched.map((entry) => String(entry.query.ids).split(',').length)).toEqual([
		INSPECTIONS_LISTED,
		1,
	]);

	const events = await instance.api.get<{ data: Json[] }>('/v1/events', {
		limit: 10,
		updated_since: '2000-01-01T00:00:00Z',
	});
	expect(json('Events')).toEqual(events.data);
});

it('uploads a PDF report and a CSV document from binary, lists and downloads them', async () => {
	const inspectionId = String(one('Report target').inspectionId);
	const report = one('Upload report');
	expect(report).toMatchObject({
		inspection_id: inspectionId,
		kind: 'report',
		name: 'E2E report',
		description: 'Uploaded by the e2e test',
		filename: 'E2E_report.pdf',
		content_type: 'application/pdf',
		size_bytes: REPORT_PDF.length,
		visible_to_client: true,
	});
	const document = one('Upload document');
	expect(document).toMatchObject({
		kind: 'document',
		filename: 'findings.csv',
		size_bytes: DOCUMENT_CSV.length,
		visible_to_client: false,
	});

	const uploads = await requests('POST', `/v1/inspections/${inspectionId}/attachments`);
	expect(
		uploads.map((entry) => [
			entry.status,
			entry.form?.fields.kind,
			entry.form?.files[0]?.contentType,
		]),
	).toEqual([
		[201, 'report', 'application/pdf'],
		[201, 'document', 'text/csv'],
	]);
	const emails = await instance.control.emails();
	expect(emails.count - emailsBefore).toBe(1);
	expect(emails.data.at(-1)).toMatchObject({
		inspection_id: inspectionId,
		attachment_id: report.id,
	});

	expect(ids(json('Attachments of inspection'))).toEqual(
		expect.arrayContaining([report.id, document.id]),
	);
	const [downloaded] = items('Download report');
	const binary = downloaded.binary?.downloaded;
	expect(binary).toMatchObject({ mimeType: 'application/pdf' });
	// n8n 2.x records the exact size as `bytes` (1.x only as the text `fileSize`); the bytes
	// themselves are compared on every version.
	if (binary?.bytes !== undefined) expect(binary.bytes).toBe(REPORT_PDF.length);
	expect(n8n.readBinary(binary!).equals(REPORT_PDF)).toBe(true);
	const fileRequests = await requests('GET', '/files/');
	expect(fileRequests.length).toBeGreaterThan(0);
	expect(fileRequests.map((entry) => entry.key)).toEqual(fileRequests.map(() => null));

	expect(ids(json('Recent reports'))).toContain(report.id);
	expect(json('Recent reports').every((attachment) => attachment.kind === 'report')).toBe(true);
});

it('version 2: counts every list in one request each, and picks records by link, ID and list', async () => {
	const total = async (path: string, query: Record<string, string | number | boolean> = {}) =>
		(await instance.api.get<{ total: number }>(path, { ...query, limit: 1 })).total;
	expect(one('Count clients')).toEqual({ count: await total('/v1/contacts', { role: 'client' }) });
	expect(one('Count inspections')).toEqual({
		count: await total('/v1/inspections', { include_canceled: true }),
	});
	expect(one('Count reports')).toEqual({
		count: await total('/v1/attachments', { kind: 'report' }),
	});
	expect(one('Count events')).toEqual({ count: await total('/v1/events') });
	expect(one('Count tags')).toEqual({ count: await total('/v1/tags') });
	expect(one('Count agencies')).toEqual({ count: await total('/v1/agencies') });
	const counts = (await requests('GET', '/v1/')).filter((entry) => entry.query.limit === '1');
	expect(counts).toHaveLength(6);

	const created = one('Create contact');
	const byEmail = one('Contact by email');
	expect(byEmail).toMatchObject({ id: created.id, email: created.email });
	expect(Object.keys(byEmail)).toHaveLength(10);
	expect(one('Contact by link')).toMatchObject({ id: created.id });
	const inspection = json('Inspections')[0];
	expect(one('Inspection by portal link')).toMatchObject({
		id: inspection.id,
		portal_url: inspection.portal_url,
	});
	expect(one('Event by ID')).toEqual(json('Events')[0]);
	expect(one('Report by ID')).toMatchObject({ id: one('Upload report').id, kind: 'report' });
	expect(one('Stats of created contact')).toMatchObject({ contact_id: created.id });
});
