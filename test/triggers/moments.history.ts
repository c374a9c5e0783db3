/**
 * Business histories for the moments' model test, and their run: records booked and changed
 * before and between polls (moments.business.ts), pauses of a second to months between polls
 * (n8n away; past 90 days, records are let go), the API's clock jumping, and the user editing the
 * trigger between polls (events selected and deselected, Hours Before and After, Only Trigger
 * Once). Each poll runs the real trigger (moments.driver.ts) and the model (moments.model.ts) on
 * the same business, and their moments must be the same multiset. Four kinds of history share
 * the runs: the whole business (every resource, any selection), a few inspections over many polls
 * (the once-moments coming and going), inspections at a small record cap booked into shared
 * slots (what is let go first, ties included), and reminders (upcoming inspections moved about
 * while Starting and Ended are turned off and on and their hours changed).
 *
 * A few cases the contract leaves open are kept out of the histories by the run, so a failure is
 * always a broken rule (each is counted in the run's totals):
 * - a change made before a record's 90 days end, read by a poll after they end (is the change
 *   judged by its own time or by the poll's?);
 * - Appointment Created alone selected while appointments without created_at exist (the window
 *   would be all the memory, and they would be new again once it passed);
 * - Skip Ended Moments Later Than 0 with n8n away 80 days or more (a review request due while
 *   away, for an inspection let go while away);
 * - with a record cap, changes less than the overlap apart (the window would hold more records
 *   than the cap) and the clock going back;
 * - an attachment without created_at changed later, and a deleted inspection with attachments
 *   restored (moments.business.ts: the window would decide whether they are added again).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	APPOINTMENT_CHANGES,
	type AppointmentChangeKind,
	type Booking,
	Business,
	CONTACT_CHANGES,
	type ContactChangeKind,
	INSPECTION_CHANGES,
	type InspectionChangeKind,
	type NewContact,
} from './moments.business';
import { TriggerDriver } from './moments.driver';
import {
	ALL_EVENTS,
	apiTime,
	EVENTS,
	type Moment,
	MomentsModel,
	needsMemory,
	RESOURCES,
	type Resource,
	recordId,
	selectedOf,
	type Settings,
} from './moments.model';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const OVERLAP_MS = 5 * MINUTE;

export type Action = { afterMs: number } & (
	| { do: 'book'; booking: Booking }
	| { do: 'inspection'; pick: number; change: InspectionChangeKind; arg: number }
	| { do: 'contact'; contact: NewContact }
	| { do: 'contactChange'; pick: number; change: ContactChangeKind; arg: number }
	| { do: 'appointment'; pick: number; withCreatedAt: boolean }
	| { do: 'appointmentChange'; pick: number; change: AppointmentChangeKind; arg: number }
	| { do: 'attachment'; pick: number; withCreatedAt: boolean }
	| { do: 'attachmentChange'; pick: number }
	/** The API's clock jumps (a negative jump: set back). */
	| { do: 'clock'; jumpMs: number }
);

/** The user edits the trigger before a poll. */
export interface Edit {
	/** Events selected or deselected (indexes into ALL_EVENTS). */
	toggle: number[];
	startingHours: number | null;
	endedHours: number | null;
	onlyOnce: boolean | null;
}

export interface Round {
	edit: Edit | null;
	/** From the last poll to the first action (n8n's pause, or the business's). */
	waitMs: number;
	actions: Action[];
	/** From the last action to the poll. */
	pauseMs: number;
}

export interface History {
	settings: Omit<Settings, 'overlapMs'>;
	/** Before the trigger's first poll. */
	before: Action[];
	rounds: Round[];
}

// --- the arbitraries ------------------------------------------------------------------------

const seconds = (min: number, max: number) => fc.integer({ min, max }).map((s) => s * SECOND);
const hours = (min: number, max: number) => fc.integer({ min, max });

type BookingParts = { [K in keyof Booking]: fc.Arbitrary<Booking[K]> };

