/**
 * The example workflows in examples/, imported as they are and run in a real
 * n8n against the sandbox; their results are checked against the sandbox's API.
 */
import { SandboxControl } from '../../sandbox/client';
import { nodeItems, type N8nUserFolder } from '../../scripts/n8n-instance';
import { loadExamples } from '../../scripts/workflows';
import { parseCsv } from './support/csv';
import { e2eUserFolder } from './support/n8n';
import { SandboxApi } from './support/sandbox-api';
import { readState } from './support/state';

type Json = Record<string, unknown>;
type Contact = Json & {
	id: string;
	updated_at: string;
	agency: { name: string } | null;
	agency_name: string | null;
	business_name: string | null;
};
type Inspection = Json & {
	id: string;
	status: string;
	price: {
		quote: number | null;
		amount_paid: number | null;
		amount_due: number | null;
		payment_status: string | null;
		paid: boolean;
	};
};

const EXAMPLES = {
	crm: 'IbExampleCrmSync',
	accounting: 'IbExampleAcctExp',
	report: 'IbExampleReportUp',
} as const;
const OVERLAP_MS = 5 * 60_000;

const state = readState();
const control = new SandboxControl(state.sandboxUrl);
const api = new SandboxApi(state.sandboxUrl);
let n8n: N8nUserFolder;

const run = async (id: string) => {
	const output = await n8n.execute(id);
	return (node: string) => nodeItems(output, node);
};

beforeAll(async () => {
	n8n = await e2eUserFolder();
});

it('every example is an n8n workflow of the community node types, tested here', () => {
	const examples = loadExamples();
	expect(examples.map((workflow) => workflow.id).sort()).toEqual(Object.values(EXAMPLES).sort());
	for (const workflow of examples) {
		expect(
			workflow.nodes.some(
				(node) => node.type === 'n8n-nodes-inspection-business.inspectionBusiness',
			),
		).toBe(true);
		expect(workflow.nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger')).toBe(true);
	}
});

describe('CRM sync', () => {
	it('maps every contact on the first run, then only those changed since the last run (minus the overlap)', async () => {
		await control.reset();
		const first = await run(EXAMPLES.crm);
		const window1 = first('Sync window')[0].json;
		expect(window1).toMatchObject({ since: '1970-01-01T00:00:00.000Z', firstRun: true });
		const contacts = await api.all<Contact>('/v1/contacts');
		const records = first('Map to CRM record').map((item) => item.json);
		expect(records.map((record) => record.external_id).sort()).toEqual(
			contacts.map((contact) => contact.id).sort(),
		);
		const byId = new Map(contacts.map((contact) => [contact.id, contact]));
		for (const record of records) {
			const contact = byId.get(String(record.external_id))!;
			expect(record).toMatchObject({
				email: contact.email,
				first_name: contact.first_name,
				company: contact.agency?.name ?? contact.agency_name ?? contact.business_name ?? '',
				source: 'inspection-business',
				source_updated_at: contact.updated_at,
			});
		}

		const [changed] = contacts;
		await control.updateContact(changed.id, { city: 'Boulder', phone: '720-555-0199' });
		const added = await control.createContact('acme', {
			first_name: 'Newly',
			last_name: 'Added',
			email: 'newly.added@example.com',
		});

		const second = await run(EXAMPLES.crm);
		const window2 = second('Sync window')[0].json;
		expect(window2).toMatchObject({
			firstRun: false,
			since: new Date(Date.parse(String(window1.runStartedAt)) - OVERLAP_MS).toISOString(),
		});
		const synced = second('Map to CRM record').map((item) => item.json);
		const expected = await api.all<Contact>('/v1/contacts', {
			updated_since: String(window2.since),
		});
		expect(synced.map((record) => record.external_id).sort()).toEqual(
			expected.map((contact) => contact.id).sort(),
		);
		expect(synced.length).toBeLessThan(contacts.length);
		expect(synced.find((record) => record.external_id === changed.id)).toMatchObject({
			city: 'Boulder',
			phone: '720-555-0199',
		});
		expect(synced.find((record) => record.external_id === added.id)).toMatchObject({
			first_name: 'Newly',
			last_name: 'Added',
			email: 'newly.added@example.com',
		});
	});
});

describe('Accounting export', () => {
	it('writes one CSV row per confirmed inspection with its price and payment fields', async () => {
		await control.reset();
		const items = await run(EXAMPLES.accounting);
		const [file] = items('CSV file');
		const binary = file.binary?.data;
		expect(binary).toMatchObject({
			mimeType: 'text/csv',
			fileName: expect.stringMatching(/^confirmed-inspections-\d{4}-\d{2}-\d{2}\.csv$/),
		});
		const rows = parseCsv(n8n.readBinary(binary!).toString('utf8'));

		const confirmed = (await api.all<Inspection>('/v1/inspections')).filter(
			(inspection) => inspection.status === 'confirmed',
		);
		expect(confirmed.length).toBeGreaterThan(0);
		expect(rows.map((row) => row['Inspection ID']).sort()).toEqual(
			confirmed.map((inspection) => inspection.id).sort(),
		);
		const rowById = new Map(rows.map((row) => [row['Inspection ID'], row]));
		for (const { id, price } of confirmed) {
			expect(rowById.get(id)).toMatchObject({
				Quote: String(price.quote ?? 0),
				'Amount Paid': String(price.amount_paid ?? 0),
				'Amount Due': String(price.amount_due ?? 0),
				'Payment Status': price.payment_status ?? '',
				Paid: price.paid ? 'yes' : 'no',
			});
		}
	});
});

describe('Report upload and notify', () => {
	it('uploads a PDF rendered from binary as a report to the latest confirmed inspection, then lists the reports', async () => {
		await control.reset();
		const recent = await api.get<{ data: Inspection[] }>('/v1/inspections', {
			limit: 100,
			sort: '-updated_at',
		});
		const target = recent.data.find((inspection) => inspection.status === 'confirmed');
		expect(target).toBeDefined();
		const emailsBefore = (await control.emails()).count;

		const items = await run(EXAMPLES.report);
		const uploaded = items('Upload report')[0].json;
		expect(uploaded).toMatchObject({
			inspection_id: target!.id,
			kind: 'report',
			name: 'Inspection report',
			filename: `Inspection_report_${target!.id.slice(0, 8)}.pdf`,
			content_type: 'application/pdf',
		});
		const pdf = Buffer.from(await (await fetch(String(uploaded.url))).arrayBuffer());
		expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
		expect(pdf.length).toBe(uploaded.size_bytes);
		expect(pdf.toString('latin1')).toContain(
			String((target!.address as { full: string }).full).replace(/[^\x20-\x7e]/g, '?'),
		);

		const emails = await control.emails();
		expect(emails.count - emailsBefore).toBe(1);
		expect(emails.data.at(-1)).toMatchObject({
			inspection_id: target!.id,
			attachment_id: uploaded.id,
		});

		const reports = await api.all<Json>(`/v1/inspections/${target!.id}/attachments`, {
			kind: 'report',
		});
		expect(reports.map((report) => report.id)).toContain(uploaded.id);
		const [notification] = items('Compose notification');
		expect(notification.json).toMatchObject({
			inspection_id: target!.id,
			attachment_id: uploaded.id,
			reports: reports.map((report) => ({
				id: report.id,
				name: report.name,
				filename: report.filename,
			})),
		});
	});
});
