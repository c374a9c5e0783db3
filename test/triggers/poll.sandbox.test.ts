/**
 * The polling trigger through n8n-core's PollContext (the harness's runPoll,
 * static data kept between polls) against the in-process sandbox, changed with
 * the sandbox's control API: baseline, every event with record, previous and
 * changes, the event filter, the request cost of an idle poll, and Fetch Test
 * Event.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import { readState } from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox({}, { reset: true });
const trigger = new InspectionBusinessTrigger();

const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);

async function poll(staticData: IDataObject, events = ALL_EVENTS, options: IDataObject = {}) {
	const result = await runPoll({
		node: trigger,
		parameters: { events, options: options as INodeParameters },
		credentials: sandbox.credentials(),
		staticData,
	});
	if (result.error) throw result.error;
	return result.items.map((item: INodeExecutionData) => item.json);
}

/** Whether the trigger's stored state (n8n keeps a node's under `node:<name>`) has a finished baseline. */
function baselineEnded(staticData: IDataObject): boolean {
	const [nodeData] = Object.entries(staticData).filter(([key]) => key.startsWith('node:'));
	const { resources, goesFirst } = readState((nodeData?.[1] ?? {}) as IDataObject);
	const states = Object.values(resources);
	return (
		goesFirst === undefined &&
		states.length > 0 &&
		states.every((state) => state.phase === 'live' && state.unfinishedWalk === undefined)
	);
}

/**
 * The baseline of the demo account, which emits nothing: one poll on a quiet machine, more on a
 * busy one, where the poll's 45 s run out first (each poll resumes where the last one stopped).
 */
async function baseline(events = ALL_EVENTS): Promise<IDataObject> {
	const staticData: IDataObject = {};
	for (let polls = 0; polls < 10 && (polls === 0 || !baselineEnded(staticData)); polls++)
		expect(await poll(staticData, events)).toEqual([]);
	expect(baselineEnded(staticData)).toBe(true);
	return staticData;
}

const newInspection = async (fields: IDataObject = {}) =>
	(await sandbox.control.createInspection({
		org: 'acme',
		status: 'waiting',
		scheduled_for: '2027-03-01T15:00:00.000Z',
		...fields,
	})) as IDataObject;

async function requestsByPath() {
	const log = await sandbox.control.requests({ pathPrefix: '/v1/' });
	return log.data.map((entry) => ({
		method: entry.method,
		path: entry.path,
		query: entry.query as IDataObject,
	}));
}

test('the first poll takes a baseline and emits nothing; an idle poll costs one request per watched resource', async () => {
	const staticData = await baseline();
	expect(Object.keys(staticData)).not.toHaveLength(0);

	await sandbox.control.clearRequests();
	expect(await poll(staticData)).toEqual([]);
	const requests = await requestsByPath();
	expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
		'GET /v1/contacts',
		'GET /v1/inspections',
		'GET /v1/events',
		'GET /v1/attachments',
	]);
	for (const request of requests) {
		expect(request.query.limit).toBe('200');
		expect(typeof request.query.updated_since).toBe('string');
	}
	expect(requests[0].query.sort).toBe('updated_at');
	expect(requests[1].query).toMatchObject({
		sort: 'updated_at',
		include_deleted: 'true',
		include_canceled: 'true',
	});
	// The event list takes no sort (eventsPath); the newest-first attachment list needs none.
	expect(requests[2].query.sort).toBeUndefined();
	expect(requests[3].query.sort).toBeUndefined();
});

test('only the resources the selected events need are watched', async () => {
	const staticData = await baseline(['contact.updated']);
	await sandbox.control.clearRequests();
	expect(await poll(staticData, ['contact.updated'])).toEqual([]);
	expect((await requestsByPath()).map((r) => r.path)).toEqual(['/v1/contacts']);
});

/** Version 2's items of one change: each event once, every item carrying the change's `events`. */
function oneChange(items: IDataObject[]) {
	const events = items.map((item) => item.event);
	for (const item of items) expect(item.events).toEqual(expect.arrayContaining(events));
	return { events: [...events].sort(), item: items[0] };
}

