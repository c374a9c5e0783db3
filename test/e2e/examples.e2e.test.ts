/**
 * The example workflows in examples/, imported as they are and run in a real
 * n8n against the sandbox; their results are checked against the sandbox's API.
 * The scheduled ones run with `n8n execute` (their Manual Trigger); the trigger
 * ones are published in the running `n8n start`, and the sandbox makes the
 * changes that start them. What is not run: the placeholders where your CRM,
 * Slack or email node goes are n8n's No Operation node in the examples
 * themselves, so each run ends there, and the CSV file is written, not sent.
 * @long: waits minutes for the examples' polls (test/sequencer.js starts it early)
 */
import { randomUUID } from 'node:crypto';
import { SANDBOX_KEYS } from '../../sandbox/index';
import { nodeItems, type N8nUserFolder } from '../../scripts/n8n-instance';
import type { N8nRestClient } from '../../scripts/n8n-rest';
import { waitFor } from '../../scripts/processes';
import {
	loadExamples,
	SANDBOX_WEBHOOK_CREDENTIAL,
	WEBHOOK_EXAMPLE,
	webhookExampleReceiver,
} from '../../scripts/workflows';
import { parseCsv } from './support/csv';
import { ExecutionWatcher } from './support/executions';
import { PollWatch } from './support/polls';
import { useN8n } from './support/instance';

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
	deleted: boolean;
	updated_at: string;
	portal_url: string;
	address: { full: string | null };
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
	teamNote: 'IbExampleTeamNote',
	crmHook: WEBHOOK_EXAMPLE.id,
	paidToAccounting: 'IbExamplePaidAcct',
	paidAndSigned: 'IbExamplePaidSign',
	reminder: 'IbExampleReminder',
	reviewRequest: 'IbExampleReviewRq',
} as const;
const PACKAGE = 'n8n-nodes-inspection-business';
const OVERLAP_MS = 5 * 60_000;
const MINUTE = 60_000;

const instance = useN8n('examples', { template: 'suite' });
let n8n: N8nUserFolder;
let rest: N8nRestClient;

const run = async (id: string) => {
	const output = await n8n.execute(id);
	return (node: string) => nodeItems(output, node);
};

beforeAll(async () => {
	n8n = instance.userFolder;
	rest = instance.rest;
});

it('every example is an n8n workflow of the community node types, tested here', () => {
	const examples = loadExamples();
	expect(examples.map((workflow) => workflow.id).sort()).toEqual(Object.values(EXAMPLES).sort());
	for (const workflow of examples) {
		expect(workflow.nodes.some((node) => node.type.startsWith(`${PACKAGE}.`))).toBe(true);
		// Started by hand (a Manual Trigger beside the schedule) or by one of the package's triggers.
		expect(
			workflow.nodes.some((node) =>
				[
					'n8n-nodes-base.manualTrigger',
					`${PACKAGE}.inspectionBusinessTrigger`,
					`${PACKAGE}.inspectionBusinessWebhookTrigger`,
				].includes(node.type),
			),
		).toBe(true);
	}
});

