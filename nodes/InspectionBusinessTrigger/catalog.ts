/**
 * The polling trigger's events: one row each, the one place an event is
 * defined. A row gives the event's value (the item's `event`), its label and
 * description in the editor, the list it is read from, its rule, and what
 * stands in for it in Fetch Test Event, and its priority (an item's `event`
 * is the most specific of its events). The node's Events options,
 * the rules the poll applies, Fetch Test Event and the docs' event table
 * (scripts/events-doc.ts) are all made from these rows.
 *
 * A new event is one row (and, if the words below do not say it yet, its rule
 * in judge/change.ts). The file is longer than most: it is the table, a row
 * per event, and what the rest of the trigger asks of it.
 */
import { apiTime } from '../shared/inspectionFacts';
import {
	addedTo,
	allOf,
	became,
	type Change,
	differs,
	FACTS,
	firstSeen,
	newIn,
	ownTimeInWindow,
	removedFrom,
	rescheduled,
} from './judge/change';
import { RESOURCES, type Resource } from './resources';

/** What Fetch Test Event judges a record by: the record alone, as if it came from nothing. */
export interface SampleView {
	/** The record as a change from nothing (created, no version before). */
	asNew: Change;
	/** Created and not updated since. */
	fresh: boolean;
	/** Where the inspection stands against its schedule, for a status the time moments count; null: none. */
	timing: 'upcoming' | 'under way' | 'over' | null;
}

interface EventRow {
	value: string;
	/** An item's `event` is its event with the lowest priority number: the most specific. */
	priority: number;
	label: string;
	description: string;
	resource: Resource;
	/** When a new version means this event; the time-based moments have `time` instead. */
	happened?: (change: Change) => boolean;
	/** Reported when its time comes (judge/timeMoments.ts): before the start, or after the end. */
	time?: 'beforeStart' | 'afterEnd';
	/** Whether a record shows this event by itself (Fetch Test Event). */
	sample: (view: SampleView) => boolean;
	/**
	 * At most once per record: its bit in the record's kept facts. `always`:
	 * whatever Only Trigger Once says (an inspection ends once).
	 */
	once?: { bit: number; always?: true };
	/** One item per inspector added or removed, naming them in `inspector`. */
	perInspector?: 'added' | 'removed';
	/** The item names the new roles in `new_roles`. */
	namesNewRoles?: true;
}

const asNew = (rule: (change: Change) => boolean) => (view: SampleView) => rule(view.asNew);
/** An appointment may have no created_at: first seen, it is new. */
const appointmentIsNew = (change: Change) =>
	firstSeen(change) && (change.record.created_at == null || change.created);
const never = () => false;
const always = () => true;