test('inspection changes made in the business tools emit their moments, an item each, with the record and what it was before', async () => {
	const staticData = await baseline();

	const created = await newInspection();
	const id = String(created.id);
	let items = await poll(staticData);
	const inspector = { id: 'insp-acme-1', name: 'Alex Rivera' };
	const service = { id: 'svc-1', name: 'Full Home Inspection' };
	// New: every watched field with a value, changed from nothing.
	const createdChanges = {
		status: { before: null, after: 'waiting' },
		'reports.status': { before: null, after: 'na' },
		scheduled_for: { before: null, after: '2027-03-01T15:00:00.000Z' },
		'price.payment_status': { before: null, after: 'unpaid' },
		'price.amount_due': { before: null, after: 425 },
		'price.amount_paid': { before: null, after: 0 },
		inspectors: { before: [], after: [inspector], added: [inspector], removed: [] },
		services: {
			before: { services: [], add_ons: [] },
			after: { services: [service], add_ons: [] },
			added: { services: [service], add_ons: [] },
			removed: { services: [], add_ons: [] },
		},
		'price.quote': { before: null, after: 425 },
	};
	const both = ['inspection.created', 'inspection.inspector_assigned'];
	expect(items).toEqual([
		{
			event: 'inspection.created',
			events: both,
			record: expect.objectContaining({ id }),
			previous: null,
			changes: createdChanges,
		},
		// The inspector a new inspection comes with is assigned: an item of its own, naming them.
		{
			event: 'inspection.inspector_assigned',
			events: both,
			record: expect.objectContaining({ id }),
			previous: null,
			changes: createdChanges,
			inspector,
		},
	]);

	await sandbox.control.confirmInspection(id);
	let change = oneChange(await poll(staticData));
	expect(change.events).toEqual(['inspection.confirmed', 'inspection.updated']);
	expect(change.item).toMatchObject({
		record: { id, status: 'confirmed' },
		previous: { status: 'waiting', scheduled_for: '2027-03-01T15:00:00.000Z', deleted: false },
		// Confirming also moves the reports from "na" to "pending".
		changes: {
			status: { before: 'waiting', after: 'confirmed' },
			'reports.status': { before: 'na', after: 'pending' },
		},
	});
	expect(Object.keys(change.item.changes as IDataObject)).toHaveLength(2);
	expect((change.item.previous as IDataObject).updated_at).toBe(created.updated_at);

	await sandbox.control.rescheduleInspection(id, '2027-03-02T09:30:00.000Z');
	change = oneChange(await poll(staticData));
	expect(change.events).toEqual(['inspection.rescheduled', 'inspection.updated']);
	expect(change.item).toMatchObject({
		record: { id, scheduled_for: '2027-03-02T09:30:00.000Z' },
		previous: { status: 'confirmed', scheduled_for: '2027-03-01T15:00:00.000Z' },
	});
	expect(change.item.changes).toEqual({
		scheduled_for: { before: '2027-03-01T15:00:00.000Z', after: '2027-03-02T09:30:00.000Z' },
	});

	await sandbox.control.payInspection(id);
	items = await poll(staticData);
	change = oneChange(items);
	// It has nothing to sign, so paid is also paid and signed; the money received comes with its amount.
	expect(change.item.record).toMatchObject({ id, agreements: { present: false } });
	expect(change.events).toEqual([
		'inspection.paid',
		'inspection.paid_and_signed',
		'inspection.payment_received',
		'inspection.updated',
	]);
	expect(items.find((item) => item.event === 'inspection.payment_received')).toMatchObject({
		amount_received: 425,
	});
	expect(change.item.changes).toEqual({
		'price.payment_status': { before: 'unpaid', after: 'paid' },
		'price.amount_due': { before: 425, after: 0 },
		'price.amount_paid': { before: 0, after: 425 },
	});

	await sandbox.control.publishReports(id);
	change = oneChange(await poll(staticData));
	expect(change.events).toEqual([
		'inspection.paid_signed_published',
		'inspection.published',
		'inspection.updated',
	]);
	expect(change.item).toMatchObject({ record: { id, reports: { status: 'published' } } });
	expect(change.item.previous).toMatchObject({ reports_status: 'pending' });
	expect(change.item.changes).toEqual({
		'reports.status': { before: 'pending', after: 'published' },
	});

	await sandbox.control.cancelInspection(id);
	change = oneChange(await poll(staticData));
	expect(change.events).toEqual(['inspection.canceled', 'inspection.updated']);
	expect(change.item).toMatchObject({
		record: { id, status: 'canceled' },
		previous: { status: 'confirmed' },
	});

	await sandbox.control.deleteInspection(id);
	change = oneChange(await poll(staticData));
	expect(change.events).toEqual(['inspection.deleted', 'inspection.updated']);
	expect(change.item).toMatchObject({
		record: { id, deleted: true },
		previous: { deleted: false },
	});
	expect(change.item.changes).toEqual({ deleted: { before: false, after: true } });
	expect((change.item.record as IDataObject).deleted_at).toEqual(expect.any(String));

	// Nothing changed since: the overlap returns the same versions again, and they are not emitted twice.
	expect(await poll(staticData)).toEqual([]);
});

test('contact changes emit contact.created and contact.updated, with the watched fields that changed', async () => {
	const staticData = await baseline();
	const contact = (await sandbox.control.createContact('acme', {
		first_name: 'Ada',
		email: 'ada@example.com',
	})) as IDataObject;
	const id = String(contact.id);
	let items = await poll(staticData);
	expect(items).toEqual([
		{
			event: 'contact.created',
			events: ['contact.created'],
			record: expect.objectContaining({ id, first_name: 'Ada' }),
			previous: null,
			changes: { email: { before: null, after: 'ada@example.com' } },
		},
	]);

	// A field the trigger does not watch: updated, with nothing in changes.
	await sandbox.control.updateContact(id, { last_name: 'Lovelace' });
	items = await poll(staticData);
	expect(items).toEqual([
		{
			event: 'contact.updated',
			events: ['contact.updated'],
			record: expect.objectContaining({ id, last_name: 'Lovelace' }),
			previous: { updated_at: contact.updated_at },
			changes: {},
		},
	]);

	await sandbox.control.updateContact(id, { email: 'ada.lovelace@example.com' });
	items = await poll(staticData);
	expect(items).toMatchObject([
		{
			event: 'contact.updated',
			changes: { email: { before: 'ada@example.com', after: 'ada.lovelace@example.com' } },
		},
	]);
});

