/**
 * The polling trigger's events: one row each, the one place an event is
 * defined. A row gives the event's value (the item's `event`), its label and
 * description in the editor, the list it is read from, its rule (in the words
 * of ./words.ts, each a sentence of docs/moments.md), what stands in for it in
 * Fetch Test Event, and its rank (a version-1 item's `event` is the most
 * specific of its events: the lowest rank). The Events list, the rules the
 * poll applies, Fetch Test Event, the sandbox's expected events and the
 * docs' table (scripts/events-doc.ts) are all made from these rows.
 */
import { apiTime, reportsStatusRank, someReportPublished } from '../../shared/inspectionFacts';
import type { InspectionMemory, MemoryOf, OnceMoment, Resource } from '../memory';
import {
	addedTo,
	allOf,
	became,
	becameOrDated,
	type Change,
	either,
	holds,
	listChanged,
	namedId,
	removedFrom,
} from './words';

export type { Change } from './words';
export { addedTo, listChanged, removedFrom } from './words';

/** What Fetch Test Event judges a record by: the record alone, as if it came from nothing. */
export interface SampleView<M = unknown> {
	/** The record as a change from nothing (new, nothing held before). */
	asNew: Change<M>;
	/** Created and not updated since. */
	fresh: boolean;
	/** Where the inspection stands against its schedule, for a status the time moments count; null: none. */
	timing: 'upcoming' | 'under way' | 'over' | null;
}

interface Row<M> {
	value: string;
	/** A version-1 item's `event` is its event with the lowest rank: the most specific. Gaps leave room. */
	rank: number;
	label: string;
	/** What n8n's trigger picker shows, where "On" and the label lowercased would read badly. */
	action?: string;
	description: string;
	resource: Resource;
	/** When a new version means this event; the time moments have `time` instead. */
	happened?: (change: Change<M>) => boolean;
	/** Reported when its time comes (judge/timeMoments.ts): before the start, or after the end. */
	time?: 'beforeStart' | 'afterEnd';
	/**
	 * At most once per inspection under Only Trigger Once (`always`: whatever it
	 * says): the moment, and the fact whose holding counts as its having happened.
	 */
	once?: { moment: OnceMoment; fact?: (memory: M) => boolean; always?: true };
	/** Whether a record shows this event by itself (Fetch Test Event). */
	sample: (view: SampleView<M>) => boolean;
	/** One item per inspector added or removed, naming them in `inspector`. */
	perInspector?: 'added' | 'removed';
	/** The item names the new roles in `new_roles`. */
	namesNewRoles?: true;
	/** The item names the money received in `amount_received`. */
	namesPayment?: true;
	/** Judged without the record's memory (by the record's own times alone). */
	memoryless?: true;
}

type InspectionRow = Row<InspectionMemory> & { resource: 'inspections' };
type ContactRow = Row<MemoryOf<'contacts'>> & { resource: 'contacts' };
type OtherRow = Row<MemoryOf<'events'>> & { resource: 'events' | 'attachments' };
export type EventRow = InspectionRow | ContactRow | OtherRow;

const asNew =
	<M>(rule: (change: Change<M>) => boolean) =>
	(view: SampleView<M>) =>
		rule(view.asNew);
const never = () => false;
const always = () => true;
const isNew = (change: Change<unknown>) => change.isNew;
const notNew = (change: Change<unknown>) => !change.isNew;

const confirmed = (m: InspectionMemory) => m.status === 'confirmed';
const canceled = (m: InspectionMemory) => m.status === 'canceled';
const published = (m: InspectionMemory) => someReportPublished(m.publishedReports, m.reportsStatus);
/** Fully paid; an inspection with nothing to pay is never Paid, whatever its payment fields say. */
const paid = (m: InspectionMemory) => holds('paid')(m) && !holds('nothingToPay')(m);
const signed = holds('signed');
/** For a gate: nothing to pay counts as paid, nothing to sign as signed. */
const paidAndSigned = allOf(
	either(paid, holds('nothingToPay')),
	either(signed, holds('nothingToSign')),
);
const paidSignedPublished = allOf(paidAndSigned, published);