const ANY_BOOKING: BookingParts = {
	status: fc.oneof(
		{ weight: 1, arbitrary: fc.constantFrom('draft', 'waiting', 'review', 'canceled') },
		{ weight: 1, arbitrary: fc.constant('confirmed') },
	),
	inHours: fc.oneof(
		{ weight: 1, arbitrary: fc.constant(null) },
		{ weight: 1, arbitrary: hours(-72, -1) },
		{ weight: 2, arbitrary: hours(0, 6) },
		{ weight: 3, arbitrary: hours(6, 72) },
		{ weight: 1, arbitrary: hours(72, 300) },
		{ weight: 1, arbitrary: fc.constantFrom(3, 27) },
	),
	slotMinutes: fc.constant(15),
	offGrid: fc.oneof(
		{ weight: 3, arbitrary: fc.constant(0) },
		{ weight: 1, arbitrary: fc.integer({ min: 1, max: 14 }) },
	),
	duration: fc.constantFrom(null, 1.5, 2, 3),
	endsAtExtra: fc.oneof(
		{ weight: 3, arbitrary: fc.constant(null) },
		{ weight: 1, arbitrary: fc.integer({ min: 0, max: 20 }) },
	),
	quote: fc.constantFrom(0, 0, 425, 425.1, 300.55, 199.99, 400),
	paid: fc.constantFrom('no', 'no', 'no', 'part', 'full'),
	paidStyle: fc.constantFrom('boolean', 'boolean', 'boolean', 'boolean', 'status', 'amounts'),
	agreements: fc.constantFrom(0, 1, 1, 2, 2),
	signed: fc.constantFrom('none', 'none', 'none', 'one', 'all'),
	reports: fc.constantFrom('na', 'status', 'one', 'two', 'two'),
	published: fc.constantFrom('none', 'none', 'none', 'none', 'some', 'all'),
	inspectors: fc.integer({ min: 0, max: 2 }),
	addOn: fc.boolean(),
	flaggedConfirmed: fc.boolean(),
};
const bookingOf = (parts: Partial<BookingParts> = {}): fc.Arbitrary<Booking> =>
	fc.record({ ...ANY_BOOKING, ...parts });

/** The changes the moments turn on come more often; every kind comes. */
const OFTEN: Partial<Record<InspectionChangeKind, number>> = {
	// These four come and go (see Business.changeInspection): the once-moments' repeats.
	confirm: 8,
	payFull: 10,
	signAll: 6,
	publishAll: 6,
	unconfirm: 2,
	move: 4,
	moveBack: 3,
	unschedule: 3,
	payPart: 2,
	refund: 3,
	sign: 3,
	addendum: 3,
	publish: 3,
	unpublish: 3,
	assign: 2,
	unassign: 3,
	addOn: 3,
	cancel: 3,
	delete: 2,
	return: 2,
};
const anyChange = fc.oneof(
	...INSPECTION_CHANGES.map((kind) => ({ weight: OFTEN[kind] ?? 1, arbitrary: fc.constant(kind) })),
);
/** What moves a reminder or a review request: the schedule, the length, the status. */
const scheduleChange = fc.constantFrom<InspectionChangeKind>(
	'move',
	'moveBack',
	'unschedule',
	'length',
	'confirm',
	'cancel',
	'return',
	'touch',
	'touch',
	'touch',
	'reformatTime',
);

/** Which record a change picks, counted from the newest: mostly one of the last few. */
const pick = fc.oneof(
	{ weight: 3, arbitrary: fc.constant(0) },
	{ weight: 2, arbitrary: fc.nat(2) },
	{ weight: 1, arbitrary: fc.nat(30) },
);

const afterMs = fc.oneof(
	{ weight: 5, arbitrary: seconds(1, 120) },
	{ weight: 2, arbitrary: seconds(120, 3600) },
);
const withTime = (what: fc.Arbitrary<Omit<Action, 'afterMs'>>): fc.Arbitrary<Action> =>
	fc.tuple(afterMs, what).map(([ms, act]) => ({ afterMs: ms, ...act }) as Action);

