/**
 * The polling trigger through n8n-core's PollContext against the sandbox
 * serving raw records it cannot read (sandbox/raw-records.ts) among ordinary
 * ones: each is reported once as `<resource>.unreadable` with a `problem`,
 * an appointment named with a lone surrogate is reported as created, the
 * ordinary changes of the same poll and of later polls are reported once,
 * and every poll succeeds.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { runPoll, withSandbox } from '../helpers/n8n';

const sandbox = withSandbox({}, { reset: true });
const trigger = new InspectionBusinessTrigger();
const EVENTS = ['contact.updated', 'inspection.created', 'inspection_event.created'];

async function poll(staticData: IDataObject) {
	const result = await runPoll({
		node: trigger,
		parameters: { events: EVENTS, options: {} },
		credentials: sandbox.credentials(),
		staticData,
	});
	if (result.error) throw result.error;
	return result.items.map((item: INodeExecutionData) => item.json);
}

const summary = (items: IDataObject[]) =>
	items
		.map((item) => `${String(item.event)} ${String((item.record as IDataObject | null)?.id)}`)
		.sort();

afterEach(async () => await sandbox.control.clearRawRecords());

test('records the trigger cannot read are reported once each, and the polls go on', async () => {
	const contact = async (name: string) =>
		(await sandbox.control.createContact('acme', {
			first_name: name,
			email: `${name}@example.com`,
		})) as IDataObject;
	const [first, second] = [await contact('first'), await contact('second')];
	await new Promise((resolve) => setTimeout(resolve, 1_001 - (Date.now() % 1_000)));
	const staticData: IDataObject = {};
	expect(await poll(staticData)).toEqual([]);
	const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;

	const now = new Date().toISOString();
	const badId = '0b0b0b0b-0000-4000-8000-000000000001';
	await sandbox.control.addRawRecord('acme', 'contacts', 'null');
	await sandbox.control.addRawRecord('acme', 'contacts', `{"email":"x@y.z","updated_at":"${now}"}`);
	await sandbox.control.addRawRecord(
		'acme',
		'inspections',
		`{"id":"${badId}","updated_at":"not a time"}`,
	);
	const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
	await sandbox.control.addRawRecord('acme', 'inspections', `{"id":"${badId}2","deep":${deep}}`);
	const appointment = await sandbox.control.createEvent({
		inspection_id: String(inspection.id),
		name: 'Pick-up \ud83d',
	});
	await sandbox.control.updateContact(String(first.id), { city: 'Aurora' });

	const items = await poll(staticData);
	expect(summary(items)).toEqual(
		[
			'contact.unreadable undefined', // null
			'contact.unreadable undefined', // no id
			`inspection.unreadable ${badId}`,
			`inspection.unreadable ${badId}2`,
			`inspection_event.created ${appointment.id}`,
			`contact.updated ${String(first.id)}`,
			`inspection.created ${String(inspection.id)}`,
		].sort(),
	);
	expect(items.filter((item) => item.problem !== undefined)).toHaveLength(4);
	expect(items.find((item) => item.event === 'inspection_event.created')!.record).toMatchObject({
		name: 'Pick-up \ud83d',
	});

	// The overlap lists the raw records again: none is reported twice; a later change is reported.
	expect(await poll(staticData)).toEqual([]);
	await sandbox.control.updateContact(String(second.id), { city: 'Boulder' });
	expect(summary(await poll(staticData))).toEqual([`contact.updated ${String(second.id)}`]);
	expect(await poll(staticData)).toEqual([]);
});
