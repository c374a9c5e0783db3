/**
 * A reference model of the moments' contract, docs/moments.md, written from that page and the
 * API's record shapes (../shared/spec/api-v1.md) alone: it imports nothing of the trigger, so the
 * trigger and the model are two readings of the same page, checked against each other over
 * generated business histories (moments.model.test.ts).
 *
 * Given, at each poll, every record as the API lists it then, the poll's time (the API's clock)
 * and the trigger's settings, `MomentsModel.poll` says exactly which moments the trigger must
 * emit: (record, event), plus the inspector of an inspector moment, `moment_at` of a time
 * moment and `new_roles` of a new role. It holds what the contract says the trigger holds, as
 * whole records (the version last seen), never compressed.
 *
 * The page's sections are this file's sections, in the same order. Where the page is silent or
 * ambiguous for a case the histories produce, the reading chosen is marked "READING:".
 */
import type { IDataObject } from 'n8n-workflow';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------------------------
// Events, settings and what a poll sees

export const RESOURCES = ['contacts', 'inspections', 'events', 'attachments'] as const;
export type Resource = (typeof RESOURCES)[number];

export const EVENTS: Record<Resource, readonly string[]> = {
	inspections: [
		'inspection.created',
		'inspection.updated',
		'inspection.confirmed',
		'inspection.rescheduled',
		'inspection.canceled',
		'inspection.deleted',
		'inspection.published',
		'inspection.payment_received',
		'inspection.paid',
		'inspection.agreements_signed',
		'inspection.paid_and_signed',
		'inspection.paid_signed_published',
		'inspection.inspector_assigned',
		'inspection.inspector_removed',
		'inspection.fees_changed',
		'inspection.starting',
		'inspection.ended',
	],
	contacts: [
		'contact.created',
		'contact.updated',
		'contact.tag_added',
		'contact.tag_removed',
		'contact.new_role',
	],
	events: ['inspection_event.created', 'inspection_event.updated'],
	attachments: ['attachment.added'],
};
export const ALL_EVENTS: readonly string[] = RESOURCES.flatMap((resource) => EVENTS[resource]);

/** With Emit Existing Records on First Poll, each record of the first poll is one of these. */
const EXISTING_EVENT: Record<Resource, string> = {
	contacts: 'contact.existing',
	inspections: 'inspection.existing',
	events: 'inspection_event.existing',
	attachments: 'attachment.existing',
};

/** The trigger's settings at one poll. */
export interface Settings {
	events: readonly string[];
	emitExisting: boolean;
	/** Only Trigger Once. */
	onlyOnce: boolean;
	/** Hours Before Inspection (Starting). */
	startingHours: number;
	/** Hours After Inspection Ended (Ended). */
	endedHours: number;
	/** Skip Ended Moments Later Than (Hours); 0: no bound. */
	endedLateHours: number;
	/** Inspection Statuses for Starting and Ended. */
	momentStatuses: readonly string[];
	/** The poll's overlap: what the poll window re-reads (for the cap's "goes last"). */
	overlapMs: number;
	/** At most this many records held per resource (the 2 MB budget, made small). */
	recordCap?: number;
}

/** One poll as the model sees it. */
export interface PollView {
	/** The API's time of the poll (ms). */
	at: number;
	/**
	 * Every record as the trigger's lists show it now: inspections canceled and deleted too,
	 * attachments of deleted inspections left out (the API's account-wide list does).
	 */
	lists: Record<Resource, readonly IDataObject[]>;
	settings: Settings;
}

/** One item the trigger must emit. */
export interface Moment {
	resource: Resource;
	/** The record's id; an attachment's is `inspection_id/id`. */
	id: string;
	event: string;
	/** Inspector Assigned and Removed: the inspector's id. */
	inspector?: string;
	/** Starting and Ended: `moment_at` (ms). */
	momentAt?: number;
	/** Contact Took a New Role: `new_roles`, sorted. */
	newRoles?: string[];
}

export const recordId = (resource: Resource, record: IDataObject): string =>
	resource === 'attachments'
		? `${String(record.inspection_id)}/${String(record.id)}`
		: String(record.id);

// ---------------------------------------------------------------------------------------------
// Facts, in the contract's words and the API's fields

/** Every time the API sends is UTC; one without an offset is read as UTC too. */
export function apiTime(value: unknown): number | null {
	if (typeof value !== 'string' || value === '') return null;
	const zoned = /(?:z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
	const ms = Date.parse(zoned);
	return Number.isNaN(ms) ? null : ms;
}

const objectOf = (value: unknown): IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: {};
const listOf = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value as unknown[]).map(objectOf) : [];
const idsOf = (value: unknown): string[] => listOf(value).map((entry) => String(entry.id));
/** Money to the cent: 425.1 and 425.09999999999997 are the same amount. */
const cents = (value: unknown): number | null =>
	typeof value === 'number' ? Math.round(value * 100) : null;

const price = (r: IDataObject) => objectOf(r.price);
const agreements = (r: IDataObject) => objectOf(r.agreements);
const reports = (r: IDataObject) => objectOf(r.reports);

const quoteOf = (r: IDataObject): number | null =>
	typeof price(r).quote === 'number' ? (price(r).quote as number) : null;

/** Nothing to pay: quote 0 and nothing due. */
function nothingToPay(r: IDataObject): boolean {
	return cents(price(r).quote) === 0 && (cents(price(r).amount_due) ?? 0) === 0;
}