/** Another time than the last known one (a time taken away is compared with the one before it). */
const rescheduled = ({ now, before }: Change<InspectionMemory>) => {
	const was = before === null ? null : (before.start ?? before.lastStart);
	return was !== null && now.start !== null && now.start !== was;
};
/**
 * More reports published than before (the first one included): more report items published, or
 * the reports status went up (how an inspection whose reports are not itemised shows it).
 */
const morePublished = ({ now, before, isNew: fresh }: Change<InspectionMemory>) =>
	before === null
		? fresh && published(now)
		: now.publishedReports > before.publishedReports ||
			reportsStatusRank(now.reportsStatus) > reportsStatusRank(before.reportsStatus);
/** Money received: the amount paid rose (a new inspection: anything paid). */
export const amountReceived = ({ now, before, isNew: fresh }: Change<InspectionMemory>): number => {
	const was = before === null ? (fresh ? 0 : null) : before.amountPaidCents;
	return was === null || now.amountPaidCents === null ? 0 : Math.max(0, now.amountPaidCents - was);
};
const feesChanged = ({ now, before, record }: Change<InspectionMemory>) => {
	if (before === null) return false;
	const quote = (record.price as { quote?: unknown } | undefined)?.quote;
	const quoteKnown = typeof quote === 'number' && before.quoteCents !== null;
	return (
		listChanged(now.services, before.services) ||
		(quoteKnown && now.quoteCents !== before.quoteCents)
	);
};
const inspectorsAdded = (c: Change<InspectionMemory>) =>
	addedTo(c.now.inspectors, c.before?.inspectors ?? null, c.isNew, namedId).length > 0;
const inspectorsRemoved = (c: Change<InspectionMemory>) =>
	removedFrom(c.now.inspectors, c.before?.inspectors ?? null, namedId).length > 0;
const tagsAdded = (c: Change<MemoryOf<'contacts'>>) =>
	addedTo(c.now.tags, c.before?.tags ?? null, c.isNew, namedId).length > 0;
const tagsRemoved = (c: Change<MemoryOf<'contacts'>>) =>
	removedFrom(c.now.tags, c.before?.tags ?? null, namedId).length > 0;
export const newRoles = (c: Change<MemoryOf<'contacts'>>): string[] =>
	addedTo(c.now.rolesHad, c.before?.rolesHad ?? null, c.isNew, (role) => role);
/** An appointment may have no created_at: the first time it is seen, it is new. */
const appointmentIsNew = (change: Change<unknown>) =>
	change.isNew || (change.before === null && change.record.created_at == null);

