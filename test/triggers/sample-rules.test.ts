/**
 * Fetch Test Event (core/sample.ts) and the poll (core/events.ts,
 * core/moment-events.ts) judge each event by one rule: an inspection that is
 * a Fetch Test Event sample for an event is one a poll reports that event for
 * when it first sees it created, and the other way round. Only the stand-ins
 * (rescheduled, fees changed, starting, ended), which need a version before,
 * are the sample's own.
 */
import type { IDataObject } from 'n8n-workflow';

import { deriveEvents, type PollEvent } from '../../nodes/InspectionBusinessTrigger/core/events';
import { pickSample } from '../../nodes/InspectionBusinessTrigger/core/sample';
import { watchedValues } from '../../nodes/InspectionBusinessTrigger/core/watch';

const JUDGED: PollEvent[] = [
	'inspection.created',
	'inspection.confirmed',
	'inspection.canceled',
	'inspection.published',
	'inspection.deleted',
	'inspection.paid',
	'inspection.agreements_signed',
	'inspection.paid_and_signed',
	'inspection.paid_signed_published',
	'inspection.inspector_assigned',
];

const T = '2030-03-01T10:00:00.000Z';
const prices = [
	{ paid: true, amount_due: 0, payment_status: 'paid' },
	{ paid: false, amount_paid: 100, amount_due: 300, payment_status: 'partial' },
	{ payment_status: 'Paid' },
	{ amount_paid: 400, amount_due: 0 },
	null,
];
const agreements = [
	{ present: true, all_signed: true, items: [{ name: 'A', status: 'signed', signed_at: T }] },
	{ present: true, all_signed: false, items: [{ name: 'A', status: null, signed_at: null }] },
	{ present: false, all_signed: false, items: [] },
];
const inspectors = [[], [{ id: 'i-1', name: 'Alex' }], [{ name: 'no id' }], null];
const statuses = ['confirmed', 'canceled', 'draft', 'Confirmed', undefined];
const reports = [{ status: 'published' }, { status: 'pending' }, null, 'published'];

function* records(): Generator<IDataObject> {
	let n = 0;
	for (const price of prices)
		for (const agreement of agreements)
			for (const inspector of inspectors)
				for (const status of statuses)
					for (const report of reports) {
						n += 1;
						yield {
							id: `insp-${n}`,
							status,
							reports: report,
							price,
							agreements: agreement,
							inspectors: inspector,
							deleted: n % 7 === 0,
							scheduled_for: n % 3 === 0 ? 'not a time' : T,
							created_at: T,
							updated_at: T,
						};
					}
}

const pollEvents = (record: IDataObject) =>
	deriveEvents(
		'inspections',
		null,
		record,
		{ updatedAt: Date.parse(T), values: watchedValues('inspections', record) },
		null,
	).events;

test('each event is a sample exactly when the poll reports it for the record first seen', () => {
	let checked = 0;
	const disagreements: string[] = [];
	for (const record of records()) {
		const reported = new Set(pollEvents(record));
		for (const event of JUDGED) {
			const sampled =
				pickSample([{ resource: 'inspections', records: [record] }], [event], 0) !== null;
			checked += 1;
			if (sampled !== reported.has(event))
				disagreements.push(`${event} on ${JSON.stringify(record)}: sample ${sampled}`);
		}
	}
	expect(disagreements).toEqual([]);
	expect(checked).toBe(5 * 3 * 4 * 5 * 4 * JUDGED.length);
});

test('the inspector a sample names is the first one the rule counts, one with an id', () => {
	const record = {
		id: 'insp-x',
		inspectors: [{ name: 'no id' }, { id: 'i-2', name: 'Sam' }],
		created_at: T,
		updated_at: T,
	};
	expect(
		pickSample(
			[{ resource: 'inspections', records: [record] }],
			['inspection.inspector_assigned'],
			0,
		),
	).toMatchObject({ inspector: { id: 'i-2', name: 'Sam' } });
});
