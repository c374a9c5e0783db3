/**
 * The fields the polling trigger watches, per resource: what a fingerprint
 * keeps of each record version, what the derived events compare, and what an
 * item's `changes` reports (before and after). One table; the state packs the
 * values in its order, so a field is only ever appended (older states then
 * simply lack it). Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { INSPECTION_STATUSES, REPORT_STATUSES } from '../../shared/endpoints';
import {
	child,
	factsOf,
	inspectorsDiff,
	namedKeys,
	namedOf,
	newRoles,
	serviceKeys,
	servicesDiff,
	showServices,
} from './moments';
import type { Resource } from './resources';
import {
	type Codec,
	type Dictionary,
	NULL_SLOT,
	packValue,
	unpackValue,
	type WatchedValue,
	type WatchedValues,
} from './slots';

/** Payment statuses seen in the API's examples (the contract lists none): packed small, others kept. */
const PAYMENT_STATUSES = ['paid', 'unpaid', 'partial'];

interface WatchedField {
	/** The field's path in the API's record, and its key in `changes`. */
	name: string;
	codec: Codec;
	read: (record: IDataObject) => WatchedValue;
	/** The value as `changes` shows it (default: as held). */
	show?: (value: WatchedValue) => unknown;
	/** What `changes` adds as `added` and `removed` (default: nothing). */
	diff?: (before: WatchedValue | undefined, after: WatchedValue) => IDataObject;
	/** Held for the moments (moments.ts), never shown in `changes`. */
	hidden?: true;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const time = (value: unknown): number | null => {
	if (typeof value !== 'string' || value === '') return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : ms;
};
const strings = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').sort() : [];
const showTime = (value: WatchedValue) =>
	typeof value === 'number' ? new Date(value).toISOString() : null;
const showCode = (value: WatchedValue) => (value === '' ? null : value);

/** A tag is held as the JSON of [id, name]: a renamed tag is another value, an id decides added/removed. */
const tagKeys = (value: unknown): string[] =>
	Array.isArray(value)
		? value
				.filter((t): t is IDataObject => typeof t === 'object' && t !== null)
				.map((t) => JSON.stringify([String(t.id), t.name ?? null]))
				.sort()
		: [];
const tagOf = (key: string) => {
	const [id, name] = JSON.parse(key) as [string, string | null];
	return { id, name };
};
const showTags = (value: WatchedValue) => (Array.isArray(value) ? value.map(tagOf) : []);
const showNamed = (value: WatchedValue) => (Array.isArray(value) ? value.map(namedOf) : []);

export const WATCHED_FIELDS: Record<Resource, readonly WatchedField[]> = {
	contacts: [
		{ name: 'email', codec: { kind: 'email' }, read: (r) => text(r.email) },
		{ name: 'tags', codec: { kind: 'refs' }, read: (r) => tagKeys(r.tags), show: showTags },
		{
			name: 'roles',
			codec: { kind: 'refs' },
			read: (r) => strings(r.roles),
			diff: (before, after) => ({
				added: newRoles(before, after),
				removed: newRoles(after, before),
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
			read: (r) => time(r.scheduled_for),
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
		// The moments' fields (moments.ts): paid, signed, length and what was reported, in one number.
		{ name: 'moments', codec: { kind: 'count' }, read: factsOf, hidden: true },
		{
			name: 'inspectors',
			codec: { kind: 'refs' },
			read: (r) => namedKeys(r.inspectors),
			show: showNamed,
			diff: inspectorsDiff,
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
		{ name: 'start_at', codec: { kind: 'time' }, read: (r) => time(r.start_at), show: showTime },
		{ name: 'end_at', codec: { kind: 'time' }, read: (r) => time(r.end_at), show: showTime },
		{ name: 'inspector_ids', codec: { kind: 'refs' }, read: (r) => strings(r.inspector_ids) },
	],
	// An attachment is only ever added: nothing to compare.
	attachments: [],
};

export function watchedValues(resource: Resource, record: IDataObject): WatchedValues {
	const values: WatchedValues = {};
	for (const field of WATCHED_FIELDS[resource]) values[field.name] = field.read(record);
	return values;
}

const sameValue = (a: WatchedValue | undefined, b: WatchedValue | undefined) =>
	Array.isArray(a) && Array.isArray(b)
		? a.length === b.length && a.every((v, i) => v === b[i])
		: a === b;

const isEmpty = (value: WatchedValue) =>
	value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0);

const tagIds = (value: WatchedValue | undefined) =>
	new Set(Array.isArray(value) ? value.map((key) => tagOf(key).id) : []);

/** The tags in `a` whose id is not in `b`. */
function tagsMissing(a: WatchedValue | undefined, b: WatchedValue | undefined) {
	const ids = tagIds(b);
	return (Array.isArray(a) ? a : []).map(tagOf).filter((tag) => !ids.has(tag.id));
}

/**
 * An item's `changes`: each watched field whose value differs, with its value
 * before and after (tags add `added` and `removed`, by id). `before` 'new': the
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
		if (field.name === 'tags') {
			change.added = tagsMissing(now, old);
			change.removed = tagsMissing(old, now);
		}
		if (field.diff) Object.assign(change, field.diff(old, now));
		changes[field.name] = change;
	}
	return changes;
}

/** The values as comma-separated slots in the table's order (no comma or space inside a slot). */
export function packValues(resource: Resource, values: WatchedValues, dict: Dictionary): string[] {
	return WATCHED_FIELDS[resource].map((field) =>
		packValue(field.codec, values[field.name] ?? null, dict),
	);
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
