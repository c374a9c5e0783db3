/**
 * The polling trigger's events and how a record change turns into them.
 * Pure: no n8n, no HTTP. A change is classified by comparing the record with
 * its last fingerprint (null when the trigger has not seen the record).
 */
import type { IDataObject } from 'n8n-workflow';

import { SIGNED_LINK_FIELDS } from '../../shared/endpoints';
import { carryReported, newRoles } from './moments';
import { inspectionMoments } from './moment-events';
import { RESOURCES, type Resource } from './resources';
import { hashText } from './unreadable';
import type { WatchedValues } from './slots';
import { changesBetween, watchedValues } from './watch';

export { KEEPS_EVERY_RECORD, RESOURCES, type Resource } from './resources';

/** The selectable events, each with the resource the trigger must watch to see it. */
export const POLL_EVENTS = {
	'contact.created': 'contacts',
	'contact.updated': 'contacts',
	'contact.tag_added': 'contacts',
	'contact.tag_removed': 'contacts',
	'contact.new_role': 'contacts',
	'inspection.created': 'inspections',
	'inspection.updated': 'inspections',
	'inspection.confirmed': 'inspections',
	'inspection.rescheduled': 'inspections',
	'inspection.canceled': 'inspections',
	'inspection.published': 'inspections',
	'inspection.deleted': 'inspections',
	'inspection.paid': 'inspections',
	'inspection.agreements_signed': 'inspections',
	'inspection.paid_and_signed': 'inspections',
	'inspection.paid_signed_published': 'inspections',
	'inspection.inspector_assigned': 'inspections',
	'inspection.inspector_removed': 'inspections',
	'inspection.fees_changed': 'inspections',
	'inspection.starting': 'inspections',
	'inspection.ended': 'inspections',
	'inspection_event.created': 'events',
	'inspection_event.updated': 'events',
	'attachment.added': 'attachments',
} as const satisfies Record<string, Resource>;
export type PollEvent = keyof typeof POLL_EVENTS;

/** What "Emit Existing Records on First Poll" labels the records that were there before activation. */
export const EXISTING_EVENTS = {
	contacts: 'contact.existing',
	inspections: 'inspection.existing',
	events: 'inspection_event.existing',
	attachments: 'attachment.existing',
} as const satisfies Record<Resource, string>;
export type EmittedEvent = PollEvent | (typeof EXISTING_EVENTS)[Resource];

/** Most specific first: an item's `event` is the first of these among its selected events. */
const PRIORITY: readonly PollEvent[] = [
	'inspection.deleted',
	'inspection.canceled',
	'inspection.paid_signed_published',
	'inspection.paid_and_signed',
	'inspection.published',
	'inspection.paid',
	'inspection.agreements_signed',
	'inspection.rescheduled',
	'inspection.confirmed',
	'inspection.fees_changed',
	'inspection.inspector_assigned',
	'inspection.inspector_removed',
	'inspection.starting',
	'inspection.ended',
	'inspection.created',
	'inspection.updated',
	'contact.new_role',
	'contact.tag_added',
	'contact.tag_removed',
	'contact.created',
	'contact.updated',
	'inspection_event.created',
	'inspection_event.updated',
	'attachment.added',
];

export const isPollEvent = (value: string): value is PollEvent => value in POLL_EVENTS;

/** Only the resources the selected events need, in a fixed order. */
export function watchedResources(events: readonly PollEvent[]): Resource[] {
	const needed = new Set(events.map((event) => POLL_EVENTS[event]));
	return RESOURCES.filter((resource) => needed.has(resource));
}

/**
 * What the trigger remembers about a record version: its updated_at (ms,
 * server clock), a hash of its content, so a new version is recognised even
 * when its updated_at is not newer (a clock set back, a restore), and its
 * watched values (watch.ts), which the derived events and `changes` compare.
 * `contentHash` is undefined only in a state stored before it existed: then
 * updated_at alone decides. `values` is undefined, or lacks a field, in a
 * state stored before the trigger watched it.
 */
export interface Fingerprint {
	updatedAt: number;
	contentHash?: string;
	values?: WatchedValues;
}