/** In the order an item's `events` lists them; `priority` orders them for its `event`. */
const ROWS = [
	{
		value: 'inspection.created',
		priority: 15,
		label: 'Inspection Created',
		description: 'A new inspection was booked',
		resource: 'inspections',
		happened: (change) => change.created,
		sample: (view) => view.fresh,
	},
	{
		value: 'inspection.updated',
		priority: 16,
		label: 'Inspection Updated',
		description:
			'Any change to an inspection the trigger has seen before, confirmations and reschedules included',
		resource: 'inspections',
		happened: (change) => !change.created,
		sample: (view) => !view.fresh,
	},
	{
		value: 'inspection.confirmed',
		priority: 9,
		label: 'Inspection Confirmed',
		description: 'An inspection was confirmed',
		resource: 'inspections',
		happened: became(FACTS.confirmed),
		sample: asNew(became(FACTS.confirmed)),
	},
	{
		value: 'inspection.rescheduled',
		priority: 8,
		label: 'Inspection Rescheduled',
		description: "An inspection's scheduled time changed",
		resource: 'inspections',
		happened: rescheduled,
		// A scheduled time stands in: a move needs a version before it.
		sample: (view) => typeof view.asNew.now.scheduled_for === 'number',
	},
	{
		value: 'inspection.canceled',
		priority: 2,
		label: 'Inspection Canceled',
		description: 'An inspection was canceled',
		resource: 'inspections',
		happened: became(FACTS.canceled, ownTimeInWindow('canceled_at')),
		sample: asNew(became(FACTS.canceled)),
	},
	{
		value: 'inspection.published',
		priority: 5,
		label: 'Inspection Report Published',
		description: "An inspection's report was published",
		resource: 'inspections',
		happened: became(FACTS.published),
		sample: asNew(became(FACTS.published)),
	},
	{
		value: 'inspection.deleted',
		priority: 1,
		label: 'Inspection Deleted',
		description: 'An inspection was deleted',
		resource: 'inspections',
		happened: became(FACTS.deleted, ownTimeInWindow('deleted_at')),
		sample: asNew(became(FACTS.deleted)),
	},
	{
		value: 'inspection.paid',
		priority: 6,
		label: 'Inspection Paid',
		description: 'An inspection became fully paid (a partial payment is not paid)',
		resource: 'inspections',
		happened: became(FACTS.paid),
		sample: asNew(became(FACTS.paid)),
		once: { bit: 1 },
	},
	{
		value: 'inspection.agreements_signed',
		priority: 7,
		label: 'Inspection Agreements Signed',
		description: 'Every agreement on an inspection is signed (not just one of several)',
		resource: 'inspections',
		happened: became(FACTS.signed),
		sample: asNew(became(FACTS.signed)),
		once: { bit: 2 },
	},
	{
		value: 'inspection.paid_and_signed',
		priority: 4,
		label: 'Inspection Paid and Signed',
		description:
			'The moment an inspection is both fully paid and signed (or has nothing to sign), whichever came last',
		resource: 'inspections',
		happened: became(allOf(FACTS.paid, FACTS.signedOrNothingToSign)),
		sample: asNew(became(allOf(FACTS.paid, FACTS.signedOrNothingToSign))),
		once: { bit: 4 },
	},
	{
		value: 'inspection.paid_signed_published',
		priority: 3,
		label: 'Inspection Paid and Signed and Published',
		description:
			'The moment an inspection is fully paid, signed (or has nothing to sign) and its report published, whichever came last',
		resource: 'inspections',
		happened: became(allOf(FACTS.paid, FACTS.signedOrNothingToSign, FACTS.published)),
		sample: asNew(became(allOf(FACTS.paid, FACTS.signedOrNothingToSign, FACTS.published))),
		once: { bit: 8 },
	},
	{
		value: 'inspection.inspector_assigned',
		priority: 11,
		label: 'Inspection Inspector Assigned',
		description: 'One item per inspector put on an inspection; inspector names them',
		resource: 'inspections',
		happened: addedTo('inspectors'),
		sample: asNew(addedTo('inspectors')),
		perInspector: 'added',
	},
	{
		value: 'inspection.inspector_removed',
		priority: 12,
		label: 'Inspection Inspector Removed',
		description: 'One item per inspector taken off an inspection; inspector names them',
		resource: 'inspections',
		happened: removedFrom('inspectors'),
		sample: never,
		perInspector: 'removed',
	},
	{
		value: 'inspection.fees_changed',
		priority: 10,
		label: 'Inspection Fees Changed',
		description:
			'Services or add-ons were added or removed, or the quote changed (see changes.services and changes["price.quote"])',
		resource: 'inspections',
		happened: (change) => differs('services', 'ids')(change) || differs('price.quote')(change),
		// Services or add-ons stand in: a change needs a version before it.
		sample: (view) => {
			const services = view.asNew.now.services;
			return Array.isArray(services) && services.length > 0;
		},
	},
	{
		value: 'inspection.starting',
		priority: 13,
		label: 'Inspection Starting (Hours Before)',
		description:
			'The hours you choose before an inspection starts (Hours Before Inspection, default 24), for a reminder; confirmed inspections only unless you choose other statuses',
		resource: 'inspections',
		time: 'beforeStart',
		sample: (view) => view.timing === 'upcoming',
	},
	{
		value: 'inspection.ended',
		priority: 14,
		label: 'Inspection Ended (Hours After)',
		description:
			'The hours you choose after an inspection ended (Hours After Inspection Ended, default 24), once per inspection, e.g. to ask for a review; confirmed inspections only unless you choose other statuses',
		resource: 'inspections',
		time: 'afterEnd',
		sample: (view) => view.timing === 'over',
		once: { bit: 16, always: true },
	},
	{
		value: 'contact.created',
		priority: 20,
		label: 'Contact Created',
		description: 'A new contact',
		resource: 'contacts',
		happened: (change) => change.created,
		sample: (view) => view.fresh,
	},
	{
		value: 'contact.updated',
		priority: 21,
		label: 'Contact Updated',
		description: 'Any change to a contact the trigger has seen before, tag changes included',
		resource: 'contacts',
		happened: (change) => !change.created,
		sample: (view) => !view.fresh,
	},
	{
		value: 'contact.tag_added',
		priority: 18,
		label: 'Contact Tag Added',
		description: 'A contact got a tag (also a new contact created with tags)',
		resource: 'contacts',
		happened: addedTo('tags'),
		sample: asNew(addedTo('tags')),
	},
	{
		value: 'contact.tag_removed',
		priority: 19,
		label: 'Contact Tag Removed',
		description: 'A tag was taken off a contact',
		resource: 'contacts',
		happened: removedFrom('tags'),
		sample: never,
	},
	{
		value: 'contact.new_role',
		priority: 17,
		label: 'Contact Took a New Role',
		description:
			'A contact got a role it never had, such as a client now a buyer agent (a new agent for your CRM); new_roles names it',
		resource: 'contacts',
		happened: newIn('roles'),
		sample: asNew(newIn('roles')),
		namesNewRoles: true,
	},
	{
		value: 'inspection_event.created',
		priority: 22,
		label: 'Appointment Created',
		description: 'A new appointment on an inspection, such as a drop-off or pick-up',
		resource: 'events',
		happened: appointmentIsNew,
		sample: (view) => view.fresh,
	},
	{
		value: 'inspection_event.updated',
		priority: 23,
		label: 'Appointment Updated',
		description: 'An appointment on an inspection changed (time, name, inspectors)',
		resource: 'events',
		happened: (change) => !appointmentIsNew(change),
		sample: (view) => !view.fresh,
	},
	{
		value: 'attachment.added',
		priority: 24,
		label: 'Attachment Added',
		description: 'An additional report or document appeared on an inspection',
		resource: 'attachments',
		happened: (change) =>
			firstSeen(change) && (apiTime(change.record.created_at) === null || change.created),
		sample: always,
	},
] as const satisfies readonly EventRow[];