/**
 * Fully paid: `price.paid` true; only if it is missing, payment status "paid", or nothing due
 * after a payment. A part payment is not paid; an inspection with nothing to pay is never Paid.
 */
function isPaid(r: IDataObject): boolean {
	if (nothingToPay(r)) return false;
	const p = price(r);
	if (typeof p.paid === 'boolean') return p.paid;
	if (p.payment_status != null) return p.payment_status === 'paid';
	return cents(p.amount_due) === 0 && (cents(p.amount_paid) ?? 0) > 0;
}

const agreementSigned = (item: IDataObject) => item.signed_at != null || item.status === 'signed';

/**
 * Every agreement signed: `agreements.all_signed`, and each listed item signed (`signed_at` set
 * or status "signed"). An inspection without agreements (`present` false) never is.
 */
function allSigned(r: IDataObject): boolean {
	const a = agreements(r);
	return a.present !== false && a.all_signed === true && listOf(a.items).every(agreementSigned);
}

/** Nothing to sign: `agreements.present` false. */
const nothingToSign = (r: IDataObject): boolean => agreements(r).present === false;

const OUT_STATUSES = ['partial', 'published'];

/** A report published: the reports status partial or published, or a report item published. */
function reportPublished(r: IDataObject): boolean {
	const rep = reports(r);
	return (
		OUT_STATUSES.includes(String(rep.status)) ||
		listOf(rep.items).some((item) => item.status === 'published')
	);
}

/**
 * Only Trigger Once off: "each time more reports are published than before".
 * READING: more report items published than before, or the reports status went up
 * (na/pending, then partial, then published), which is how an inspection whose reports the API
 * does not itemise shows more of them published.
 */
function moreReportsPublished(before: IDataObject, now: IDataObject): boolean {
	const count = (r: IDataObject) =>
		listOf(reports(r).items).filter((item) => item.status === 'published').length;
	const rank = (r: IDataObject) => OUT_STATUSES.indexOf(String(reports(r).status)) + 1;
	return count(now) > count(before) || rank(now) > rank(before);
}

/** Paid and Signed's gate: nothing to pay counts as paid, nothing to sign as signed. */
const paidAndSigned = (r: IDataObject): boolean =>
	(isPaid(r) || nothingToPay(r)) && (allSigned(r) || nothingToSign(r));

const isConfirmed = (r: IDataObject): boolean => r.status === 'confirmed';
const isCanceled = (r: IDataObject): boolean => r.status === 'canceled';
const isDeleted = (r: IDataObject): boolean => r.deleted === true;
const scheduledAt = (r: IDataObject): number | null => apiTime(r.scheduled_for);

const QUARTER_HOUR = 15 * MINUTE;

/**
 * The end: `ends_at`, else the scheduled time plus `duration_hours`, else the scheduled time,
 * kept to the quarter hour rounded up (never early). Without a scheduled time: none.
 */
function inspectionEnd(r: IDataObject): number | null {
	const start = scheduledAt(r);
	if (start === null) return null;
	const hours = typeof r.duration_hours === 'number' ? r.duration_hours : null;
	const endsAt = apiTime(r.ends_at);
	const length = endsAt !== null ? endsAt - start : hours !== null ? hours * HOUR : 0;
	// The length, rounded up to the quarter hour, none when negative, two weeks at most.
	const quarters = Math.min(Math.ceil(Math.max(length, 0) / QUARTER_HOUR), 14 * 24 * 4);
	return start + quarters * QUARTER_HOUR;
}

/** Service and add-on ids, told apart. */
const feeIds = (r: IDataObject): string[] => [
	...idsOf(r.services).map((id) => `service ${id}`),
	...idsOf(r.add_ons).map((id) => `add-on ${id}`),
];

const minus = <T>(a: readonly T[], b: readonly T[]): T[] => a.filter((x) => !b.includes(x));

// ---------------------------------------------------------------------------------------------
// What the trigger holds of a record (the version last seen, and what the contract adds to it)

/** The moments Only Trigger Once holds to once per inspection, with their facts. */
const ONCE_FACTS: ReadonlyArray<[string, (r: IDataObject) => boolean]> = [
	['inspection.confirmed', isConfirmed],
	['inspection.published', reportPublished],
	['inspection.paid', isPaid],
	['inspection.agreements_signed', allSigned],
	['inspection.paid_and_signed', paidAndSigned],
	['inspection.paid_signed_published', (r) => paidAndSigned(r) && reportPublished(r)],
];

interface HeldInspection {
	record: IDataObject;
	/** The once-moments that have come: their fact held in a version seen while held. */
	came: Set<string>;
	/** Rescheduled: the last known scheduled time (a time taken away keeps it). */
	lastKnownTime: number | null;
	/** Fees Changed: the last known quote (a quote briefly null keeps it). */
	lastKnownQuote: number | null;
	/** Starting: the start time the client was last reminded of. */
	lastReminded: number | null;
	/** Ended: come (or skipped as late), once per inspection, always. */
	ended: boolean;
}

interface HeldContact {
	record: IDataObject;
	/** Every role the contact has had while held. */
	rolesHad: Set<string>;
}

type Held = { record: IDataObject } & Partial<HeldInspection> & Partial<HeldContact>;