const book = (b: fc.Arbitrary<Booking>) => b.map((booking) => ({ do: 'book' as const, booking }));
const changeInspection = (change: fc.Arbitrary<InspectionChangeKind>) =>
	fc.record({ do: fc.constant('inspection' as const), pick, change, arg: fc.nat(30) });

/** Anything the business does. */
const action: fc.Arbitrary<Action> = withTime(
	fc.oneof(
		{ weight: 2, arbitrary: book(bookingOf()) },
		{ weight: 12, arbitrary: changeInspection(anyChange) },
		{
			weight: 1,
			arbitrary: fc
				.record({
					tags: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 33, max: 36 })),
					roles: fc.integer({ min: 0, max: 2 }),
				})
				.map((contact) => ({ do: 'contact' as const, contact })),
		},
		{
			weight: 4,
			arbitrary: fc.record({
				do: fc.constant('contactChange' as const),
				pick,
				change: fc.constantFrom(...CONTACT_CHANGES, 'roleDrop', 'roleRegain', 'tagAdd'),
				arg: fc.nat(60),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				do: fc.constant('appointment' as const),
				pick,
				withCreatedAt: fc.constantFrom(true, true, true, false),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				do: fc.constant('appointmentChange' as const),
				pick,
				change: fc.constantFrom(...APPOINTMENT_CHANGES),
				arg: fc.nat(30),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				do: fc.constant('attachment' as const),
				pick,
				withCreatedAt: fc.boolean(),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({ do: fc.constant('attachmentChange' as const), pick: fc.nat(30) }),
		},
		{
			weight: 1,
			arbitrary: fc
				.oneof(seconds(-240, -1), seconds(60, 6 * 3600))
				.map((jumpMs) => ({ do: 'clock' as const, jumpMs })),
		},
	),
);

/** Inspections only: booked now and then (`bookOneIn`), changed the rest of the time. */
const inspectionAction = (
	booking: fc.Arbitrary<Booking>,
	change: fc.Arbitrary<InspectionChangeKind>,
	bookOneIn: number,
): fc.Arbitrary<Action> =>
	withTime(
		fc.oneof(
			{ weight: 1, arbitrary: book(booking) },
			{ weight: bookOneIn - 1, arbitrary: changeInspection(change) },
		),
	);

const pause = fc.oneof(
	{ weight: 12, arbitrary: seconds(1, 600) },
	{ weight: 9, arbitrary: seconds(600, 3 * 3600) },
	{ weight: 9, arbitrary: seconds(3 * 3600, 36 * 3600) },
	{ weight: 3, arbitrary: seconds(2 * 86_400, 20 * 86_400) },
	// n8n away: weeks under the 90 days records are kept, and months past them.
	{ weight: 1, arbitrary: seconds(45 * 86_400, 88 * 86_400) },
	{ weight: 1, arbitrary: seconds(92 * 86_400, 150 * 86_400) },
);
/** Between polls while reminders and review requests come due. */
const hoursApart = fc.oneof(
	{ weight: 3, arbitrary: seconds(60, 1800) },
	{ weight: 4, arbitrary: seconds(1800, 6 * 3600) },
	{ weight: 1, arbitrary: seconds(86_400, 4 * 86_400) },
);

/** Now and then (fast-check's `freq` is the odds of the nil value: 1 in `freq`). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
	fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const indexesOf = (...events: string[]) => events.map((event) => ALL_EVENTS.indexOf(event));

const edit: fc.Arbitrary<Edit> = fc.record({
	toggle: fc.oneof(
		{ weight: 1, arbitrary: fc.constant<number[]>([]) },
		// Starting or Ended off, or on again (each starts afresh).
		{
			weight: 1,
			arbitrary: fc.constantFrom(indexesOf('inspection.starting'), indexesOf('inspection.ended')),
		},
		{
			weight: 3,
			arbitrary: fc.array(fc.nat(ALL_EVENTS.length - 1), { minLength: 1, maxLength: 3 }),
		},
	),
	startingHours: sometimes(fc.constantFrom(0, 1, 2, 24, 48), 3),
	endedHours: sometimes(fc.constantFrom(0, 1, 24, 72), 3),
	onlyOnce: sometimes(fc.boolean(), 3),
});

/** Starting or Ended off and on again, their hours raised and lowered. */
const timeEdit: fc.Arbitrary<Edit> = fc.record({
	toggle: fc.constantFrom(
		[],
		indexesOf('inspection.starting'),
		indexesOf('inspection.starting'),
		indexesOf('inspection.ended'),
		indexesOf('inspection.ended'),
	),
	startingHours: sometimes(fc.constantFrom(1, 2, 6, 6, 24), 2),
	endedHours: sometimes(fc.constantFrom(0, 1, 24), 3),
	onlyOnce: fc.constant(null),
});

