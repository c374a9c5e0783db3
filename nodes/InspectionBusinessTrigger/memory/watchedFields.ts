/**
 * The fields the polling trigger watches, per resource: what a fingerprint
 * keeps of each record version, what the events compare, and what an item's
 * `changes` reports (before and after). One table; the state packs the values
 * in its order, so a field is only ever appended (older states then simply
 * lack it). Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { INSPECTION_STATUSES, REPORT_STATUSES } from '../../shared/endpoints';
import { apiTime, child } from '../../shared/inspectionFacts';
import type { Resource } from '../resources';
import { keptText } from './bounds';
import { carryReported, factsOf } from './keptFacts';
import {
	namedDiff,
	namedKeys,
	newEntries,
	rolesHad,
	serviceKeys,
	servicesDiff,
	showNamed,
	showServices,
	textKeys,
} from './namedLists';
import {
	type Codec,
	type Dictionary,
	NULL_SLOT,
	packValue,
	unpackValue,
	type WatchedValue,
	type WatchedValues,
} from './packing';

/** Payment statuses seen in the API's examples (the contract lists none): packed small, others kept. */
const PAYMENT_STATUSES = ['paid', 'unpaid', 'partial'];

interface WatchedField {
	/** The field's path in the API's record, and its key in `changes`. */
	name: string;
	codec: Codec;
	read: (record: IDataObject) => WatchedValue;
	/** What the new version keeps of the value the version before held (default: nothing). */
	carry?: (before: WatchedValue | undefined, now: WatchedValue) => WatchedValue;
	/** The value as `changes` shows it (default: as held). */
	show?: (value: WatchedValue) => unknown;
	/** What `changes` adds as `added` and `removed` (default: nothing). */
	diff?: (before: WatchedValue | undefined, after: WatchedValue) => IDataObject;
	/** Held for the events (the kept facts), never shown in `changes`. */
	hidden?: true;
}

const text = (value: unknown): string | null =>
	typeof value === 'string' ? keptText(value) : null;
const showTime = (value: WatchedValue) =>
	typeof value === 'number' ? new Date(value).toISOString() : null;
const showCode = (value: WatchedValue) => (value === '' ? null : value);

export const WATCHED_FIELDS: Record<Resource, readonly WatchedField[]> = {
	contacts: [
		{ name: 'email', codec: { kind: 'email' }, read: (r) => text(r.email) },
		{
			name: 'tags',
			codec: { kind: 'refs' },
			read: (r) => namedKeys(r.tags),
			show: showNamed,
			diff: namedDiff,
		},
		{
			// The roles it has had: a role left out of a later version stays (namedLists.ts rolesHad).
			name: 'roles',
			codec: { kind: 'refs' },
			read: (r) => textKeys(r.roles),
			carry: rolesHad,
			diff: (before, after) => ({
				added: newEntries(before, after),
				removed: newEntries(after, before),
			}),
		},
		{ name: 'agency_id', codec: { kind: 'ref' }, read: (r) => text(r.agency_id) },
	],
	// The first four are the fingerprint of state version 1, in its order.
	inspections: [
		{
			name: 'status',
			codec: { kind: 'code', codes: INSPECTION_STATUSES },
			read: (r) => text(r.status) ?? '',
			show: showCode,
		},
		{
			name: 'reports.status',
			codec: { kind: 'code', codes: REPORT_STATUSES },
			read: (r) => text(child(r, 'reports').status) ?? '',
			show: showCode,
		},
		{ name: 'deleted', codec: { kind: 'bool' }, read: (r) => r.deleted === true },
		{
			name: 'scheduled_for',
			codec: { kind: 'time' },
			read: (r) => apiTime(r.scheduled_for),
			show: showTime,
		},
		{
			name: 'price.payment_status',
			// Packed as a code from the values the sandbox and the docs use; any other text is kept as is.
			codec: { kind: 'code', codes: PAYMENT_STATUSES },
			read: (r) => text(child(r, 'price').payment_status),
		},
		{
			name: 'price.amount_due',
			codec: { kind: 'number' },
			read: (r) => {
				const due = child(r, 'price').amount_due;
				return typeof due === 'number' ? due : null;
			},
		},
		// Paid, signed, nothing to sign, the length, and what was reported, in one slot (keptFacts.ts).
		{
			name: 'facts',
			codec: { kind: 'counts' },
			read: factsOf,
			carry: carryReported,
			hidden: true,
		},
		{
			name: 'inspectors',
			codec: { kind: 'refs' },
			read: (r) => namedKeys(r.inspectors),
			show: showNamed,
			diff: namedDiff,
		},
		{
			name: 'services',
			codec: { kind: 'refs' },
			read: serviceKeys,
			show: showServices,
			diff: servicesDiff,
		},
		{
			// Quotes repeat (a business has a price list): held once in the dictionary, as text.
			name: 'price.quote',
			codec: { kind: 'ref' },
			read: (r) => {
				const quote = child(r, 'price').quote;
				return typeof quote === 'number' ? String(quote) : null;
			},
			show: (value) => (value === null ? null : Number(value)),
		},
	],
	events: [
		{ name: 'name', codec: { kind: 'text' }, read: (r) => text(r.name) },
		{
			name: 'start_at',
			codec: { kind: 'time' },
			read: (r) => apiTime(r.start_at),
			show: showTime,
		},
		{ name: 'end_at', codec: { kind: 'time' }, read: (r) => apiTime(r.end_at), show: showTime },
		{ name: 'inspector_ids', codec: { kind: 'refs' }, read: (r) => textKeys(r.inspector_ids) },
	],
	// An attachment is only ever added: nothing to compare.
	attachments: [],
};