/** A watched resource: what the trigger holds of it. */
interface ResourceMemory {
	/** The trigger's last look (the previous poll of this resource, API time). */
	lastLook: number;
	/** The newest change it has read: its poll window re-reads what changed an overlap before. */
	newestSeen: number;
	held: Map<string, Held>;
	/** Starting was selected at the previous poll. */
	startingOn: boolean;
	/** When the trigger began watching Ended (null: not selected). */
	endedSince: number | null;
	/** The selected events read a record's memory (not Created, Canceled, Deleted alone). */
	memoryNeeded: boolean;
}

// ---------------------------------------------------------------------------------------------
// Inspection moments: one function per row of the table

/** A new version of an inspection, as one poll sees it. */
interface InspectionChange {
	now: IDataObject;
	/** What the trigger held; null: seen for the first time (new, or not new). */
	before: HeldInspection | null;
	/** New: seen for the first time, `created_at` after the trigger's last look. */
	isNew: boolean;
	/** The poll window: after the last look, up to this poll. */
	window: { after: number; upTo: number };
	onlyOnce: boolean;
}

/** Seen for the first time and not new: nothing about its past is known. */
const unknownPast = (c: InspectionChange) => c.before === null && !c.isNew;
const inWindow = (value: unknown, window: InspectionChange['window']) => {
	const at = apiTime(value);
	return at !== null && at > window.after && at <= window.upTo;
};

/**
 * A moment under Only Trigger Once: from nothing for a new inspection; on, once per inspection
 * (it has come the first time its fact held while held); off, each time the fact becomes true
 * again (`becameAgain`, by default: false before, true now).
 */
function onceMoment(
	c: InspectionChange,
	event: string,
	fact: (r: IDataObject) => boolean,
	becameAgain = (before: IDataObject, now: IDataObject) => !fact(before) && fact(now),
): boolean {
	if (!fact(c.now)) return false;
	if (c.isNew) return true;
	if (c.before === null) return false; // seen for the first time: counts as having happened
	return c.onlyOnce ? !c.before.came.has(event) : becameAgain(c.before.record, c.now);
}

const INSPECTION_MOMENTS: ReadonlyArray<[string, (c: InspectionChange) => boolean]> = [
	// A new inspection, whatever its status.
	['inspection.created', (c) => c.isNew],
	// Any new version of an inspection that is not new.
	['inspection.updated', (c) => !c.isNew],
	['inspection.confirmed', (c) => onceMoment(c, 'inspection.confirmed', isConfirmed)],
	['inspection.rescheduled', rescheduled],
	['inspection.canceled', canceled],
	['inspection.deleted', deleted],
	[
		'inspection.published',
		(c) => onceMoment(c, 'inspection.published', reportPublished, moreReportsPublished),
	],
	['inspection.payment_received', paymentReceived],
	['inspection.paid', (c) => onceMoment(c, 'inspection.paid', isPaid)],
	['inspection.agreements_signed', (c) => onceMoment(c, 'inspection.agreements_signed', allSigned)],
	['inspection.paid_and_signed', (c) => onceMoment(c, 'inspection.paid_and_signed', paidAndSigned)],
	[
		'inspection.paid_signed_published',
		(c) =>
			onceMoment(
				c,
				'inspection.paid_signed_published',
				(r) => paidAndSigned(r) && reportPublished(r),
			),
	],
	['inspection.fees_changed', feesChanged],
];

/**
 * The scheduled time moves to another time, compared with the last known time (taken away and
 * given back: the same time is no move). Not for a new one or one first seen.
 */
function rescheduled(c: InspectionChange): boolean {
	if (c.before === null) return false;
	const to = scheduledAt(c.now);
	const from = c.before.lastKnownTime;
	return to !== null && from !== null && to !== from;
}

/** The status becomes canceled; seen for the first time, not new: by its own `canceled_at`. */
function canceled(c: InspectionChange): boolean {
	if (!isCanceled(c.now)) return false;
	if (unknownPast(c)) return inWindow(c.now.canceled_at, c.window);
	return c.before === null || !isCanceled(c.before.record);
}

/** The inspection becomes deleted; seen for the first time, not new: by its own `deleted_at`. */
function deleted(c: InspectionChange): boolean {
	if (!isDeleted(c.now)) return false;
	if (unknownPast(c)) return inWindow(c.now.deleted_at, c.window);
	return c.before === null || !isDeleted(c.before.record);
}

/**
 * The amount paid rose against the last version seen: each payment, a part payment too (a new
 * inspection: anything paid). Seen for the first time, not new: what was paid before is unknown.
 */
function paymentReceived(c: InspectionChange): boolean {
	const now = cents(price(c.now).amount_paid);
	if (now === null) return false;
	if (c.isNew) return now > 0;
	const was = c.before === null ? null : cents(price(c.before.record).amount_paid);
	return was !== null && now > was;
}

/**
 * A service or add-on id added or removed, or the quote changed by at least a cent against the
 * last known quote (a quote briefly null is no change). A new inspection's services are not.
 */
function feesChanged(c: InspectionChange): boolean {
	if (c.before === null) return false;
	const before = feeIds(c.before.record);
	const now = feeIds(c.now);
	if (minus(before, now).length > 0 || minus(now, before).length > 0) return true;
	const quote = quoteOf(c.now);
	const last = c.before.lastKnownQuote;
	return quote !== null && last !== null && cents(quote) !== cents(last);
}