test('tags put on and taken off a contact emit contact.tag_added and contact.tag_removed, by tag id', async () => {
	const vip = (await sandbox.control.createTag('acme', 'Trigger VIP')) as IDataObject;
	const lead = (await sandbox.control.createTag('acme', 'Trigger Lead')) as IDataObject;
	const tag = (t: IDataObject) => ({ id: t.id, name: t.name });
	const events: PollEvent[] = ['contact.tag_added', 'contact.tag_removed'];
	const staticData = await baseline(events);

	// Created with a tag: the tag was added.
	const contact = (await sandbox.control.createContact('acme', {
		first_name: 'Grace',
		email: 'grace@example.com',
		tag_ids: [vip.id],
	})) as IDataObject;
	const id = String(contact.id);
	let items = await poll(staticData, events);
	expect(items).toMatchObject([
		{
			event: 'contact.tag_added',
			events: ['contact.tag_added'],
			record: { id },
			changes: { tags: { before: [], after: [tag(vip)], added: [tag(vip)], removed: [] } },
		},
	]);

	// One tag swapped for another: both events, an item each.
	await sandbox.control.updateContact(id, { tag_ids: [lead.id] });
	items = await poll(staticData, events);
	expect(items.map((item) => item.event)).toEqual(['contact.tag_added', 'contact.tag_removed']);
	for (const item of items)
		expect(item).toMatchObject({
			events: ['contact.tag_added', 'contact.tag_removed'],
			changes: {
				tags: { before: [tag(vip)], after: [tag(lead)], added: [tag(lead)], removed: [tag(vip)] },
			},
		});

	// A change without tags is not reported to a tags-only trigger.
	await sandbox.control.updateContact(id, { notes: 'called back' });
	expect(await poll(staticData, events)).toEqual([]);

	await sandbox.control.updateContact(id, { tag_ids: [] });
	items = await poll(staticData, events);
	expect(items).toMatchObject([
		{
			event: 'contact.tag_removed',
			events: ['contact.tag_removed'],
			changes: { tags: { before: [tag(lead)], after: [], added: [], removed: [tag(lead)] } },
		},
	]);
});

test('a new attachment emits attachment.added once', async () => {
	const staticData = await baseline();
	const inspection = await newInspection();
	const form = new FormData();
	form.append('kind', 'document');
	form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'note.txt');
	const upload = await fetch(
		`${sandbox.baseUrl}/v1/inspections/${String(inspection.id)}/attachments`,
		{
			method: 'POST',
			headers: { Authorization: `Bearer ${sandbox.credentials().apiKey}` },
			body: form,
		},
	);
	expect(upload.status).toBe(201);
	const attachment = (await upload.json()) as IDataObject;

	const items = await poll(staticData, ['attachment.added']);
	expect(items).toEqual([
		{
			event: 'attachment.added',
			events: ['attachment.added'],
			record: expect.objectContaining({ id: attachment.id, inspection_id: inspection.id }),
			previous: null,
			changes: null,
		},
	]);
	expect(await poll(staticData, ['attachment.added'])).toEqual([]);
});

test('the event filter drops changes of other kinds, but the state still follows them', async () => {
	const staticData = await baseline(['inspection.confirmed']);
	const id = String((await newInspection()).id);
	await sandbox.control.rescheduleInspection(id, '2027-04-01T10:00:00.000Z');
	expect(await poll(staticData, ['inspection.confirmed'])).toEqual([]);

	await sandbox.control.confirmInspection(id);
	const items = await poll(staticData, ['inspection.confirmed']);
	expect(items).toMatchObject([
		{
			event: 'inspection.confirmed',
			events: ['inspection.confirmed'],
			previous: { scheduled_for: '2027-04-01T10:00:00.000Z' },
		},
	]);
});

test('Fetch Test Event returns the newest matching record and leaves the state untouched', async () => {
	const staticData = await baseline();
	const id = String((await newInspection()).id);
	await sandbox.control.confirmInspection(id);
	const before = JSON.stringify(staticData);

	const manual = await runPoll({
		node: trigger,
		parameters: { events: ['inspection.confirmed'], options: {} },
		credentials: sandbox.credentials(),
		staticData,
		mode: 'manual',
	});
	expect(manual.error).toBeUndefined();
	expect(manual.items.map((item) => item.json)).toEqual([
		{
			event: 'inspection.confirmed',
			events: ['inspection.confirmed'],
			record: expect.objectContaining({ id, status: 'confirmed' }),
			previous: null,
			changes: null,
		},
	]);
	expect(JSON.stringify(staticData)).toBe(before);

	// The real poll still sees the change the test run looked at.
	expect(await poll(staticData, ['inspection.confirmed'])).toMatchObject([
		{ event: 'inspection.confirmed' },
	]);
});