const parseTime = (value: unknown): number | null => {
	if (typeof value !== 'string' || value === '') return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : ms;
};

/** The identity of a record: attachment ids are unique only within their inspection. */
export function recordKey(resource: Resource, record: IDataObject): string | null {
	const id = record.id;
	if (typeof id !== 'string' && typeof id !== 'number') return null;
	if (resource !== 'attachments') return String(id);
	const inspectionId = record.inspection_id;
	return typeof inspectionId === 'string' ? `${inspectionId}/${String(id)}` : null;
}

/** A record's change time; attachments may lack updated_at, and then created_at stands in. */
export const changeTime = (record: IDataObject): number =>
	parseTime(record.updated_at) ?? parseTime(record.created_at) ?? 0;

/** The record as JSON with its keys sorted at every level, so equal content gives equal text. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

const SIGNED_LINKS: ReadonlySet<string> = new Set(SIGNED_LINK_FIELDS);

/**
 * A short hash (32-bit FNV-1a, base 36) of a record version's content. Signed
 * links are left out: they are minted afresh on every read, the record has not
 * changed. 32 bits keep the state small; two versions of one record colliding
 * is a 1 in 4 billion chance per change.
 */
export function contentHashOf(record: IDataObject): string {
	const content = Object.fromEntries(
		Object.entries(record).filter(([field]) => !SIGNED_LINKS.has(field)),
	);
	return hashText(canonicalJson(content));
}

/** Whether a listed record is the version the fingerprint describes (seen before). */
export function sameVersion(seen: Fingerprint, current: Fingerprint): boolean {
	if (seen.contentHash === undefined) return seen.updatedAt >= current.updatedAt;
	return seen.updatedAt === current.updatedAt && seen.contentHash === current.contentHash;
}

/** `previous`: the version seen before, whose reported time-based moments carry over (moments.ts). */
export function fingerprintOf(
	resource: Resource,
	record: IDataObject,
	previous?: Fingerprint | null,
): Fingerprint {
	const values = watchedValues(resource, record);
	if (resource === 'inspections') carryReported(previous?.values, values);
	return { updatedAt: changeTime(record), contentHash: contentHashOf(record), values };
}

/** The `previous` of an emitted item: what the trigger last saw, in the API's own field names. */
export function publicFingerprint(resource: Resource, fp: Fingerprint): IDataObject {
	const updatedAt = new Date(fp.updatedAt).toISOString();
	if (resource !== 'inspections') return { updated_at: updatedAt };
	const v = fp.values ?? {};
	const scheduled = v.scheduled_for;
	return {
		updated_at: updatedAt,
		status: v.status ?? null,
		scheduled_for: typeof scheduled === 'number' ? new Date(scheduled).toISOString() : null,
		reports_status: v['reports.status'] ?? null,
		deleted: v.deleted ?? false,
	};
}

const atOrAfter = (time: number | null, from: number | null) =>
	from === null || (time !== null && time >= from);

/** The events one new record version means, before the user's selection, and its `changes`. */
export interface Derived {
	events: PollEvent[];
	changes: IDataObject | null;
}

/** One new record version and what it is compared with. */
interface VersionChange {
	previous: Fingerprint | null;
	record: IDataObject;
	/** The new version's watched values. */
	now: WatchedValues;
	/** The window start (null: everything is new). */
	from: number | null;
	/** First seen, with created_at inside the window. */
	created: boolean;
}

function attachmentEvents({ previous, record, from }: VersionChange): Derived {
	const addedAt = parseTime(record.created_at);
	const added = previous === null && (addedAt === null || atOrAfter(addedAt, from));
	return { events: added ? ['attachment.added'] : [], changes: null };
}

function inspectionEventEvents({ previous, record, now, created }: VersionChange): Derived {
	// An appointment may have no created_at: first seen, it is new.
	const isNew = previous === null && (record.created_at == null || created);
	return {
		events: [isNew ? 'inspection_event.created' : 'inspection_event.updated'],
		changes: changesBetween('events', isNew ? 'new' : previous?.values, now),
	};
}