/** Inspector Assigned: each id that appears (a new inspection's inspectors are assigned). */
function inspectorsAssigned(c: InspectionChange): string[] {
	if (c.isNew) return idsOf(c.now.inspectors);
	return c.before === null ? [] : minus(idsOf(c.now.inspectors), idsOf(c.before.record.inspectors));
}

/** Inspector Removed: each id that leaves. */
function inspectorsRemoved(c: InspectionChange): string[] {
	return c.before === null ? [] : minus(idsOf(c.before.record.inspectors), idsOf(c.now.inspectors));
}

/** What the trigger holds after seeing a version: its once-moments, last known time and quote. */
function holdInspection(now: IDataObject, before: HeldInspection | null): HeldInspection {
	const came = new Set(before?.came);
	for (const [event, fact] of ONCE_FACTS) if (fact(now)) came.add(event);
	return {
		record: now,
		came,
		lastKnownTime: scheduledAt(now) ?? before?.lastKnownTime ?? null,
		lastKnownQuote: quoteOf(now) ?? before?.lastKnownQuote ?? null,
		lastReminded: before?.lastReminded ?? null,
		ended: before?.ended ?? false,
	};
}

// ---------------------------------------------------------------------------------------------
// Time moments: Starting and Ended

const NOT_BEGUN_MS = 15 * MINUTE;

/** The statuses that count; canceled and deleted inspections never count. */
const counts = (r: IDataObject, s: Settings) =>
	s.momentStatuses.includes(String(r.status)) && !isCanceled(r) && !isDeleted(r);

/**
 * Starting due now: its hours before the scheduled time have come, the status counts, the
 * inspection has not begun (15 minutes after the scheduled time on, no reminder), and the client
 * was not last reminded of this time. Returns `moment_at`: the scheduled time less the hours.
 */
function startingDue(h: HeldInspection, at: number, s: Settings): number | null {
	const start = scheduledAt(h.record);
	if (start === null || !counts(h.record, s)) return null;
	const momentAt = start - s.startingHours * HOUR;
	if (momentAt > at || at >= start + NOT_BEGUN_MS || start === h.lastReminded) return null;
	return momentAt;
}

/**
 * Ended due now: its hours after the end have come, after the trigger began watching Ended, the
 * status counts, and not come before for this inspection. Returns `moment_at`: the end plus the
 * hours (its time follows a move made before it came).
 */
function endedDue(h: HeldInspection, at: number, s: Settings, since: number | null): number | null {
	const end = inspectionEnd(h.record);
	if (h.ended || since === null || end === null || !counts(h.record, s)) return null;
	const momentAt = end + s.endedHours * HOUR;
	return momentAt <= at && momentAt > since ? momentAt : null;
}

// ---------------------------------------------------------------------------------------------
// Contact, appointment and attachment moments

/** A contact holds at most this many tags one by one (its first ones, in the API's order). */
const TAGS_ONE_BY_ONE = 32;

interface ContactChange {
	now: IDataObject;
	before: HeldContact | null;
	isNew: boolean;
}

/** Tag Added: a tag id appears (a new contact's tags are added); not past 32 tags held. */
function tagsAdded(c: ContactChange): string[] {
	if (c.isNew) return idsOf(c.now.tags);
	if (c.before === null) return [];
	const before = idsOf(c.before.record.tags);
	// Past 32 the rest is a count and a hash: the trigger cannot tell which tag is new.
	if (before.length > TAGS_ONE_BY_ONE) return [];
	return minus(idsOf(c.now.tags), before);
}

/** Tag Removed: a tag id leaves; past 32 tags, only one among the 32 held one by one. */
function tagsRemoved(c: ContactChange): string[] {
	if (c.before === null) return [];
	const held = idsOf(c.before.record.tags).slice(0, TAGS_ONE_BY_ONE);
	return minus(held, idsOf(c.now.tags));
}

/** New Role: roles the contact never had (a new contact's roles are new). */
function newRoles(c: ContactChange): string[] {
	const roles = Array.isArray(c.now.roles) ? (c.now.roles as unknown[]).map(String) : [];
	if (c.isNew) return [...new Set(roles)].sort();
	if (c.before === null) return []; // first seen: its roles count as had
	return [...new Set(roles.filter((role) => !c.before!.rolesHad.has(role)))].sort();
}

function holdContact(now: IDataObject, before: HeldContact | null): HeldContact {
	const rolesHad = new Set(before?.rolesHad);
	for (const role of Array.isArray(now.roles) ? (now.roles as unknown[]) : [])
		rolesHad.add(String(role));
	return { record: now, rolesHad };
}

// ---------------------------------------------------------------------------------------------
// What the trigger remembers, and for how long

const MEMORY_MS = 90 * DAY;

/** Events whose resource needs no memory beyond the poll window when selected alone. */
const NEED_NO_MEMORY = new Set([
	'inspection.created',
	'inspection.canceled',
	'inspection.deleted',
	'contact.created',
	'inspection_event.created',
	'attachment.added',
]);

export const selectedOf = (resource: Resource, events: readonly string[]) =>
	EVENTS[resource].filter((event) => events.includes(event));

/** The resource's selected events need the trigger to hold its records. */
export const needsMemory = (resource: Resource, events: readonly string[]) =>
	selectedOf(resource, events).some((event) => !NEED_NO_MEMORY.has(event));