export type PollEvent = (typeof ROWS)[number]['value'];
export const EVENT_ROWS: ReadonlyArray<EventRow & { value: PollEvent }> = ROWS;

const BY_VALUE = new Map<string, EventRow & { value: PollEvent }>(
	EVENT_ROWS.map((row) => [row.value, row]),
);

export const isPollEvent = (value: string): value is PollEvent => BY_VALUE.has(value);
export const rowOf = (event: PollEvent) => BY_VALUE.get(event)!;

/** The rows of the selected events, in the catalog's order. */
export const selectedRows = (events: readonly PollEvent[]) =>
	EVENT_ROWS.filter((row) => events.includes(row.value));

/** Only the resources the selected events need, in a fixed order. */
export function watchedResources(events: readonly PollEvent[]): Resource[] {
	const needed = new Set(events.map((event) => rowOf(event).resource));
	return RESOURCES.filter((resource) => needed.has(resource));
}

const BY_PRIORITY = [...EVENT_ROWS].sort((a, b) => a.priority - b.priority);

/** The item's headline event: the most specific of its events. */
export const primaryEvent = <E extends string>(events: readonly E[]): E =>
	(BY_PRIORITY.find((row) => events.includes(row.value as string as E))?.value as E) ?? events[0];

/** What Emit Existing Records on First Poll labels the records that were there before activation. */
export const EXISTING_EVENTS = {
	contacts: 'contact.existing',
	inspections: 'inspection.existing',
	events: 'inspection_event.existing',
	attachments: 'attachment.existing',
} as const satisfies Record<Resource, string>;

/** What a listed record the trigger cannot read is reported as (judge/unreadable.ts), whatever is selected. */
export const UNREADABLE_EVENTS = {
	contacts: 'contact.unreadable',
	inspections: 'inspection.unreadable',
	events: 'inspection_event.unreadable',
	attachments: 'attachment.unreadable',
} as const satisfies Record<Resource, string>;

export type UnreadableEvent = (typeof UNREADABLE_EVENTS)[Resource];
export type EmittedEvent = PollEvent | (typeof EXISTING_EVENTS)[Resource] | UnreadableEvent;

/** The bits of the moments Only Trigger Once holds to once per record (and of those always once). */
export const onceBits = (onlyOnce: boolean): number =>
	EVENT_ROWS.reduce(
		(bits, row) => (row.once && (onlyOnce || row.once.always) ? bits | row.once.bit : bits),
		0,
	);

/** The events Only Trigger Once applies to (for the option's display). */
export const ONCE_OPTIONAL_EVENTS: PollEvent[] = EVENT_ROWS.filter(
	(row) => row.once !== undefined && row.once.always !== true,
).map((row) => row.value);

/** The time-based moments (for their options' display). */
export const eventsWith = (kind: 'beforeStart' | 'afterEnd'): PollEvent[] =>
	EVENT_ROWS.filter((row) => row.time === kind).map((row) => row.value);