/** In the order an item's `events` lists them. */
const ROWS = [
	{
		value: 'inspection.created',
		rank: 150,
		label: 'Inspection Created',
		description: 'A new inspection was booked',
		resource: 'inspections',
		happened: isNew,
		sample: (view) => view.fresh,
		memoryless: true,
	},
	{
		value: 'inspection.updated',
		rank: 160,
		label: 'Inspection Updated',
		description:
			'Any change to an inspection that is not new, confirmations and reschedules included',
		resource: 'inspections',
		happened: notNew,
		sample: (view) => !view.fresh,
	},
	{
		value: 'inspection.confirmed',
		rank: 90,
		label: 'Inspection Confirmed',
		description: 'A booking was confirmed',
		resource: 'inspections',
		happened: became(confirmed),
		once: { moment: 'confirmed', fact: confirmed },
		sample: asNew(became(confirmed)),
	},
	{
		value: 'inspection.rescheduled',
		rank: 80,
		label: 'Inspection Rescheduled',
		description: 'An inspection moved to another date or time',
		resource: 'inspections',
		happened: rescheduled,
		// A scheduled time stands in: a move needs a version before it.
		sample: (view) => view.asNew.now.start !== null,
	},
	{
		value: 'inspection.canceled',
		rank: 20,
		label: 'Inspection Canceled',
		description: 'An inspection was canceled',
		resource: 'inspections',
		happened: becameOrDated(canceled, 'canceled_at'),
		sample: asNew(became(canceled)),
		memoryless: true,
	},
	{
		value: 'inspection.published',
		rank: 50,
		label: 'Inspection Report Published',
		description:
			'A report of an inspection was published for the first time (with Only Trigger Once off: each time another report is published)',
		resource: 'inspections',
		happened: morePublished,
		once: { moment: 'published', fact: published },
		sample: asNew(morePublished),
	},
	{
		value: 'inspection.deleted',
		rank: 10,
		label: 'Inspection Deleted',
		description: 'An inspection was deleted',
		resource: 'inspections',
		happened: becameOrDated(holds('deleted'), 'deleted_at'),
		sample: asNew(became(holds('deleted'))),
		memoryless: true,
	},
	{
		value: 'inspection.payment_received',
		rank: 65,
		label: 'Inspection Payment Received',
		description:
			'Money came in for an inspection, a part payment too; amount_received says how much (for your books)',
		resource: 'inspections',
		happened: (change) => amountReceived(change) > 0,
		sample: (view) => amountReceived(view.asNew) > 0,
		namesPayment: true,
	},
	{
		value: 'inspection.paid',
		rank: 60,
		label: 'Inspection Paid',
		description: 'An inspection became fully paid (a part payment is not paid)',
		resource: 'inspections',
		happened: became(paid),
		once: { moment: 'paid', fact: paid },
		sample: asNew(became(paid)),
	},
	{
		value: 'inspection.agreements_signed',
		rank: 70,
		label: 'Inspection Agreements Signed',
		description: 'Every agreement on an inspection is signed (not just one of several)',
		resource: 'inspections',
		happened: became(signed),
		once: { moment: 'signed', fact: signed },
		sample: asNew(became(signed)),
	},
	{
		value: 'inspection.paid_and_signed',
		rank: 40,
		label: 'Inspection Paid and Signed',
		description:
			'An inspection is both paid and signed, whichever came last (nothing to pay or to sign counts as done)',
		resource: 'inspections',
		happened: became(paidAndSigned),
		once: { moment: 'paidAndSigned', fact: paidAndSigned },
		sample: asNew(became(paidAndSigned)),
	},
	{
		value: 'inspection.paid_signed_published',
		rank: 30,
		label: 'Inspection Paid and Signed and Published',
		action: 'On inspection paid, signed and published',
		description:
			'An inspection is paid, signed and has a report published, whichever came last: the moment to release the report',
		resource: 'inspections',
		happened: became(paidSignedPublished),
		once: { moment: 'paidSignedPublished', fact: paidSignedPublished },
		sample: asNew(became(paidSignedPublished)),
	},
	{
		value: 'inspection.inspector_assigned',
		rank: 110,
		label: 'Inspection Inspector Assigned',
		action: 'On inspector assigned to an inspection',
		description:
			'An inspector was put on an inspection: one item per inspector, named in inspector',
		resource: 'inspections',
		happened: inspectorsAdded,
		sample: asNew(inspectorsAdded),
		perInspector: 'added',
	},
	{
		value: 'inspection.inspector_removed',
		rank: 120,
		label: 'Inspection Inspector Removed',
		action: 'On inspector removed from an inspection',
		description:
			'An inspector was taken off an inspection: one item per inspector, named in inspector',
		resource: 'inspections',
		happened: inspectorsRemoved,
		sample: never,
		perInspector: 'removed',
	},
	{
		value: 'inspection.fees_changed',
		rank: 100,
		label: 'Inspection Fees Changed',
		description: 'Services or add-ons were added or removed, or the price changed',
		resource: 'inspections',
		happened: feesChanged,
		// Services or add-ons stand in: a change needs a version before it.
		sample: (view) => view.asNew.now.services.entries.length > 0,
	},
	{
		value: 'inspection.starting',
		rank: 130,
		label: 'Inspection Starting Soon',
		description:
			'The hours you choose before a confirmed inspection starts, for a reminder; never once it has begun',
		resource: 'inspections',
		time: 'beforeStart',
		sample: (view) => view.timing === 'upcoming',
	},
	{
		value: 'inspection.ended',
		rank: 140,
		label: 'Inspection Ended',
		description:
			'The hours you choose after a confirmed inspection ended, once per inspection: for a review request or a follow-up',
		resource: 'inspections',
		time: 'afterEnd',
		once: { moment: 'ended', always: true },
		sample: (view) => view.timing === 'over',
	},
	{
		value: 'contact.created',
		rank: 200,
		label: 'Contact Created',
		description: 'A new contact',
		resource: 'contacts',
		happened: isNew,
		sample: (view) => view.fresh,
		memoryless: true,
	},
	{
		value: 'contact.updated',
		rank: 210,
		label: 'Contact Updated',
		description: 'Any change to a contact that is not new, tag changes included',
		resource: 'contacts',
		happened: notNew,
		sample: (view) => !view.fresh,
	},
	{
		value: 'contact.tag_added',
		rank: 180,
		label: 'Contact Tag Added',
		description: 'A contact got a tag (also a new contact created with tags)',
		resource: 'contacts',
		happened: tagsAdded,
		sample: asNew(tagsAdded),
	},
	{
		value: 'contact.tag_removed',
		rank: 190,
		label: 'Contact Tag Removed',
		description: 'A tag was taken off a contact',
		resource: 'contacts',
		happened: tagsRemoved,
		sample: never,
	},
	{
		value: 'contact.new_role',
		rank: 170,
		label: 'Contact Took a New Role',
		action: 'On contact taking a new role',
		description:
			'A contact got a role it never had, such as a past client now a buyer agent (a new agent for your CRM); new_roles names it',
		resource: 'contacts',
		happened: (change) => newRoles(change).length > 0,
		sample: asNew((change) => newRoles(change).length > 0),
		namesNewRoles: true,
	},
	{
		value: 'inspection_event.created',
		rank: 220,
		label: 'Appointment Created',
		description: 'A new appointment on an inspection, such as a drop-off or pick-up',
		resource: 'events',
		happened: appointmentIsNew,
		sample: (view) => view.fresh,
	},
	{
		value: 'inspection_event.updated',
		rank: 230,
		label: 'Appointment Updated',
		description: 'An appointment on an inspection changed (time, name, inspectors)',
		resource: 'events',
		happened: (change) => !appointmentIsNew(change),
		sample: (view) => !view.fresh,
	},
	{
		value: 'attachment.added',
		rank: 240,
		label: 'Attachment Added',
		description: 'An additional report or document appeared on an inspection',
		resource: 'attachments',
		happened: (change) =>
			change.before === null && (apiTime(change.record.created_at) === null || change.isNew),
		sample: always,
		memoryless: true,
	},
] as const satisfies readonly EventRow[];