/**
 * A record's activity: an inspection's is the later of its last change and its end (with
 * Inspection Ended selected, its Ended time); a contact's or an appointment's, its last change.
 * Kept 90 days past it; the cap lets the oldest go first.
 */
const changedAt = (record: IDataObject) => apiTime(record.updated_at) ?? -Infinity;

function activity(resource: Resource, record: IDataObject, settings: Settings): number {
	const changed = changedAt(record);
	if (resource !== 'inspections') return changed;
	const end = inspectionEnd(record);
	if (end === null) return changed;
	const ended = settings.events.includes('inspection.ended') ? settings.endedHours * HOUR : 0;
	return Math.max(changed, end + ended);
}

// ---------------------------------------------------------------------------------------------
// The model

export class MomentsModel {
	/** How often each moment and each special case of the contract came up. */
	readonly coverage: Record<string, number> = {};
	private polls = 0;
	/** The events selected at the poll being judged. */
	private selected: readonly string[] = [];
	/** Coverage only: the start times reminded of before Starting was selected afresh. */
	private readonly remindedBeforeAfresh = new Set<string>();
	private readonly memory: Partial<Record<Resource, ResourceMemory>> = {};
	/** The settings of the poll being judged (an activity reads the Ended hours). */
	private settings?: Settings;

	/** Until when (API time) the trigger holds this record; undefined: not held. */
	heldUntil(resource: Resource, id: string, settings: Settings): number | undefined {
		const held = this.memory[resource]?.held.get(id);
		return held === undefined ? undefined : activity(resource, held.record, settings) + MEMORY_MS;
	}

	/** The moments one poll must emit. */
	poll(given: PollView): Moment[] {
		// The versions are held as they are now, whatever the business does to them later.
		const view = { ...given, lists: structuredClone(given.lists) };
		const out: Moment[] = [];
		const firstPoll = this.polls++ === 0;
		this.selected = view.settings.events;
		this.settings = view.settings;
		const readFirst = RESOURCES.find((r) => selectedOf(r, view.settings.events).length > 0);
		for (const resource of RESOURCES) {
			if (selectedOf(resource, view.settings.events).length === 0) {
				// A resource no selected event needs is forgotten; selected again, it gets a baseline.
				delete this.memory[resource];
				continue;
			}
			let memory = this.memory[resource];
			const baseline = memory === undefined;
			memory ??= this.baseline(resource, view, firstPoll, resource === readFirst, out);
			this.memory[resource] = memory;
			const startsAfresh = resource === 'inspections' && this.watchTimeMoments(memory, view);
			if (!baseline) {
				this.letGoAfter90Days(resource, memory, view.at);
				this.judgeChanges(resource, memory, view, out);
			}
			const needed = needsMemory(resource, view.settings.events);
			// Its events start reading memory: what changed since the last look was judged as seen
			// for the first time; the rest is a baseline, its facts counted as having happened.
			if (!baseline && needed && !memory.memoryNeeded) this.holdTheRest(resource, memory, view);
			memory.memoryNeeded = needed;
			if (resource === 'inspections') this.timeMoments(memory, view, startsAfresh, out);
			if (!needsMemory(resource, view.settings.events) && memory.held.size > 0) {
				memory.held.clear();
				this.count(`case: ${resource} held nothing beyond the window`);
			}
			this.holdToCap(resource, memory, view);
			memory.lastLook = view.at;
		}
		const emitted = out.filter(
			(moment) => view.settings.events.includes(moment.event) || moment.event.endsWith('.existing'),
		);
		for (const moment of emitted) this.count(moment.event);
		return emitted;
	}

	/**
	 * The baseline: what exists is read and nothing reported (Emit Existing: each record once as
	 * `…existing`, on the trigger's first poll only); every fact that holds counts as having
	 * happened. READING: Emit Existing is for the first poll; a resource added later gets a silent
	 * baseline. The lists include canceled and deleted inspections, so they are existing too.
	 * READING: the baseline begins at the poll's time as the API dates it (whole seconds); a record
	 * the API dates after that was changed while the baseline ran and is judged as a change, except
	 * in the list the poll reads first (it was answered when the baseline began, so all it lists
	 * existed then). Only a clock set back dates a record after a poll that lists it.
	 */
	private baseline(
		resource: Resource,
		view: PollView,
		firstPoll: boolean,
		readFirst: boolean,
		out: Moment[],
	): ResourceMemory {
		const emitsExisting = firstPoll && view.settings.emitExisting;
		const began = Math.floor(view.at / 1000) * 1000;
		const changedSinceBegan = (record: IDataObject) =>
			!emitsExisting && !readFirst && changedAt(record) > began;
		const memory: ResourceMemory = {
			lastLook: began,
			newestSeen: Math.max(-Infinity, ...view.lists[resource].map(changedAt)),
			held: new Map(),
			startingOn: false,
			endedSince: null,
			memoryNeeded: needsMemory(resource, view.settings.events),
		};
		this.count(firstPoll ? 'case: first baseline' : 'case: baseline of a resource added later');
		for (const record of view.lists[resource]) {
			if (changedSinceBegan(record)) continue;
			const id = recordId(resource, record);
			if (emitsExisting) out.push({ resource, id, event: EXISTING_EVENT[resource] });
			if (resource === 'inspections') memory.held.set(id, holdInspection(record, null));
			else if (resource === 'contacts') memory.held.set(id, holdContact(record, null));
			else memory.held.set(id, { record });
		}
		if (view.lists[resource].some(changedSinceBegan)) {
			this.count('case: changed while the baseline ran (clock set back)');
			this.judgeChanges(resource, memory, view, out);
		}
		memory.lastLook = view.at;
		return memory;
	}

