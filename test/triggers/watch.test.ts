/**
 * The watched fields (core/watch.ts) and how the state keeps them: packed
 * values survive a JSON round trip whatever they hold, a state written before
 * a field was watched still decodes (and says it cannot compare), the shared
 * dictionary is rebuilt when it is mostly unused, and `changes` reads as the
 * README describes it.
 */
import type { IDataObject } from 'n8n-workflow';

import { deriveEvents } from '../../nodes/InspectionBusinessTrigger/judge/judgeVersion';
import {
	fingerprintOf,
	Fingerprints,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { readState, writeState } from '../../nodes/InspectionBusinessTrigger/memory';
import {
	changesBetween,
	watchedValues,
} from '../../nodes/InspectionBusinessTrigger/memory/watchedFields';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { uuid } from './fake-api';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** Stores one fingerprint of `record` and reads it back through the stored (JSON) form. */
function roundTrip(resource: Resource, record: IDataObject) {
	const seen = new Fingerprints(resource);
	seen.set('k', fingerprintOf(resource, record));
	const stored = JSON.parse(
		JSON.stringify(
			writeState({
				resources: { [resource]: { phase: 'live', highWaterMark: T0, fingerprints: seen } },
			}),
		),
	) as IDataObject;
	return readState(stored).resources[resource]!.fingerprints.get('k')!;
}

test('watched values of every kind survive the stored form, awkward characters included', () => {
	const contact = {
		id: uuid(1),
		email: 'o,neil smith=x%@sub.example.com',
		tags: [
			{ id: uuid(2), name: 'VIP, "gold"' },
			{ id: uuid(3), name: null },
		],
		roles: ['Listing Agent', 'Customer'],
		agency_id: null,
		updated_at: iso(T0),
	};
	expect(roundTrip('contacts', contact).values).toEqual(watchedValues('contacts', contact));
	expect(roundTrip('contacts', { ...contact, email: '' }).values?.email).toBe('');
	expect(roundTrip('contacts', { ...contact, email: 'no-at-sign' }).values?.email).toBe(
		'no-at-sign',
	);

	const inspection = {
		id: uuid(4),
		status: 'on hold', // not a status the spec lists: kept as text
		reports: { status: 'published' },
		deleted: true,
		scheduled_for: iso(T0 + 3_600_000),
		price: { payment_status: 'partially paid', amount_due: 12.5 },
		updated_at: iso(T0),
	};
	expect(roundTrip('inspections', inspection).values).toEqual(
		watchedValues('inspections', inspection),
	);

	const event = {
		id: uuid(5),
		name: null,
		start_at: iso(T0),
		end_at: null,
		inspector_ids: ['insp-2', 'insp-1'],
		updated_at: iso(T0),
	};
	expect(roundTrip('events', event).values).toEqual(watchedValues('events', event));
});

test('a state written before the trigger watched these fields still decodes, and says what it cannot compare', () => {
	// Version 1 kept four inspection slots (status, reports, deleted, schedule) and no contact values.
	const scheduled = T0 + 86_400_000;
	const stored = {
		version: 1,
		inspections: {
			mode: 'live',
			position: T0,
			seen: `k=${T0.toString(36)}.abc,0,1,0,${scheduled.toString(36)}`,
		},
		contacts: { mode: 'live', position: T0, seen: `c=${T0.toString(36)}.def` },
	};
	const { resources } = readState(stored);
	const before = resources.inspections!.fingerprints.get('k')!;
	expect(before.values).toEqual({
		status: 'draft',
		'reports.status': 'pending',
		deleted: false,
		scheduled_for: scheduled,
	});
	const record = {
		id: 'k',
		status: 'confirmed',
		reports: { status: 'pending' },
		deleted: false,
		scheduled_for: iso(scheduled),
		price: { payment_status: 'paid', amount_due: 0 },
		created_at: iso(T0 - 86_400_000),
		updated_at: iso(T0 + 1000),
	};
	const derived = deriveEvents(
		'inspections',
		before,
		record,
		fingerprintOf('inspections', record),
		T0,
	);
	expect(derived.events).toEqual(['inspection.updated', 'inspection.confirmed']);
	// The price fields were not kept then: left out, not reported as changed from nothing.
	expect(derived.changes).toEqual({ status: { before: 'draft', after: 'confirmed' } });

	const contact = {
		id: 'c',
		email: 'a@b.c',
		tags: [{ id: uuid(9), name: 'VIP' }],
		created_at: iso(T0 - 86_400_000),
		updated_at: iso(T0 + 1000),
	};
	const contactBefore = resources.contacts!.fingerprints.get('c')!;
	expect(contactBefore.values).toBeUndefined();
	const contactDerived = deriveEvents(
		'contacts',
		contactBefore,
		contact,
		fingerprintOf('contacts', contact),
		T0,
	);
	// No earlier values: updated, changes null, and no tag event it cannot back up.
	expect(contactDerived).toEqual({ events: ['contact.updated'], changes: null });
});

test('the shared dictionary is rebuilt once most of it is unused', () => {
	const seen = new Fingerprints('contacts');
	const contact = (i: number, agency: string) => ({
		id: uuid(i),
		email: `c${i}@x.test`,
		agency_id: agency,
		updated_at: iso(T0 + i),
	});
	for (let i = 0; i < 400; i++)
		seen.set(String(i), fingerprintOf('contacts', contact(i, uuid(10_000 + i))));
	expect(seen.encode().dict).toHaveLength(401); // 400 agencies and one domain
	for (let i = 0; i < 400; i++)
		seen.set(String(i), fingerprintOf('contacts', contact(i, uuid(10_000))));
	const encoded = seen.encode();
	expect(encoded.dict).toHaveLength(2);
	const reread = new Fingerprints('contacts', encoded.seen, encoded.dict);
	expect(reread.get('399')?.values).toMatchObject({
		email: 'c399@x.test',
		agency_id: uuid(10_000),
	});
});

test('changes: from nothing for a new record, null when nothing is known, only what differs otherwise', () => {
	const now = watchedValues('events', {
		name: 'Drop-off',
		start_at: iso(T0),
		end_at: null,
		inspector_ids: ['i1'],
	});
	expect(changesBetween('events', 'new', now)).toEqual({
		name: { before: null, after: 'Drop-off' },
		start_at: { before: null, after: iso(T0) },
		inspector_ids: { before: [], after: ['i1'] },
	});
	expect(changesBetween('events', undefined, now)).toBeNull();
	expect(changesBetween('events', { ...now, start_at: T0 - 60_000 }, now)).toEqual({
		start_at: { before: iso(T0 - 60_000), after: iso(T0) },
	});
	expect(changesBetween('attachments', 'new', {})).toBeNull();
});
