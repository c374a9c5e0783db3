/**
 * Each business moment made with the sandbox's control routes
 * (sandbox/control-moments.ts) and reported by the polling trigger through
 * n8n-core's PollContext: once, at the first poll after it happened, with the
 * right event and record; the time-based ones with the sandbox clock.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import { runPoll, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox({}, { reset: true });
const trigger = new InspectionBusinessTrigger();
const HOUR = 3_600_000;

/**
 * Waits into the next whole second: a baseline reports the versions dated after its first
 * answer's Date header, which counts whole seconds, so a record set up in that same second
 * may be reported by the baseline (docs/polling-trigger.md, the first activation).
 */
const nextSecond = async () =>
	await new Promise((resolve) => setTimeout(resolve, 1_001 - (Date.now() % 1_000)));

/** `settings`: the moments' settings, which version 2 keeps beside the events. */
function poller(events: PollEvent[], settings: IDataObject = {}) {
	const staticData: IDataObject = {};
	let first = true;
	return async () => {
		if (first) await nextSecond();
		first = false;
		const result = await runPoll({
			node: trigger,
			parameters: { events, ...settings, options: {} } as INodeParameters,
			credentials: sandbox.credentials(),
			staticData,
		});
		if (result.error) throw result.error;
		return result.items.map((item: INodeExecutionData) => item.json);
	};
}

const summary = (items: IDataObject[]) =>
	items.map((item) => ({
		event: item.event,
		events: item.events,
		id: (item.record as IDataObject).id,
		...(item.inspector ? { inspector: item.inspector } : {}),
	}));

test('payments, signatures, publication, inspectors and fees: each moment once, with its record', async () => {
	const { control } = sandbox;
	const created = await control.createInspection({
		org: 'acme',
		status: 'confirmed',
		scheduled_for: '2027-03-01T15:00:00.000Z',
	});
	const id = String(created.id);
	await control.addAgreements(id, ['Pre-Inspection Agreement', 'Radon Addendum']);
	const poll = poller([
		'inspection.paid',
		'inspection.agreements_signed',
		'inspection.paid_and_signed',
		'inspection.paid_signed_published',
		'inspection.inspector_assigned',
		'inspection.inspector_removed',
		'inspection.fees_changed',
	]);
	expect(await poll()).toEqual([]);

	await control.addPayment(id, 100);
	expect(await poll()).toEqual([]);
	await control.addPayment(id, 325);
	expect(summary(await poll())).toEqual([
		{ event: 'inspection.paid', events: ['inspection.paid'], id },
	]);
	await control.signAgreements(id, 0);
	expect(await poll()).toEqual([]);
	await control.signAgreements(id, 1);
	const signed = ['inspection.agreements_signed', 'inspection.paid_and_signed'];
	expect(summary(await poll())).toEqual(signed.map((event) => ({ event, events: signed, id })));
	await control.publishReports(id);
	expect(summary(await poll())).toEqual([
		{
			event: 'inspection.paid_signed_published',
			events: ['inspection.paid_signed_published'],
			id,
		},
	]);

	await control.assignInspector(id, { id: 'insp-acme-7', name: 'Jordan Lee' });
	await control.removeInspector(id, 'insp-acme-1');
	const moved = ['inspection.inspector_assigned', 'inspection.inspector_removed'];
	expect(summary(await poll())).toEqual([
		{
			event: 'inspection.inspector_assigned',
			events: moved,
			id,
			inspector: { id: 'insp-acme-7', name: 'Jordan Lee' },
		},
		{
			event: 'inspection.inspector_removed',
			events: moved,
			id,
			inspector: { id: 'insp-acme-1', name: 'Alex Rivera' },
		},
	]);

	await control.addService(id, { id: 'addon-9', name: 'Sewer Scope', kind: 'add_on', price: 175 });
	const [fees, ...more] = await poll();
	expect(more).toEqual([]);
	expect(fees).toMatchObject({
		event: 'inspection.fees_changed',
		record: { id, add_ons: [{ id: 'addon-9', name: 'Sewer Scope', quantity: 1 }] },
		changes: {
			services: { added: { services: [], add_ons: [{ id: 'addon-9', name: 'Sewer Scope' }] } },
			'price.quote': { before: 425, after: 600 },
		},
	});
	// Nothing since: the overlap re-reads those versions and reports none again.
	expect(await poll()).toEqual([]);
});

test('a contact put on an inspection in a role it never had takes a new role', async () => {
	const { control } = sandbox;
	const contact = await control.createContact('acme', {
		first_name: 'Rae',
		email: 'rae.moments@example.com',
	});
	const first = await control.createInspection({ org: 'acme' });
	const poll = poller(['contact.new_role']);
	await poll();
	await control.addContactToInspection(String(first.id), String(contact.id), 'Customer');
	expect(await poll()).toMatchObject([
		{ event: 'contact.new_role', record: { id: contact.id }, new_roles: ['Customer'] },
	]);
	const second = await control.createInspection({ org: 'acme' });
	await control.addContactToInspection(String(second.id), String(contact.id), 'Customer');
	expect(await poll()).toEqual([]);
	await control.addContactToInspection(String(second.id), String(contact.id), 'Buyer Agent');
	expect(await poll()).toMatchObject([{ new_roles: ['Buyer Agent'] }]);
});

test('starting and ended come with the sandbox clock, once, not before; an idle poll makes one request', async () => {
	const { control } = sandbox;
	const now = Date.parse((await control.getClock()).now);
	const start = now + 30 * HOUR;
	const created = await control.createInspection({
		org: 'acme',
		status: 'confirmed',
		scheduled_for: new Date(start).toISOString(),
		duration_hours: 3,
	});
	const id = String(created.id);
	const poll = poller(['inspection.starting', 'inspection.ended'], {
		startingHours: 24,
		endedHours: 48,
	});
	// The demo account's other inspections have their moments too: only this one's are looked at.
	const ours = async () => summary(await poll()).filter((item) => item.id === id);
	await poll();
	await control.clearRequests();
	expect(await poll()).toEqual([]);
	expect((await control.requests({ pathPrefix: '/v1/' })).count).toBe(1);
	await control.setClock(new Date(start - 24 * HOUR - 5 * 60_000).toISOString());
	expect(await ours()).toEqual([]);
	await control.setClock(new Date(start - 24 * HOUR + 60_000).toISOString());
	expect(await ours()).toEqual([
		{ event: 'inspection.starting', events: ['inspection.starting'], id },
	]);
	expect(await ours()).toEqual([]);
	await control.setClock(new Date(start + 3 * HOUR + 47 * HOUR).toISOString());
	expect(await ours()).toEqual([]);
	await control.setClock(new Date(start + 3 * HOUR + 49 * HOUR).toISOString());
	expect(await ours()).toEqual([{ event: 'inspection.ended', events: ['inspection.ended'], id }]);
	expect(await ours()).toEqual([]);
});