	/** A baseline of every listed record not held yet (no moment). */
	private holdTheRest(resource: Resource, memory: ResourceMemory, view: PollView): void {
		for (const record of view.lists[resource]) {
			const id = recordId(resource, record);
			if (memory.held.has(id)) continue;
			if (resource === 'inspections') memory.held.set(id, holdInspection(record, null));
			else if (resource === 'contacts') memory.held.set(id, holdContact(record, null));
			else memory.held.set(id, { record });
			this.count(`case: ${resource} held from when its events need memory`);
		}
	}

	/** Kept 90 days after its activity; after that, its next change is seen for the first time. */
	private letGoAfter90Days(resource: Resource, memory: ResourceMemory, at: number): void {
		for (const [id, held] of memory.held) {
			if (activity(resource, held.record, this.settings!) + MEMORY_MS > at) continue;
			memory.held.delete(id);
			this.count(`case: ${resource} let go after 90 days`);
		}
	}

	/** A poll reads what changed since the one before, and compares it with what it holds. */
	private judgeChanges(
		resource: Resource,
		memory: ResourceMemory,
		view: PollView,
		out: Moment[],
	): void {
		for (const record of view.lists[resource]) {
			if (changedAt(record) <= memory.lastLook) continue;
			memory.newestSeen = Math.max(memory.newestSeen, changedAt(record));
			const id = recordId(resource, record);
			const before = memory.held.get(id) ?? null;
			// A version seen before is never reported again (one dated ahead of the clock is listed again).
			if (before !== null && JSON.stringify(before.record) === JSON.stringify(record)) continue;
			const createdAt = apiTime(record.created_at);
			const isNew = before === null && createdAt !== null && createdAt > memory.lastLook;
			if (before === null && !isNew) this.count(`case: ${resource} seen first, not new`);
			if (resource === 'inspections') {
				const change: InspectionChange = {
					now: record,
					before: before as HeldInspection | null,
					isNew,
					window: { after: memory.lastLook, upTo: view.at },
					onlyOnce: view.settings.onlyOnce,
				};
				out.push(...this.inspectionMoments(id, change));
				const held = holdInspection(record, change.before);
				if (unknownPast(change)) this.timeMomentsHaveCome(held, memory, view);
				memory.held.set(id, held);
			} else if (resource === 'contacts') {
				const change = { now: record, before: before as HeldContact | null, isNew };
				out.push(...this.contactMoments(id, change));
				memory.held.set(id, holdContact(record, change.before));
			} else if (resource === 'events') {
				out.push(this.appointmentMoment(id, record, before === null, isNew));
				memory.held.set(id, { record });
			} else if (createdAt === null || isNew) {
				// Attachment Added: the pair seen for the first time, created inside the window or
				// without created_at (an attachment is listed again only when it changed).
				out.push({ resource, id, event: 'attachment.added' });
				if (createdAt === null) this.count('case: attachment without created_at');
			}
		}
	}

	private inspectionMoments(id: string, change: InspectionChange): Moment[] {
		const moment = (event: string, inspector?: string): Moment => ({
			resource: 'inspections',
			id,
			event,
			...(inspector === undefined ? {} : { inspector }),
		});
		const out = INSPECTION_MOMENTS.filter(([, happened]) => happened(change)).map(([event]) =>
			moment(event),
		);
		for (const inspector of inspectorsAssigned(change))
			out.push(moment('inspection.inspector_assigned', inspector));
		for (const inspector of inspectorsRemoved(change))
			out.push(moment('inspection.inspector_removed', inspector));
		for (const what of inspectionCases(change, out, this.selected)) this.count(what);
		return out;
	}

	private contactMoments(id: string, change: ContactChange): Moment[] {
		const moment = (event: string): Moment => ({ resource: 'contacts', id, event });
		const out: Moment[] = [moment(change.isNew ? 'contact.created' : 'contact.updated')];
		if (tagsAdded(change).length > 0) out.push(moment('contact.tag_added'));
		if (tagsRemoved(change).length > 0) out.push(moment('contact.tag_removed'));
		const roles = newRoles(change);
		if (roles.length > 0) out.push({ ...moment('contact.new_role'), newRoles: roles });
		for (const what of contactCases(change, this.selected)) this.count(what);
		return out;
	}

	/**
	 * Created: a new appointment, or one without `created_at` seen for the first time.
	 * READING: "seen for the first time" includes one the trigger let go, as its Words say.
	 */
	private appointmentMoment(
		id: string,
		record: IDataObject,
		firstSeen: boolean,
		isNew: boolean,
	): Moment {
		const created = firstSeen && (isNew || record.created_at == null);
		if (firstSeen && record.created_at == null) this.count('case: appointment without created_at');
		return {
			resource: 'events',
			id,
			event: created ? 'inspection_event.created' : 'inspection_event.updated',
		};
	}