export type PollEvent = (typeof ROWS)[number]['value'];

export const EVENT_ROWS = ROWS as ReadonlyArray<EventRow & { value: PollEvent }>;

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
	return (['contacts', 'inspections', 'events', 'attachments'] as const).filter((r) =>
		needed.has(r),
	);
}

/** Whether a selected event of `resource` reads the records' memory (else the poll window is all it keeps). */
export const needsMemory = (resource: Resource, events: readonly PollEvent[]) =>
	selectedRows(events).some((row) => row.resource === resource && !row.memoryless);

const BY_RANK = [...EVENT_ROWS].sort((a, b) => a.rank - b.rank);

/** A version-1 item's headline event: the most specific of its events. */
export const primaryEvent = <E extends string>(events: readonly E[]): E =>
	(BY_RANK.find((row) => events.includes(row.value as string as E))?.value as E) ?? events[0];

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

/** The events Only Trigger Once applies to (for the option's display). */
export const ONCE_OPTIONAL_EVENTS: PollEvent[] = EVENT_ROWS.filter(
	(row) => row.once !== undefined && row.once.always !== true,
).map((row) => row.value);

/** The time-based moments (for their options' display). */
export const eventsWith = (kind: 'beforeStart' | 'afterEnd'): PollEvent[] =>
	EVENT_ROWS.filter((row) => row.time === kind).map((row) => row.value);
