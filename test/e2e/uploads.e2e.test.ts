/**
 * A report upload under n8n's own Retry On Fail, in a real n8n (`n8n execute`).
 * The sandbox applies each upload's first request and then drops the
 * connection (fault `reset`), so the node fails and n8n runs it again. With
 * Skip Duplicates off that second run uploads the report again (two emails
 * to the client); with it on (the default) it outputs the report the first
 * run left: one report, one email.
 */
import { SANDBOX_KEYS } from '../../sandbox/index';
import { sanitizeFilename } from '../../nodes/shared/filenames';
import type { ExecutionOutput } from '../../scripts/n8n-instance';
import { nodeItems } from '../../scripts/n8n-instance';
import { RETRIED_FILE_NAME, RETRIED_PDF, RETRIED_UPLOAD_ID } from './workflows/uploads';
import { useN8n } from './support/instance';

type Json = Record<string, unknown>;

const instance = useN8n('uploads', { template: 'suite', server: false });
const storedName = sanitizeFilename(RETRIED_FILE_NAME);

let output: ExecutionOutput;
let withoutSkip: string;
let withSkip: string;
const attachmentsPath = (inspectionId: string) => `/v1/inspections/${inspectionId}/attachments`;
/** What the workflow sent to an inspection's attachments, in order (the tests' own reads use another key). */
const sent = async (inspectionId: string) =>
	(await instance.control.requests({ pathPrefix: attachmentsPath(inspectionId) })).data
		.filter((entry) => entry.key !== SANDBOX_KEYS.acmeStaff)
		.map((entry) => [entry.method, entry.status, entry.fault ?? null, entry.query.kind ?? null]);
const retriedReports = async (inspectionId: string) =>
	(await instance.api.all<Json>(attachmentsPath(inspectionId), { kind: 'report' })).filter(
		(report) => report.filename === storedName,
	);
const emailsFor = async (inspectionId: string) =>
	(await instance.control.emails()).data.filter((email) => email.inspection_id === inspectionId);

beforeAll(async () => {
	await instance.control.reset();
	await instance.control.clearRequests();
	// The workflow's choice: the first two confirmed inspections by id.
	[withoutSkip, withSkip] = (await instance.api.all<Json>('/v1/inspections'))
		.filter((inspection) => inspection.status === 'confirmed')
		.map((inspection) => String(inspection.id))
		.sort();
	expect(await emailsFor(withoutSkip)).toEqual([]);
	expect(await emailsFor(withSkip)).toEqual([]);
	await instance.control.queueFaults(
		{ kind: 'reset', method: 'POST', path: attachmentsPath(withoutSkip) },
		{ kind: 'reset', method: 'POST', path: attachmentsPath(withSkip) },
	);
	const n8n = instance.userFolder;
	output = await n8n.execute(RETRIED_UPLOAD_ID);
}, 10 * 60_000);

it('without Skip Duplicates, Retry On Fail uploads the report twice: the client gets two emails', async () => {
	// The first answer was lost (status 0) after the server had stored the report; n8n tried again.
	expect(await sent(withoutSkip)).toEqual([
		['POST', 0, 'reset', null],
		['POST', 201, null, null],
	]);
	expect(await retriedReports(withoutSkip)).toHaveLength(2);
	expect(await emailsFor(withoutSkip)).toHaveLength(2);
});

it('with Skip Duplicates (the default), Retry On Fail ends with one report and one email', async () => {
	const reports = await retriedReports(withSkip);
	expect(reports).toHaveLength(1);
	expect(reports[0]).toMatchObject({ size_bytes: RETRIED_PDF.length });
	const emails = await emailsFor(withSkip);
	expect(emails.map((email) => email.attachment_id)).toEqual([reports[0].id]);

	// Each try listed the inspection's reports once (one extra request); only the first uploaded.
	expect(await sent(withSkip)).toEqual([
		['GET', 200, null, 'report'],
		['POST', 0, 'reset', null],
		['GET', 200, null, 'report'],
	]);

	const [item, ...rest] = nodeItems(output, 'Upload, Skip Duplicates on');
	expect(rest).toEqual([]);
	expect(item.json).toMatchObject({
		id: reports[0].id,
		filename: storedName,
		skipped: true,
		reason: 'duplicate',
	});
});