interface RoundParts {
	act: fc.Arbitrary<Action>;
	most: number;
	edit: fc.Arbitrary<Edit>;
	editOneIn: number;
	pause: fc.Arbitrary<number>;
}

const roundOf = (r: RoundParts): fc.Arbitrary<Round> =>
	fc.record({
		edit: sometimes(r.edit, r.editOneIn),
		waitMs: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: r.pause }),
		actions: fc.array(r.act, { maxLength: r.most }),
		pauseMs: r.pause,
	});

const settingsOf = (
	events: fc.Arbitrary<readonly string[]>,
	recordCap: fc.Arbitrary<number | undefined>,
	startingHours = fc.constantFrom(0, 1, 2, 24, 24, 48),
) =>
	fc.record({
		events,
		emitExisting: fc.boolean(),
		onlyOnce: fc.boolean(),
		startingHours,
		endedHours: fc.constantFrom(0, 1, 24, 24, 72),
		endedLateHours: fc.constantFrom(0, 2, 48, 48, 240),
		momentStatuses: fc.constantFrom(
			['confirmed'],
			['confirmed'],
			['confirmed', 'waiting'],
			['confirmed', 'waiting', 'review', 'draft'],
		),
		recordCap,
	});
const sometimesCapped = fc.oneof(
	{ weight: 3, arbitrary: fc.constant(undefined) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
);
const inspectionEvents = fc.subarray([...EVENTS.inspections], { minLength: 12 });

/** A business at large: every resource, any selection. */
const wholeBusiness: fc.Arbitrary<History> = fc.record({
	settings: settingsOf(
		fc.oneof(
			{ weight: 2, arbitrary: fc.constant([...ALL_EVENTS]) },
			{ weight: 3, arbitrary: fc.subarray([...ALL_EVENTS], { minLength: 1 }) },
			{ weight: 1, arbitrary: fc.subarray([...ALL_EVENTS], { minLength: 1, maxLength: 4 }) },
		),
		sometimesCapped,
	),
	before: fc.array(action, { maxLength: 10 }),
	rounds: fc.array(roundOf({ act: action, most: 6, edit, editOneIn: 6, pause }), {
		minLength: 4,
		maxLength: 24,
		size: 'max',
	}),
});

/** A few inspections through many polls: the once-moments' comebacks. */
const fewInspectionsAct = inspectionAction(
	// Often paid, signed and published from the start: each toggle then takes a gate down or up.
	bookingOf({
		paid: fc.constantFrom('no', 'full', 'full'),
		signed: fc.constantFrom('none', 'all', 'all'),
		published: fc.constantFrom('none', 'all', 'all'),
	}),
	anyChange,
	13,
);
const fewInspections: fc.Arbitrary<History> = fc.record({
	settings: settingsOf(inspectionEvents, sometimesCapped),
	before: fc.array(fewInspectionsAct, { maxLength: 4 }),
	rounds: fc.array(roundOf({ act: fewInspectionsAct, most: 3, edit, editOneIn: 6, pause }), {
		minLength: 8,
		maxLength: 30,
		size: 'max',
	}),
});

/** More inspections than the cap holds, booked into the same slots (ties in their activity). */
const atTheCapAct = inspectionAction(
	bookingOf({
		inHours: fc.constantFrom(null, 3, 3, 27, 27, -30),
		slotMinutes: fc.constant(6 * 60),
		offGrid: fc.constant(0),
		duration: fc.constant(2),
		endsAtExtra: fc.constant(null),
	}),
	anyChange,
	4,
);
const atTheCap: fc.Arbitrary<History> = fc.record({
	settings: settingsOf(inspectionEvents, fc.integer({ min: 1, max: 3 })),
	before: fc.array(atTheCapAct, { maxLength: 6 }),
	rounds: fc.array(roundOf({ act: atTheCapAct, most: 3, edit, editOneIn: 6, pause }), {
		minLength: 6,
		maxLength: 20,
		size: 'max',
	}),
});

/** Upcoming confirmed inspections moved about while Starting and Ended are turned off and on. */
const remindersAct = inspectionAction(
	bookingOf({ status: fc.constant('confirmed'), inHours: hours(4, 60) }),
	scheduleChange,
	5,
);
const reminders: fc.Arbitrary<History> = fc.record({
	settings: settingsOf(inspectionEvents, fc.constant(undefined), fc.constantFrom(24, 48)),
	before: fc.array(remindersAct, { maxLength: 4 }),
	rounds: fc.array(
		roundOf({ act: remindersAct, most: 1, edit: timeEdit, editOneIn: 2, pause: hoursApart }),
		{ minLength: 8, maxLength: 24, size: 'max' },
	),
});

/** The seed of the fixed histories `npm test` checks (moments.model.test.ts, moments.knockout.test.ts). */
export const FIXED_SEED = 3;

/** How many histories those tests draw: 150, or MOMENTS_MODEL_RUNS (a bench's long run). */
export const MODEL_RUNS = Number(process.env.MOMENTS_MODEL_RUNS ?? 150);

export const historyArbitrary: fc.Arbitrary<History> = fc.oneof(
	{ weight: 2, arbitrary: wholeBusiness },
	{ weight: 2, arbitrary: fewInspections },
	{ weight: 1, arbitrary: atTheCap },
	{ weight: 1, arbitrary: reminders },
);

// --- the run ----------------------------------------------------------------------------------

/** What a run reached: the model's counts, plus the run's own. */
export type Coverage = Record<string, number>;

const PREFIXES: Array<[string, Resource]> = [
	['contact.', 'contacts'],
	['inspection_event.', 'events'],
	['inspection.', 'inspections'],
	['attachment.', 'attachments'],
];

/** What one of the trigger's items says, in the model's terms. */
function momentOfItem(item: IDataObject): Moment {
	const event = String(item.event);
	if ('problem' in item) throw new Error(`an unreadable item: ${String(item.problem)}`);
	const resource = PREFIXES.find(([prefix]) => event.startsWith(prefix))![1];
	const moment: Moment = { resource, id: recordId(resource, item.record as IDataObject), event };
	if (event === 'inspection.inspector_assigned' || event === 'inspection.inspector_removed')
		moment.inspector = String((item.inspector as IDataObject | undefined)?.id);
	if (event === 'inspection.starting' || event === 'inspection.ended')
		moment.momentAt = apiTime(item.moment_at) ?? undefined;
	if (event === 'contact.new_role')
		moment.newRoles = (Array.isArray(item.new_roles) ? item.new_roles : []).map(String).sort();
	return moment;
}

const keyOf = (m: Moment) =>
	[
		m.event,
		m.id,
		m.inspector ?? '',
		m.momentAt === undefined ? '' : new Date(m.momentAt).toISOString(),
		m.newRoles?.join('+') ?? '',
	]
		.filter((part) => part !== '')
		.join(' ');

/** `a` less `b`, as multisets. */
function less(a: string[], b: string[]): string[] {
	const left = [...b];
	return a.filter((key) => {
		const at = left.indexOf(key);
		if (at < 0) return true;
		left.splice(at, 1);
		return false;
	});
}

class Run {
	readonly business = new Business();
	readonly model = new MomentsModel();
	readonly trigger = new TriggerDriver(this.business, () => this.business.now);
	readonly coverage: Coverage = {};
	settings: Settings;
	lastPoll: number | null = null;
	private readonly capped: boolean;
	private readonly appointmentsWithoutCreatedAt: boolean;

	constructor(history: History) {
		this.capped = history.settings.recordCap !== undefined;
		const all = [...history.before, ...history.rounds.flatMap((r) => r.actions)];
		this.appointmentsWithoutCreatedAt = all.some((a) => a.do === 'appointment' && !a.withCreatedAt);
		this.settings = {
			...history.settings,
			overlapMs: OVERLAP_MS,
			events: this.withinReach(history.settings.events, []),
		};
	}

	private count(what: string): void {
		this.coverage[what] = (this.coverage[what] ?? 0) + 1;
	}

	/** The selection, kept out of what the contract leaves open (see the top of this file). */
	private withinReach(events: readonly string[], before: readonly string[]): string[] {
		const chosen = [...events];
		if (this.appointmentsWithoutCreatedAt) {
			const appointments = selectedOf('events', chosen);
			if (appointments.length === 1 && appointments[0] === 'inspection_event.created')
				chosen.push('inspection_event.updated');
		}
		for (const resource of RESOURCES) {
			const was = selectedOf(resource, before);
			if (was.length > 0 && !needsMemory(resource, was) && needsMemory(resource, chosen))
				this.count('run: events start reading memory');
		}
		// The node refuses a poll with no event selected: such an edit is not made.
		if (chosen.length === 0) return [...before];
		return ALL_EVENTS.filter((event) => chosen.includes(event));
	}

	applyEdit(edit: Edit): void {
		const events = new Set(this.settings.events);
		for (const index of edit.toggle) {
			const event = ALL_EVENTS[index];
			if (events.has(event)) events.delete(event);
			else events.add(event);
		}
		this.settings = {
			...this.settings,
			events: this.withinReach([...events], this.settings.events),
			startingHours: edit.startingHours ?? this.settings.startingHours,
			endedHours: edit.endedHours ?? this.settings.endedHours,
			onlyOnce: edit.onlyOnce ?? this.settings.onlyOnce,
		};
		this.count('run: settings edited');
	}

	/**
	 * When each action happens and when the poll comes: the API's clock, in whole seconds. A clock
	 * action moves it on or back (`jumps`: by how much it did).
	 */
	private schedule(
		waitMs: number,
		actions: Action[],
		pauseMs: number,
	): { at: number[]; jumps: number[]; pollAt: number } {
		// Skip Ended Moments Later Than 0: n8n away under 80 days in all (see the top of this file).
		const longest = this.settings.endedLateHours === 0 ? 39 * DAY : Infinity;
		let now = this.business.now + Math.min(waitMs, longest);
		const jumps: number[] = [];
		const at = actions.map((a) => {
			now += this.capped ? Math.max(a.afterMs, OVERLAP_MS + MINUTE) : a.afterMs;
			let jump = 0;
			if (a.do === 'clock' && (a.jumpMs > 0 || !this.capped)) {
				// Set back, never behind the last poll (what the trigger saw stays seen).
				const floor = this.lastPoll === null ? -Infinity : this.lastPoll + SECOND;
				jump = Math.max(now + a.jumpMs, floor) - now;
			}
			jumps.push(jump);
			now += jump;
			return now;
		});
		return { at, jumps, pollAt: now + Math.min(pauseMs, longest) };
	}

	/** Applies the actions at their times, then the pause; says what happened when. */
	act(waitMs: number, actions: Action[], pauseMs: number): string[] {
		const { at, jumps, pollAt } = this.schedule(waitMs, actions, pauseMs);
		const told = actions.map((a, i) => {
			if (jumps[i] < 0) this.count('run: clock set back');
			if (jumps[i] > 0) this.count('run: clock jumped ahead');
			this.business.now = at[i];
			this.apply(a, pollAt);
			return `    ${new Date(at[i]).toISOString()} ${JSON.stringify({ ...a, afterMs: undefined })}`;
		});
		this.business.now = pollAt;
		return told;
	}

	/**
	 * The record a change picks, unless it is held and the change is made before its 90 days end
	 * and read after they end (see the top of this file).
	 */
	private changeable(
		resource: Resource,
		id: string | undefined,
		pollAt: number,
	): string | undefined {
		if (id === undefined) return undefined;
		const until = this.model.heldUntil(resource, id, this.settings);
		if (until !== undefined && until > this.business.now && until <= pollAt) {
			this.count('run: change left out at the 90-day edge');
			return undefined;
		}
		return id;
	}

	private apply(a: Action, pollAt: number): void {
		const b = this.business;
		let id: string | undefined;
		switch (a.do) {
			case 'book':
				b.book(a.booking);
				return;
			case 'inspection':
				id = this.changeable('inspections', b.pick('inspections', a.pick), pollAt);
				if (id !== undefined) b.changeInspection(id, a.change, a.arg);
				return;
			case 'contact':
				b.newContact(a.contact);
				return;
			case 'contactChange':
				id = this.changeable('contacts', b.pick('contacts', a.pick), pollAt);
				if (id !== undefined) b.changeContact(id, a.change, a.arg);
				return;
			case 'appointment':
				b.newAppointment(a.pick, a.withCreatedAt);
				return;
			case 'appointmentChange':
				id = this.changeable('events', b.pick('events', a.pick), pollAt);
				if (id !== undefined) b.changeAppointment(id, a.change, a.arg);
				return;
			case 'attachment':
				b.newAttachment(a.pick, a.withCreatedAt);
				return;
			case 'attachmentChange':
				id = b.pick('attachments', a.pick);
				if (id !== undefined) b.renameAttachment(id);
				return;
			case 'clock':
				return; // see schedule()
		}
	}

	/** One poll of the trigger and of the model; their moments must be the same multiset. */
	async poll(index: number, trace: string): Promise<void> {
		const at = this.business.now;
		const lists = Object.fromEntries(
			RESOURCES.map((resource) => [resource, this.business.listed(resource)]),
		) as Record<Resource, IDataObject[]>;
		const expected = this.model.poll({ at, lists, settings: this.settings }).map(keyOf);
		const actual = (await this.trigger.poll(this.settings)).map((item) =>
			keyOf(momentOfItem(item)),
		);
		this.lastPoll = at;
		const missing = less(expected, actual);
		const unexpected = less(actual, expected);
		if (missing.length > 0 || unexpected.length > 0) {
			throw new Error(
				[
					`poll ${index} at ${new Date(at).toISOString()} disagrees with the contract`,
					`  missing:    ${missing.join(' | ') || '-'}`,
					`  unexpected: ${unexpected.join(' | ') || '-'}`,
					`  settings: ${JSON.stringify({ ...this.settings, events: this.settings.events.join(' ') })}`,
					trace,
				].join('\n'),
			);
		}
		this.count('run: polls');
	}
}

/** Runs one history; returns what it reached. Throws at the first poll the trigger and the model disagree. */
export async function runHistory(history: History): Promise<Coverage> {
	const run = new Run(history);
	// The last rounds, for a failure's message.
	let trace: string[] = ['  before the first poll:', ...run.act(0, history.before, MINUTE)];
	for (const [index, round] of history.rounds.entries()) {
		if (round.edit) run.applyEdit(round.edit);
		trace.push(`  round ${index}${round.edit ? ` (edited: ${JSON.stringify(round.edit)})` : ''}:`);
		trace.push(...run.act(round.waitMs, round.actions, round.pauseMs));
		trace.push(`    poll at ${new Date(run.business.now).toISOString()}`);
		await run.poll(index, trace.join('\n'));
		trace = trace.slice(-40);
	}
	const coverage: Coverage = { ...run.coverage };
	for (const [what, n] of Object.entries(run.model.coverage))
		coverage[what] = (coverage[what] ?? 0) + n;
	return coverage;
}