	/**
	 * When Starting and Ended began to be watched. Starting deselected and selected again starts
	 * afresh (no start time reminded of); Ended counts only moments after it began to be watched.
	 * Returns whether Starting is selected from this poll on.
	 */
	private watchTimeMoments(memory: ResourceMemory, view: PollView): boolean {
		const events = view.settings.events;
		const startsAfresh = events.includes('inspection.starting') && !memory.startingOn;
		if (startsAfresh) {
			for (const [id, held] of memory.held) {
				if (held.lastReminded != null) this.remindedBeforeAfresh.add(`${id} ${held.lastReminded}`);
				held.lastReminded = null;
			}
		}
		memory.startingOn = events.includes('inspection.starting');
		if (!events.includes('inspection.ended')) memory.endedSince = null;
		else memory.endedSince ??= view.at;
		return startsAfresh;
	}

	/**
	 * Starting and Ended, judged from what the trigger holds after the walk. When Starting is
	 * first selected (the baseline, or added later) the reminders due then go to no one: they
	 * count as sent. READING: only those that would go out (status counts), so a booking that
	 * waits then and is confirmed later still gets its reminder; and a booking made since the last
	 * poll, inside its lead time, is among them.
	 */
	private timeMoments(
		memory: ResourceMemory,
		view: PollView,
		startsAfresh: boolean,
		out: Moment[],
	): void {
		const s = view.settings;
		for (const [id, held] of memory.held) {
			const h = held as HeldInspection;
			const starting = memory.startingOn ? startingDue(h, view.at, s) : null;
			if (starting !== null) {
				h.lastReminded = scheduledAt(h.record);
				if (startsAfresh) {
					this.count('case: Starting due when selected (no reminder)');
				} else {
					out.push({
						resource: 'inspections',
						id,
						event: 'inspection.starting',
						momentAt: starting,
					});
					if (this.remindedBeforeAfresh.has(`${id} ${h.lastReminded}`))
						this.count('case: Starting reminds again, selected afresh');
				}
			}
			const ended = endedDue(h, view.at, s, memory.endedSince);
			if (ended === null) continue;
			h.ended = true;
			if (s.endedLateHours > 0 && view.at - ended > s.endedLateHours * HOUR) {
				this.count('case: Ended too late (skipped)');
				continue;
			}
			out.push({ resource: 'inspections', id, event: 'inspection.ended', momentAt: ended });
		}
	}

	/**
	 * An inspection seen for the first time, not new: what holds then counts as having happened.
	 * READING: that covers its time moments due at that poll too (a reminder or a review request
	 * may have gone out before the trigger let it go).
	 */
	private timeMomentsHaveCome(h: HeldInspection, memory: ResourceMemory, view: PollView): void {
		const s = view.settings;
		if (memory.startingOn && startingDue(h, view.at, s) !== null) {
			h.lastReminded = scheduledAt(h.record);
			this.count('case: Starting due when first seen (no reminder)');
		}
		if (endedDue(h, view.at, s, memory.endedSince) !== null) {
			h.ended = true;
			this.count('case: Ended due when first seen (not sent)');
		}
	}

	/**
	 * The budget (here the record cap): the memories with the oldest activity are let go first
	 * (ties: the lower id first). What the poll window needs to recognise a version seen before
	 * goes last: the version, not the memory (a version seen before is not reported again, which
	 * this model, holding no versions, needs nothing for).
	 */
	private holdToCap(resource: Resource, memory: ResourceMemory, view: PollView): void {
		const cap = view.settings.recordCap;
		if (cap === undefined || memory.held.size <= cap) return;
		const inWindow = (h: Held) =>
			changedAt(h.record) >= memory.newestSeen - view.settings.overlapMs;
		const order = [...memory.held.entries()].sort(
			([idA, a], [idB, b]) =>
				activity(resource, a.record, view.settings) - activity(resource, b.record, view.settings) ||
				(idA < idB ? -1 : idA > idB ? 1 : 0),
		);
		const letGo = order.slice(0, memory.held.size - cap);
		const kept = order.slice(memory.held.size - cap);
		const [last, first] = [letGo.at(-1)![1], kept[0][1]];
		if (
			!inWindow(first) &&
			activity(resource, last.record, view.settings) ===
				activity(resource, first.record, view.settings)
		)
			this.count(`case: ${resource} at the cap, a tie broken by id`);
		if (letGo.some(([, a]) => kept.some(([, b]) => changedAt(a.record) > changedAt(b.record))))
			this.count(`case: ${resource} let go at the cap before one changed earlier`);
		for (const [id] of letGo) {
			memory.held.delete(id);
			this.count(`case: ${resource} let go at the cap`);
		}
	}

	// -------------------------------------------------------------------------------------------
	// Coverage: which moments and special cases the histories reached

	private count(what: string): void {
		this.coverage[what] = (this.coverage[what] ?? 0) + 1;
	}
}

// ---------------------------------------------------------------------------------------------
// The special cases a change reached (coverage only: no rule reads these)