function contactEvents({ previous, now, created }: VersionChange): Derived {
	const changes = changesBetween('contacts', created ? 'new' : previous?.values, now);
	const events: PollEvent[] = [created ? 'contact.created' : 'contact.updated'];
	const tags = changes?.tags as IDataObject | undefined;
	if ((tags?.added as unknown[] | undefined)?.length) events.push('contact.tag_added');
	if ((tags?.removed as unknown[] | undefined)?.length) events.push('contact.tag_removed');
	// A role the contact never had: its roles are every role it has had, so one not there before is new.
	const before = created ? [] : previous?.values?.roles;
	if (before !== undefined && newRoles(before, now.roles).length > 0)
		events.push('contact.new_role');
	return { events, changes };
}

type StatusEvent =
	| 'inspection.confirmed'
	| 'inspection.canceled'
	| 'inspection.published'
	| 'inspection.deleted';

/**
 * Each status event's rule, on a version's watched values. The poll reports
 * the event when its rule became true since the version seen before; Fetch
 * Test Event (sample.ts) picks a record for which it holds.
 */
export const STATUS_RULES: Record<StatusEvent, (values: WatchedValues) => boolean> = {
	'inspection.confirmed': (v) => v.status === 'confirmed',
	'inspection.canceled': (v) => v.status === 'canceled',
	'inspection.published': (v) => v['reports.status'] === 'published',
	'inspection.deleted': (v) => v.deleted === true,
};

/** A scheduled time that can move; rescheduled is one such time moved to another. */
export const hasSchedule = (values: WatchedValues | undefined) =>
	typeof values?.scheduled_for === 'number';

/**
 * The status events of an inspection: each when its rule became true since
 * the last version seen. A record seen for the first time can only be judged
 * by its own timestamps: created inside the window, or canceled or deleted
 * inside it.
 */
function inspectionEvents({ previous, record, now, from, created }: VersionChange): Derived {
	const changes = changesBetween('inspections', created ? 'new' : previous?.values, now);
	const before = previous?.values;
	const events: PollEvent[] = [created ? 'inspection.created' : 'inspection.updated'];
	const unseenEvidence: Record<StatusEvent, boolean> = {
		'inspection.confirmed': created,
		'inspection.canceled': created || atOrAfter(parseTime(record.canceled_at), from),
		'inspection.published': created,
		'inspection.deleted': created || atOrAfter(parseTime(record.deleted_at), from),
	};
	const became = (event: StatusEvent) => {
		const rule = STATUS_RULES[event];
		if (!rule(now)) return false;
		return previous === null ? unseenEvidence[event] : !(before !== undefined && rule(before));
	};
	if (became('inspection.confirmed')) events.push('inspection.confirmed');
	if (hasSchedule(before) && hasSchedule(now) && before!.scheduled_for !== now.scheduled_for)
		events.push('inspection.rescheduled');
	for (const event of [
		'inspection.canceled',
		'inspection.published',
		'inspection.deleted',
	] as const)
		if (became(event)) events.push(event);
	events.push(...inspectionMoments(previous === null ? null : (before ?? {}), now, created));
	return { events, changes };
}

const EVENTS_OF: Record<Resource, (change: VersionChange) => Derived> = {
	attachments: attachmentEvents,
	events: inspectionEventEvents,
	contacts: contactEvents,
	inspections: inspectionEvents,
};

/**
 * `from` is the window start (null: everything is new). A record first seen
 * with created_at inside the window was created; the status events of a record
 * seen for the first time can only be told from its own timestamps.
 */
export function deriveEvents(
	resource: Resource,
	previous: Fingerprint | null,
	record: IDataObject,
	current: Fingerprint,
	from: number | null,
): Derived {
	const created = previous === null && atOrAfter(parseTime(record.created_at), from);
	return EVENTS_OF[resource]({ previous, record, now: current.values ?? {}, from, created });
}

/** The item's headline event: the most specific of the selected ones. */
export const primaryEvent = (events: readonly PollEvent[]): PollEvent =>
	PRIORITY.find((event) => events.includes(event)) ?? events[0];