/**
 * A record version's watched values; `before`: the values of the version seen
 * before, whose kept parts carry over (what was reported, the roles it had).
 */
export function watchedValues(
	resource: Resource,
	record: IDataObject,
	before?: WatchedValues,
): WatchedValues {
	const values: WatchedValues = {};
	for (const field of WATCHED_FIELDS[resource]) {
		const now = field.read(record);
		values[field.name] = field.carry && before ? field.carry(before[field.name], now) : now;
	}
	return values;
}

const sameValue = (a: WatchedValue | undefined, b: WatchedValue | undefined) =>
	Array.isArray(a) && Array.isArray(b)
		? a.length === b.length && a.every((v, i) => v === b[i])
		: a === b;

const isEmpty = (value: WatchedValue) =>
	value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0);

/**
 * An item's `changes`: each watched field whose value differs, with its value
 * before and after (lists add `added` and `removed`, by id). `before` 'new': the
 * record is new, and every watched field with a value counts as changed from
 * nothing. `before` undefined gives null: the trigger holds no earlier values to
 * compare with (an earlier version it no longer keeps, or one stored before it
 * watched them); so does a resource with no watched fields.
 */
export function changesBetween(
	resource: Resource,
	before: WatchedValues | undefined | 'new',
	after: WatchedValues,
): IDataObject | null {
	if (before === undefined || WATCHED_FIELDS[resource].length === 0) return null;
	const created = before === 'new';
	const changes: IDataObject = {};
	for (const field of WATCHED_FIELDS[resource]) {
		const now = after[field.name];
		if (now === undefined || field.hidden) continue;
		const old = created ? undefined : before[field.name];
		if (created ? isEmpty(now) : old === undefined || sameValue(old, now)) continue;
		const show = field.show ?? ((value: WatchedValue) => value);
		const change: IDataObject = {
			before: old === undefined ? (Array.isArray(now) ? show([]) : null) : show(old),
			after: show(now),
		} as IDataObject;
		if (field.diff) Object.assign(change, field.diff(old, now));
		changes[field.name] = change;
	}
	return changes;
}

/**
 * The values as comma-separated slots in the table's order (no comma or space inside a slot).
 * They end at the first field the values lack: read from a state written before that field was
 * watched, it and those after it stay unknown, not empty, when the fingerprint is stored again
 * (an empty inspector list would make every inspector look newly assigned).
 */
export function packValues(resource: Resource, values: WatchedValues, dict: Dictionary): string[] {
	const slots: string[] = [];
	for (const field of WATCHED_FIELDS[resource]) {
		if (!(field.name in values)) break;
		slots.push(packValue(field.codec, values[field.name] ?? null, dict));
	}
	return slots;
}

/** Slots missing at the end (a state written before those fields were watched) stay unknown. */
export function unpackValues(
	resource: Resource,
	slots: readonly string[],
	dict: Dictionary,
): WatchedValues | undefined {
	if (slots.length === 0) return undefined;
	const values: WatchedValues = {};
	WATCHED_FIELDS[resource].forEach((field, i) => {
		if (i < slots.length) values[field.name] = unpackValue(field.codec, slots[i], dict);
	});
	return values;
}

/** The dictionary indexes a packed fingerprint's slots use (to tell when the dictionary is worth compacting). */
export function refsIn(resource: Resource, slots: readonly string[]): number[] {
	const used: number[] = [];
	WATCHED_FIELDS[resource].forEach((field, i) => {
		const slot = slots[i];
		if (slot === undefined || slot === NULL_SLOT) return;
		if (field.codec.kind === 'ref') used.push(parseInt(slot, 36));
		if (field.codec.kind === 'email' && slot.includes('@'))
			used.push(parseInt(slot.slice(slot.indexOf('@') + 1), 36));
		if (field.codec.kind === 'refs') for (const s of slot.split('+')) used.push(parseInt(s, 36));
	});
	return used;
}