function inspectionCases(
	c: InspectionChange,
	moments: readonly Moment[],
	selected: readonly string[],
): string[] {
	const cases: string[] = [];
	const on = (event: string) => selected.includes(event);
	const came = (event: string) => moments.some((m) => m.event === event) && on(event);
	const when = (yes: boolean, what: string) => yes && cases.push(`case: ${what}`);
	for (const { event } of moments) {
		if (!on(event)) continue;
		when(c.isNew && event !== 'inspection.created', `new and ${event}`);
		when(unknownPast(c) && event !== 'inspection.updated', `first seen and ${event}`);
	}
	if (c.before === null) return cases;
	const { now } = c;
	const was = c.before.record;
	for (const [event, fact] of ONCE_FACTS) {
		if (!on(event) || !c.before.came.has(event)) continue;
		when(came(event), `${event} again (Only Trigger Once off)`);
		when(c.onlyOnce && fact(now) && !fact(was), `${event} held back by Only Trigger Once`);
	}
	const time = scheduledAt(now);
	when(came('inspection.rescheduled') && scheduledAt(was) === null, 'rescheduled through no date');
	when(
		on('inspection.rescheduled') &&
			scheduledAt(was) === null &&
			time !== null &&
			time === c.before.lastKnownTime,
		'time given back (no move)',
	);
	when(
		on('inspection.rescheduled') &&
			time !== null &&
			time === scheduledAt(was) &&
			now.scheduled_for !== was.scheduled_for,
		'same time written differently',
	);
	when(
		came('inspection.paid_and_signed') && nothingToSign(now),
		'paid and signed with nothing to sign',
	);
	when(
		came('inspection.paid_and_signed') && nothingToPay(now),
		'paid and signed with nothing to pay',
	);
	when(
		on('inspection.paid') && nothingToPay(now) && price(now).paid === true,
		'$0 inspection the API calls paid',
	);
	when(came('inspection.paid') && typeof price(now).paid !== 'boolean', 'paid without price.paid');
	when(came('inspection.published') && reports(now).status === 'partial', 'published partially');
	when(
		on('inspection.published') &&
			!OUT_STATUSES.includes(String(reports(now).status)) &&
			listOf(reports(now).items).some((item) => item.status === 'published'),
		'report item published, status not yet',
	);
	const settled = cents(price(now).amount_due) === 0 && (cents(price(now).amount_paid) ?? 0) > 0;
	when(
		on('inspection.paid') && !nothingToPay(now) && price(now).payment_status === 'paid' && !settled,
		'payment status says paid, amounts do not',
	);
	when(
		on('inspection.paid') &&
			price(now).payment_status != null &&
			price(now).payment_status !== 'paid' &&
			settled,
		'amounts say paid, payment status does not',
	);
	when(
		on('inspection.confirmed') && now.confirmed === true && !isConfirmed(now),
		'confirmed flag without the status',
	);
	const items = listOf(agreements(now).items);
	const signedItems = items.filter(agreementSigned).length;
	when(
		on('inspection.agreements_signed') &&
			agreements(now).all_signed === true &&
			signedItems < items.length,
		'all_signed without every item signed',
	);
	when(
		on('inspection.agreements_signed') &&
			items.length > 0 &&
			signedItems === items.length &&
			agreements(now).all_signed !== true,
		'every item signed, all_signed not yet',
	);
	when(
		on('inspection.agreements_signed') && signedItems > 0 && signedItems < items.length,
		'one agreement of several signed',
	);
	const quote = quoteOf(now);
	const last = c.before.lastKnownQuote;
	const fees = on('inspection.fees_changed');
	when(
		fees && quote !== null && last !== null && quote !== last && cents(quote) === cents(last),
		'quote moved less than a cent',
	);
	when(fees && quote === null && last !== null, 'quote briefly null');
	when(came('inspection.fees_changed') && quoteOf(was) === null, 'fees changed after a null quote');
	when(
		fees &&
			JSON.stringify(feeIds(now)) === JSON.stringify(feeIds(was)) &&
			JSON.stringify(now.add_ons) !== JSON.stringify(was.add_ons) &&
			cents(quote) === cents(quoteOf(was)),
		'add-on quantity changed alone',
	);
	when(
		on('inspection.inspector_assigned') &&
			JSON.stringify(idsOf(now.inspectors)) === JSON.stringify(idsOf(was.inspectors)) &&
			JSON.stringify(now.inspectors) !== JSON.stringify(was.inspectors),
		'inspector renamed',
	);
	return cases;
}

function contactCases(c: ContactChange, selected: readonly string[]): string[] {
	const cases: string[] = [];
	if (c.before === null) return cases;
	const when = (yes: boolean, what: string) => yes && cases.push(`case: ${what}`);
	const before = idsOf(c.before.record.tags);
	const now = idsOf(c.now.tags);
	if (before.length > TAGS_ONE_BY_ONE) {
		when(
			selected.includes('contact.tag_added') && minus(now, before).length > 0,
			'tag added past 32 (not reported)',
		);
		when(
			selected.includes('contact.tag_removed') &&
				minus(before.slice(TAGS_ONE_BY_ONE), now).length > 0,
			'tag removed past the first 32',
		);
		when(
			selected.includes('contact.tag_removed') && tagsRemoved(c).length > 0,
			'tag removed among 32 of more',
		);
	}
	const names = (r: IDataObject) => JSON.stringify(listOf(r.tags));
	when(
		selected.includes('contact.tag_added') &&
			JSON.stringify(before) === JSON.stringify(now) &&
			names(c.before.record) !== names(c.now),
		'tag renamed',
	);
	const rolesNow = Array.isArray(c.now.roles) ? c.now.roles.map(String) : [];
	const rolesWere = Array.isArray(c.before.record.roles) ? c.before.record.roles.map(String) : [];
	when(
		selected.includes('contact.new_role') &&
			rolesNow.some((role) => !rolesWere.includes(role) && c.before!.rolesHad.has(role)),
		'role given again (not new)',
	);
	return cases;
}