describe('CRM sync', () => {
	it('maps every contact on the first run, then only those changed since the last run (minus the overlap)', async () => {
		await instance.control.reset();
		const first = await run(EXAMPLES.crm);
		const window1 = first('Sync window')[0].json;
		expect(window1).toMatchObject({ since: '1970-01-01T00:00:00.000Z', firstRun: true });
		const contacts = await instance.api.all<Contact>('/v1/contacts');
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
		await instance.control.updateContact(changed.id, { city: 'Boulder', phone: '720-555-0199' });
		const added = await instance.control.createContact('acme', {
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
		const expected = await instance.api.all<Contact>('/v1/contacts', {
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

/** A client's first name that a spreadsheet would run as a formula (a link that opens anywhere). */
const FORMULA = '=HYPERLINK("https://evil.example/pay","Pay here")';

describe('Accounting export', () => {
	const customerOf = (inspection: Inspection) =>
		(inspection.contacts as Array<Json & { id: string; role: string }>).find(
			(contact) => contact.role === 'Customer',
		);
	const exported = (inspection: Inspection) =>
		inspection.status === 'confirmed' || inspection.status === 'canceled' || inspection.deleted;
	const everyInspection = (query: Record<string, string> = {}) =>
		instance.api.all<Inspection>('/v1/inspections', {
			include_canceled: 'true',
			include_deleted: 'true',
			...query,
		});
	const csvRows = (items: (node: string) => Array<{ binary?: Record<string, unknown> }>) => {
		const binary = items('CSV file')[0].binary?.data as Parameters<N8nUserFolder['readBinary']>[0];
		expect(binary).toMatchObject({
			mimeType: 'text/csv',
			fileName: expect.stringMatching(/^inspections-changed-\d{4}-\d{2}-\d{2}\.csv$/),
		});
		return parseCsv(n8n.readBinary(binary).toString('utf8'));
	};

	it('exports every confirmed, canceled or deleted inspection once, then only those changed since the last export', async () => {
		await instance.control.reset();
		// A client whose name a spreadsheet would run as a formula: the file has it as text.
		const withClient = (await everyInspection()).find(
			(inspection) => exported(inspection) && customerOf(inspection) !== undefined,
		);
		const customer = withClient && customerOf(withClient);
		if (!customer) throw new Error('The demo seed lacks an exported inspection with a client');
		await instance.control.updateContact(customer.id, { first_name: FORMULA });
		const first = await run(EXAMPLES.accounting);
		const window1 = first('Export window')[0].json;
		expect(window1).toMatchObject({ since: '1970-01-01T00:00:00.000Z', firstRun: true });
		const rows = csvRows(first);
		const all = await everyInspection();
		const expected = all.filter(exported);
		expect(expected.length).toBeGreaterThan(0);
		expect(rows.map((row) => row['Inspection ID']).sort()).toEqual(
			expected.map((inspection) => inspection.id).sort(),
		);
		const rowById = new Map(rows.map((row) => [row['Inspection ID'], row]));
		for (const { id, price, status, deleted } of expected) {
			expect(rowById.get(id)).toMatchObject({
				Status: deleted ? 'deleted' : status,
				Quote: String(price.quote ?? 0),
				'Amount Paid': String(price.amount_paid ?? 0),
				'Amount Due': String(price.amount_due ?? 0),
				'Payment Status': price.payment_status ?? '',
				Paid: price.paid ? 'yes' : 'no',
			});
		}
		const hostileRows = rows.filter((row) =>
			expected.some((i) => i.id === row['Inspection ID'] && customerOf(i)?.id === customer.id),
		);
		expect(hostileRows.length).toBeGreaterThan(0);
		for (const row of hostileRows)
			expect(row.Client).toBe(`'${[FORMULA, customer.last_name].filter(Boolean).join(' ')}`);

		// A day's changes: one inspection confirmed, one paid, one canceled.
		const toConfirm = all.find((i) => i.status === 'waiting' || i.status === 'review');
		const [toPay, toCancel] = all.filter(
			(i) => i.status === 'confirmed' && !i.deleted && i.price.amount_due,
		);
		if (!toConfirm || !toPay || !toCancel)
			throw new Error('The demo seed lacks an inspection to confirm, pay or cancel');
		await instance.control.confirmInspection(toConfirm.id);
		await instance.control.payInspection(toPay.id);
		await instance.control.cancelInspection(toCancel.id);
		await instance.control.clearRequests();

		const second = await run(EXAMPLES.accounting);
		const window2 = second('Export window')[0].json;
		expect(window2).toMatchObject({
			firstRun: false,
			since: new Date(Date.parse(String(window1.runStartedAt)) - OVERLAP_MS).toISOString(),
		});
		// The node asked only for what changed: Updated Since, one page. (The e2e polling trigger
		// watching Globex reads inspections too, with Globex's key.)
		const reads = (await instance.control.requests({ pathPrefix: '/v1/inspections' })).data.filter(
			(entry) => entry.key === SANDBOX_KEYS.acmeOwner,
		);
		expect(reads.map((entry) => Date.parse(String(entry.query.updated_since)))).toEqual([
			Date.parse(String(window2.since)),
		]);
		const changedRows = csvRows(second);
		const changed = (await everyInspection({ updated_since: String(window2.since) })).filter(
			exported,
		);
		expect(changedRows.map((row) => row['Inspection ID']).sort()).toEqual(
			changed.map((inspection) => inspection.id).sort(),
		);
		expect(changedRows.length).toBeLessThan(rows.length);
		const changedById = new Map(changedRows.map((row) => [row['Inspection ID'], row]));
		expect(changedById.get(toConfirm.id)).toMatchObject({ Status: 'confirmed' });
		expect(changedById.get(toPay.id)).toMatchObject({
			Status: 'confirmed',
			'Amount Due': '0',
			'Payment Status': 'paid',
			Paid: 'yes',
		});
		expect(changedById.get(toCancel.id)).toMatchObject({ Status: 'canceled' });
	});
});

describe('Report upload and notify', () => {
	const PICKER = 'Inspection to add the report to';

	it('as shipped, with its record picker empty, writes nothing', async () => {
		await instance.control.reset();
		const emailsBefore = (await instance.control.emails()).count;
		await instance.control.clearRequests();
		await expect(run(EXAMPLES.report)).rejects.toThrow();
		expect((await instance.control.emails()).count).toBe(emailsBefore);
		const sent = (await instance.control.requests()).data;
		expect(sent.filter((request) => request.method !== 'GET')).toEqual([]);
	});

	it('uploads a PDF rendered from binary as a report to the inspection the user picked, then lists the reports', async () => {
		await instance.control.reset();
		const recent = await instance.api.get<{ data: Inspection[] }>('/v1/inspections', {
			limit: 100,
			sort: '-updated_at',
		});
		const target = recent.data.find((inspection) => inspection.status === 'confirmed');
		expect(target).toBeDefined();
		const emailsBefore = (await instance.control.emails()).count;

		// As a user does: the inspection picked in the picker, the rest of the workflow as shipped.
		const shipped = loadExamples().find((workflow) => workflow.id === EXAMPLES.report)!;
		const picked = {
			...shipped,
			id: `${EXAMPLES.report}P`,
			name: `${shipped.name} (picked)`,
			nodes: shipped.nodes.map((node) =>
				node.name === PICKER
					? {
							...node,
							parameters: {
								...(node.parameters as Json),
								id: { __rl: true, mode: 'list', value: target!.id },
							},
						}
					: node,
			),
		};
		await n8n.importWorkflows([picked]);
		const items = await run(picked.id);
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

		const emails = await instance.control.emails();
		expect(emails.count - emailsBefore).toBe(1);
		expect(emails.data.at(-1)).toMatchObject({
			inspection_id: target!.id,
			attachment_id: uploaded.id,
		});

		const reports = await instance.api.all<Json>(`/v1/inspections/${target!.id}/attachments`, {
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

/** Publishes an example in the running n8n for the length of `body`, then unpublishes it. */
async function whilePublished(workflowId: string, body: () => Promise<void>): Promise<void> {
	await rest.publish(workflowId);
	try {
		await body();
	} finally {
		await rest.unpublish(workflowId);
	}
}

describe('Tell the team when an inspection is confirmed, rescheduled or canceled (polling trigger)', () => {
	const TRIGGER = 'Inspection confirmed, rescheduled or canceled';

	it('composes one message per event the sandbox makes, each on its own branch, under n8n start, and none for other changes', async () => {
		await instance.control.reset();
		const inspections = await instance.api.all<Inspection>('/v1/inspections');
		// Upcoming bookings: the trigger holds an inspection for 90 days after its end and last change
		// (docs/moments.md), so a waiting booking whose date passed long ago is first seen when it is
		// confirmed, and its confirmation counts as having happened before.
		const [toConfirm, toConfirmAndMove] = inspections.filter(
			(i) =>
				(i.status === 'waiting' || i.status === 'review') &&
				Date.parse(String(i.scheduled_for)) > Date.now(),
		);
		const [toReschedule, toCancel, toPay] = inspections.filter(
			(i) => i.status === 'confirmed' && i.price.amount_due,
		);
		if (!toConfirm || !toConfirmAndMove || !toReschedule || !toCancel || !toPay)
			throw new Error('The demo seed lacks an inspection to confirm, reschedule, cancel or pay');
		// Every branch ends at the placeholder for the team's channel.
		const watcher = await ExecutionWatcher.start(
			rest,
			EXAMPLES.teamNote,
			'Send to your team (replace me)',
		);

		await whilePublished(EXAMPLES.teamNote, async () => {
			// The first scheduled poll (at most a minute away) takes the baseline and saves it in the
			// workflow's static data; only changes after it are reported.
			await waitFor(
				'the polling trigger to take its baseline',
				async () => {
					const workflow = await rest.rest<{ staticData?: Record<string, unknown> | null }>(
						'GET',
						`/rest/workflows/${EXAMPLES.teamNote}`,
					);
					return workflow.staticData?.[`node:${TRIGGER}`] ? true : undefined;
				},
				{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
			);
			const newTime = new Date(Date.now() + 10 * 24 * 60 * MINUTE)
				.toISOString()
				.replace(/:\d{2}\.\d{3}Z$/, ':00.000Z');
			await instance.control.confirmInspection(toConfirm.id);
			await instance.control.rescheduleInspection(toReschedule.id, newTime);
			await instance.control.cancelInspection(toCancel.id);
			await instance.control.payInspection(toPay.id); // not an event the example listens to
			// Two events of one inspection: each is an item of its own, on its own branch.
			await instance.control.confirmInspection(toConfirmAndMove.id);
			await instance.control.rescheduleInspection(toConfirmAndMove.id, newTime);

			// One message per event (a poll's changes share one execution); the payment makes none.
			const messages: Json[] = [];
			await waitFor(
				'the example to compose the five messages',
				async () => {
					messages.push(...(await watcher.newItems()));
					return messages.length >= 5 || undefined;
				},
				{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
			);
			await nextPoll(EXAMPLES.teamNote);
			messages.push(...(await watcher.newItems()));
			expect(messages.map((message) => [message.event, message.inspection_id]).sort()).toEqual(
				[
					['inspection.confirmed', toConfirm.id],
					['inspection.rescheduled', toReschedule.id],
					['inspection.canceled', toCancel.id],
					['inspection.confirmed', toConfirmAndMove.id],
					['inspection.rescheduled', toConfirmAndMove.id],
				].sort(),
			);
			// Each branch's message says its event.
			const BRANCH = {
				'inspection.confirmed': 'Confirmed',
				'inspection.rescheduled': 'Rescheduled',
				'inspection.canceled': 'Canceled',
			};
			for (const message of messages) {
				const inspection = inspections.find((i) => i.id === message.inspection_id)!;
				expect(message.subject).toBe(
					`${BRANCH[message.event as keyof typeof BRANCH]}: ${inspection.address.full}`,
				);
				expect(message.text).toContain(`Portal: ${inspection.portal_url}`);
				const client = (inspection.contacts as Json[]).find((c) => c.role === 'Customer');
				if (client) expect(message.text).toContain(`Client: ${String(client.first_name)}`);
			}
			// The reschedule says when it moved from and to (in the workflow's timezone, UTC here).
			const moved = messages.find((message) => message.inspection_id === toReschedule.id)!;
			const at = new Date(newTime);
			const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][at.getUTCDay()];
			const month = at.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
			const clock = newTime.slice(11, 16);
			expect(moved.text).toContain(
				`When: ${day} ${at.getUTCDate()} ${month} ${at.getUTCFullYear()}, ${clock} (was `,
			);
		});
	});
});

describe('Contact changed → create or update in your CRM (webhook trigger)', () => {
	it('maps the re-fetched contact of each sandbox webhook, under n8n start, and ignores other events', async () => {
		await instance.control.reset();
		const [contact] = await instance.api.all<Contact>('/v1/contacts');
		const inspection = (await instance.api.all<Inspection>('/v1/inspections')).find(
			(i) => i.status === 'waiting' || i.status === 'review',
		);
		if (!inspection) throw new Error('The demo seed has no inspection waiting or in review');
		const watcher = await ExecutionWatcher.start(rest, EXAMPLES.crmHook, 'Map to CRM record');
		const url = webhookExampleReceiver(instance.url).url;

		await whilePublished(EXAMPLES.crmHook, async () => {
			const receiver = await instance.control.addWebhook(webhookExampleReceiver(instance.url));
			try {
				await instance.control.updateContact(contact.id, { city: 'Golden', phone: '720-555-0142' });
				await instance.control.confirmInspection(inspection.id); // inspection.confirmed: not selected
				const attempts = await waitFor(
					'both deliveries to be answered',
					async () => {
						const mine = (await instance.control.deliveries()).data.filter(
							(attempt) => attempt.receiver_id === receiver.id,
						);
						return mine.length >= 2 ? mine : undefined;
					},
					{ timeoutMs: MINUTE, intervalMs: 500 },
				);
				expect(attempts.map((attempt) => [attempt.event, attempt.status]).sort()).toEqual([
					['contact.changed', 200],
					['inspection.confirmed', 200],
				]);

				const records: Json[] = [];
				await waitFor(
					'the contact.changed execution',
					async () => {
						records.push(...(await watcher.newItems()));
						return records.length >= 1 || undefined;
					},
					{ timeoutMs: MINUTE, intervalMs: 500 },
				);
				const changed = await instance.api.get<{ data: Contact[] }>('/v1/contacts', {
					ids: contact.id,
				});
				const now = changed.data[0];
				expect(records).toEqual([
					expect.objectContaining({
						external_id: contact.id,
						email: now.email,
						city: 'Golden',
						phone: '720-555-0142',
						company: now.agency?.name ?? now.agency_name ?? now.business_name ?? '',
						source: 'inspection-business',
						source_updated_at: now.updated_at,
					}),
				]);
				expect(await watcher.count()).toBe(1);
			} finally {
				await instance.control.removeWebhook(receiver.id);
			}

			// The trigger answers the sender itself, at once; a request without the secret starts nothing.
			const delivery = JSON.stringify({
				id: randomUUID(),
				event: 'contact.changed',
				data: { id: contact.id },
			});
			const post = (headers: Record<string, string>) =>
				fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', ...headers },
					body: delivery,
					signal: AbortSignal.timeout(30_000),
				});
			expect((await post({})).status).toBe(401);
			const accepted = await post({
				[WEBHOOK_EXAMPLE.secretHeader]: SANDBOX_WEBHOOK_CREDENTIAL.secret,
			});
			expect([accepted.status, await accepted.json()]).toEqual([200, { received: true }]);
			await waitFor(
				'the posted delivery to run',
				async () => ((await watcher.newItems()).length > 0 ? true : undefined),
				{ timeoutMs: MINUTE, intervalMs: 500 },
			);
			expect(await watcher.count()).toBe(2);
		});
	});
});

/** Publishes a trigger-led example and waits until its first scheduled poll stored the baseline. */
async function publishedAfterBaseline(
	workflowId: string,
	trigger: string,
	body: () => Promise<void>,
): Promise<void> {
	await whilePublished(workflowId, async () => {
		await waitFor(
			`${workflowId}'s polling trigger to take its baseline`,
			async () => {
				const workflow = await rest.rest<{ staticData?: Record<string, unknown> | null }>(
					'GET',
					`/rest/workflows/${workflowId}`,
				);
				return workflow.staticData?.[`node:${trigger}`] ? true : undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
		);
		await body();
	});
}

/** Waits until a whole poll of the workflow's trigger began and ended from now, and its execution finished. */
async function nextPoll(workflowId: string): Promise<void> {
	await (await PollWatch.start(instance.control, rest, workflowId)).ended();
}

async function itemsUntil(watcher: ExecutionWatcher, done: (items: Json[]) => boolean) {
	const items: Json[] = [];
	await waitFor(
		'the example to run',
		async () => {
			items.push(...(await watcher.newItems()));
			return done(items) || undefined;
		},
		{ timeoutMs: 3 * MINUTE, intervalMs: 2000 },
	);
	return items;
}

/** The day it is now in UTC, the workflows' timezone here (n8n's clock: the sandbox's may be moved). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

describe('Payment received → accounting row (polling trigger, a business moment)', () => {
	it('writes one row per payment, a part payment too, with the amount received, the day it was reported and the inspection day; none for an add-on sold', async () => {
		await instance.control.reset();
		const [someone] = await instance.api.all<Contact>('/v1/contacts', { role: 'client' });
		// A client whose name a spreadsheet would run as a formula: the row has it as text.
		await instance.control.updateContact(someone.id, { first_name: FORMULA });
		const client: Contact = { ...someone, first_name: FORMULA };
		const customer = [{ id: client.id, role: 'Customer' }];
		const [partly, fully] = await Promise.all([
			instance.control.createInspection({
				org: 'acme',
				status: 'confirmed',
				quote: 500,
				contacts: customer,
			}),
			instance.control.createInspection({
				org: 'acme',
				status: 'confirmed',
				quote: 400,
				contacts: customer,
			}),
		]);
		const rowOf = (inspection: Json, amount: number, services = 'Full Home Inspection') => ({
			'Inspection ID': inspection.id,
			'Inspection Date': String(inspection.scheduled_for).slice(0, 10),
			Client: `'${[client.first_name, client.last_name].filter(Boolean).join(' ')}`,
			'Client Email': client.email,
			Address: (inspection.address as Json).full,
			Services: services,
			'Amount Received': amount,
			Currency: 'USD',
		});
		/** The rows without their Date, by amount; each Date is the day the payment was made (UTC). */
		const undated = (rows: Json[], paidOn: string) => {
			expect(rows.map((row) => [paidOn, todayUtc()].includes(String(row.Date)))).toEqual(
				rows.map(() => true),
			);
			return rows
				.map(({ Date: _date, ...row }) => row)
				.sort((a, b) => Number(a['Amount Received']) - Number(b['Amount Received']));
		};
		const watcher = await ExecutionWatcher.start(
			rest,
			EXAMPLES.paidToAccounting,
			'Safe spreadsheet cells',
		);
		await publishedAfterBaseline(
			EXAMPLES.paidToAccounting,
			'Inspection payment received',
			async () => {
				const paidOn = todayUtc();
				await instance.control.addPayment(String(partly.id), 100);
				await instance.control.addPayment(String(fully.id), 400);
				const rows = await itemsUntil(watcher, (items) => items.length >= 2);
				await nextPoll(EXAMPLES.paidToAccounting);
				rows.push(...(await watcher.newItems()));
				expect(undated(rows, paidOn)).toEqual([rowOf(partly, 100), rowOf(fully, 400)]);

				// An add-on sold after the payment is no payment: no row... until it is paid, and then
				// the row is that payment's. The rest of the part-paid inspection is a row of its own.
				await instance.control.addService(String(fully.id), {
					id: 'addon-1',
					name: 'Radon Test',
					kind: 'add_on',
					price: 150,
				});
				await nextPoll(EXAMPLES.paidToAccounting);
				expect(await watcher.newItems()).toEqual([]);
				const paidLater = todayUtc();
				await instance.control.addPayment(String(fully.id), 150);
				await instance.control.addPayment(String(partly.id), 400);
				const later = await itemsUntil(watcher, (items) => items.length >= 2);
				await nextPoll(EXAMPLES.paidToAccounting);
				later.push(...(await watcher.newItems()));
				expect(undated(later, paidLater)).toEqual([
					rowOf(fully, 150, 'Full Home Inspection; Radon Test'),
					rowOf(partly, 400),
				]);
			},
		);
	});
});

describe('Paid and signed → tell the team (polling trigger, a business moment)', () => {
	it('composes a message when the last of payment and signatures comes in, not before', async () => {
		await instance.control.reset();
		const inspection = await instance.control.createInspection({
			org: 'acme',
			status: 'confirmed',
		});
		const id = String(inspection.id);
		await instance.control.addAgreements(id, ['Pre-Inspection Agreement', 'Radon Addendum']);
		const watcher = await ExecutionWatcher.start(rest, EXAMPLES.paidAndSigned, 'Team message');
		await publishedAfterBaseline(EXAMPLES.paidAndSigned, 'Inspection paid and signed', async () => {
			await instance.control.payInspection(id);
			await instance.control.signAgreements(id, 0);
			await nextPoll(EXAMPLES.paidAndSigned);
			expect(await watcher.newItems()).toEqual([]);
			await instance.control.signAgreements(id, 1);
			const [message, ...more] = await itemsUntil(watcher, (items) => items.length >= 1);
			expect(more).toEqual([]);
			expect(message).toMatchObject({
				inspection_id: id,
				subject: `Paid and signed: ${(inspection.address as Json).full}`,
			});
			expect(message.text).toContain('Paid: 425 of 425');
			expect(message.text).toContain('Agreements: Pre-Inspection Agreement, Radon Addendum');
		});
	});
});

/** How the reminder writes a time: "Friday, May 1 at 8:00 AM", in UTC (the workflows' timezone here). */
function spokenUtc(iso: string): string {
	const at = new Date(iso);
	const part = (options: Intl.DateTimeFormatOptions) =>
		at.toLocaleString('en-US', { timeZone: 'UTC', ...options });
	const hours = at.getUTCHours();
	const clock = `${hours % 12 || 12}:${String(at.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
	return `${part({ weekday: 'long' })}, ${part({ month: 'long' })} ${at.getUTCDate()} at ${clock}`;
}

describe('The day before the inspection → remind the client (polling trigger, a time-based moment)', () => {
	it('composes the client reminder once 24 hours before the start, not before, once per start time, and none for an inspection never confirmed', async () => {
		await instance.control.reset();
		const [client, other] = await instance.api.all<Contact>('/v1/contacts', { role: 'client' });
		const now = Date.parse((await instance.control.getClock()).now);
		const start = Math.ceil((now + 30 * 60 * MINUTE) / MINUTE) * MINUTE;
		const book = (status: string, contact: Contact) =>
			instance.control.createInspection({
				org: 'acme',
				status,
				scheduled_for: new Date(start).toISOString(),
				duration_hours: 2,
				contacts: [{ id: contact.id, role: 'Customer' }],
			});
		const inspection = await book('confirmed', client);
		const waiting = await book('waiting', other);
		const id = String(inspection.id);
		await instance.control.addAgreements(id, ['Pre-Inspection Agreement']);
		const watcher = await ExecutionWatcher.start(rest, EXAMPLES.reminder, 'Reminder email');
		const ours = (emails: Json[]) => emails.filter((email) => email.inspection_id === id);
		try {
			await publishedAfterBaseline(EXAMPLES.reminder, 'Inspection starts in 24 hours', async () => {
				await instance.control.setClock(new Date(start - 24 * 60 * MINUTE - MINUTE).toISOString());
				await nextPoll(EXAMPLES.reminder);
				expect(ours(await watcher.newItems())).toEqual([]);

				await instance.control.setClock(new Date(start - 24 * 60 * MINUTE + MINUTE).toISOString());
				const emails = await itemsUntil(watcher, (items) => ours(items).length > 0);
				// The demo's own inspections that start within the day are reminded too; a poll
				// on, ours has not been reminded again, and the waiting one never was.
				await nextPoll(EXAMPLES.reminder);
				emails.push(...(await watcher.newItems()));
				expect(emails.filter((email) => email.inspection_id === waiting.id)).toEqual([]);
				const when = spokenUtc(new Date(start).toISOString());
				expect(ours(emails)).toEqual([
					expect.objectContaining({
						to: client.email,
						subject: `Reminder: your home inspection on ${when}`,
					}),
				]);
				const [{ text }] = ours(emails);
				expect(text).toContain(`Hi ${client.first_name},`);
				expect(text).toContain(`at ${(inspection.address as Json).full} on ${when}`);
				expect(text).toContain(
					`Please sign your inspection agreement before we arrive: ${String(inspection.portal_url)}`,
				);
				expect(text).toContain('Amount still due: 425');

				// Moved a day later: the new time's reminder comes 24 hours before it, once.
				const moved = start + 24 * 60 * MINUTE;
				await instance.control.rescheduleInspection(id, new Date(moved).toISOString());
				await nextPoll(EXAMPLES.reminder);
				expect(ours(await watcher.newItems())).toEqual([]);
				await instance.control.setClock(new Date(moved - 24 * 60 * MINUTE + MINUTE).toISOString());
				const again = await itemsUntil(watcher, (items) => ours(items).length > 0);
				await nextPoll(EXAMPLES.reminder);
				again.push(...(await watcher.newItems()));
				expect(ours(again).map((email) => email.subject)).toEqual([
					`Reminder: your home inspection on ${spokenUtc(new Date(moved).toISOString())}`,
				]);
				// Every reminder is for a confirmed inspection.
				const reminded = await instance.api.get<{ data: Inspection[] }>('/v1/inspections', {
					ids: [...emails, ...again].map((email) => email.inspection_id).join(','),
				});
				expect(reminded.data.map((one) => one.status)).toEqual(
					reminded.data.map(() => 'confirmed'),
				);
			});
		} finally {
			await instance.control.setClock(new Date().toISOString());
		}
	});
});

describe('Two days after the inspection → ask the client for a review (polling trigger, a time-based moment)', () => {
	it('composes the client email once the sandbox clock is 48 hours past the end, not before, none for an inspection never confirmed, and links the report only once it is released', async () => {
		await instance.control.reset();
		const [client, other, third] = await instance.api.all<Contact>('/v1/contacts', {
			role: 'client',
		});
		const now = Date.parse((await instance.control.getClock()).now);
		const start = now + 2 * 60 * MINUTE;
		const book = (status: string, contact: Contact) =>
			instance.control.createInspection({
				org: 'acme',
				status,
				scheduled_for: new Date(start).toISOString(),
				duration_hours: 2,
				contacts: [{ id: contact.id, role: 'Customer' }],
			});
		const inspection = await book('confirmed', client);
		const waiting = await book('waiting', other);
		// Paid and published but one agreement unsigned: not released.
		const unsigned = await book('confirmed', third);
		const id = String(inspection.id);
		// Released: paid, nothing to sign, the report published.
		await instance.control.payInspection(id);
		await instance.control.publishReports(id);
		await instance.control.payInspection(String(unsigned.id));
		await instance.control.publishReports(String(unsigned.id));
		await instance.control.addAgreements(String(unsigned.id), ['Pre-Inspection Agreement']);
		const watcher = await ExecutionWatcher.start(
			rest,
			EXAMPLES.reviewRequest,
			'Review request email',
		);
		try {
			await publishedAfterBaseline(
				EXAMPLES.reviewRequest,
				'Inspection ended 48 hours ago',
				async () => {
					const end = start + 2 * 60 * MINUTE;
					await instance.control.setClock(new Date(end + 47 * 60 * MINUTE).toISOString());
					await nextPoll(EXAMPLES.reviewRequest);
					const early = await watcher.newItems();
					expect(early.filter((item) => item.inspection_id === id)).toEqual([]);
					await instance.control.setClock(new Date(end + 48 * 60 * MINUTE + MINUTE).toISOString());
					const emails = await itemsUntil(
						watcher,
						(items) =>
							items.some((item) => item.inspection_id === id) &&
							items.some((item) => item.inspection_id === unsigned.id),
					);
					// The demo's other inspections that ended in those hours may be asked too; a few
					// polls on, the waiting one has still not been.
					await nextPoll(EXAMPLES.reviewRequest);
					emails.push(...(await watcher.newItems()));
					expect(emails.filter((item) => item.inspection_id === waiting.id)).toEqual([]);
					const ours = emails.filter((item) => item.inspection_id === id);
					expect(ours).toEqual([
						expect.objectContaining({
							to: client.email,
							subject: `How did your inspection at ${(inspection.address as Json).full} go?`,
						}),
					]);
					expect(ours[0].text).toContain(`Hi ${client.first_name},`);
					expect(ours[0].text).toContain('https://example.com/your-review-page');
					expect(ours[0].text).toContain(`Your report: ${String(inspection.portal_url)}`);
					const notReleased = emails.filter((item) => item.inspection_id === unsigned.id);
					expect(notReleased).toEqual([expect.objectContaining({ to: third.email })]);
					expect(notReleased[0].text).toContain('https://example.com/your-review-page');
					expect(notReleased[0].text).not.toContain('Your report');
					// Every request is for a confirmed inspection with a client email.
					const asked = await instance.api.get<{ data: Inspection[] }>('/v1/inspections', {
						ids: emails.map((item) => item.inspection_id).join(','),
					});
					expect(asked.data.map((one) => one.status)).toEqual(asked.data.map(() => 'confirmed'));
				},
			);
		} finally {
			await instance.control.setClock(new Date().toISOString());
		}
	});
});
