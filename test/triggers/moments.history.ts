/**
 * Business histories for the moments' model test, and their run: records booked and changed
 * before and between polls (moments.business.ts), pauses of a second to months between polls
 * (n8n away; past 90 days, records are let go), the API's clock jumping, and the user editing the
 * trigger between polls (events selected and deselected, Hours Before and After, Only Trigger
 * Once). Each poll runs the real trigger (moments.driver.ts) and the model (moments.model.ts) on
 * the same business, and their moments must be the same multiset.
 *
 * A few cases the contract leaves open are kept out of the histories by the run, so a failure is
 * always a broken rule (each is counted; see the report of the test):
 * - a change made before a record's 90 days end, read by a poll after they end (is the change
 *   judged by its own time or by the poll's?);
 * - a resource whose selected events needed no memory (Created, Canceled, Deleted alone) given
 *   an event that needs it (does it take a baseline?): the resource keeps its old selection;
 * - Appointment Created alone selected while appointments without created_at exist (the window
 *   would be all the memory, and they would be new again once it passed);
 * - Skip Ended Moments Later Than 0 with n8n away 80 days or more (a review request due while
 *   away, for an inspection let go while away);
 * - with a record cap, changes less than the overlap apart (the window would hold more records
 *   than the cap) and the clock going back.
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

const booking: fc.Arbitrary<Booking> = fc.record({
	status: fc.constantFrom(
		'draft',
		'waiting',
		'review',
		'confirmed',
		'confirmed',
		'confirmed',
		'canceled',
	),
	inHours: fc.oneof(
		{ weight: 1, arbitrary: fc.constant(null) },
		{ weight: 1, arbitrary: fc.integer({ min: -72, max: -1 }) },
		{ weight: 2, arbitrary: fc.integer({ min: 0, max: 6 }) },
		{ weight: 3, arbitrary: fc.integer({ min: 6, max: 72 }) },
		{ weight: 1, arbitrary: fc.integer({ min: 72, max: 300 }) },
	),
	offGrid: fc.oneof(
		{ weight: 3, arbitrary: fc.constant(0) },
		{ weight: 1, arbitrary: fc.integer({ min: 1, max: 14 }) },
	),
	duration: fc.constantFrom(null, 1.5, 2, 3),
	endsAtExtra: fc.oneof(
		{ weight: 3, arbitrary: fc.constant(null) },
		{ weight: 1, arbitrary: fc.integer({ min: 0, max: 20 }) },
	),
	quote: fc.constantFrom(0, 425, 425.1, 300.55, 199.99, 400),
	paid: fc.constantFrom('no', 'no', 'no', 'part', 'full'),
	paidStyle: fc.constantFrom('boolean', 'boolean', 'boolean', 'boolean', 'status', 'amounts'),
	agreements: fc.constantFrom(0, 1, 1, 2, 2),
	signed: fc.constantFrom('none', 'none', 'none', 'one', 'all'),
	reports: fc.constantFrom('na', 'status', 'one', 'two', 'two'),
	published: fc.constantFrom('none', 'none', 'none', 'none', 'some', 'all'),
	inspectors: fc.integer({ min: 0, max: 2 }),
	addOn: fc.boolean(),
});

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
const inspectionChange = fc.oneof(
	...INSPECTION_CHANGES.map((kind) => ({ weight: OFTEN[kind] ?? 1, arbitrary: fc.constant(kind) })),
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

const book = booking.map((b) => ({ do: 'book' as const, booking: b }));
const changeInspection = fc.record({
	do: fc.constant('inspection' as const),
	pick,
	change: inspectionChange,
	arg: fc.nat(30),
});

/** Anything the business does. */
const action: fc.Arbitrary<Action> = withTime(
	fc.oneof(
		{ weight: 2, arbitrary: book },
		{ weight: 12, arbitrary: changeInspection },
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
				withCreatedAt: fc.boolean(),
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

/** What an inspection goes through, more densely: the once-moments' comebacks need several polls. */
const inspectionAction: fc.Arbitrary<Action> = withTime(
	fc.oneof({ weight: 1, arbitrary: book }, { weight: 12, arbitrary: changeInspection }),
);

const pause = fc.oneof(
	{ weight: 12, arbitrary: seconds(1, 600) },
	{ weight: 9, arbitrary: seconds(600, 3 * 3600) },
	{ weight: 9, arbitrary: seconds(3 * 3600, 36 * 3600) },
	{ weight: 3, arbitrary: seconds(2 * 86_400, 20 * 86_400) },
	{ weight: 1, arbitrary: seconds(91 * 86_400, 150 * 86_400) },
);

/** Now and then (fast-check's `freq` is the odds of the nil value: 1 in `freq`). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
	fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const edit: fc.Arbitrary<Edit> = fc.record({
	toggle: fc.oneof(
		{ weight: 1, arbitrary: fc.constant<number[]>([]) },
		{
			weight: 3,
			arbitrary: fc.array(fc.nat(ALL_EVENTS.length - 1), { minLength: 1, maxLength: 3 }),
		},
	),
	startingHours: sometimes(fc.constantFrom(0, 1, 2, 24, 48), 3),
	endedHours: sometimes(fc.constantFrom(0, 1, 24, 72), 3),
	onlyOnce: sometimes(fc.boolean(), 3),
});

const roundOf = (act: fc.Arbitrary<Action>, most: number): fc.Arbitrary<Round> =>
	fc.record({
		edit: sometimes(edit, 6),
		waitMs: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: pause }),
		actions: fc.array(act, { maxLength: most }),
		pauseMs: pause,
	});

const settings = (events: fc.Arbitrary<readonly string[]>) =>
	fc.record({
		events,
		emitExisting: fc.boolean(),
		onlyOnce: fc.boolean(),
		startingHours: fc.constantFrom(0, 1, 2, 24, 24, 48),
		endedHours: fc.constantFrom(0, 1, 24, 24, 72),
		endedLateHours: fc.constantFrom(0, 2, 48, 48, 240),
		momentStatuses: fc.constantFrom(
			['confirmed'],
			['confirmed'],
			['confirmed', 'waiting'],
			['confirmed', 'waiting', 'review', 'draft'],
		),
		recordCap: fc.oneof(
			{ weight: 3, arbitrary: fc.constant(undefined) },
			{ weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
		),
	});

/** A business at large: every resource, any selection. */
const wholeBusiness: fc.Arbitrary<History> = fc.record({
	settings: settings(
		fc.oneof(
			{ weight: 2, arbitrary: fc.constant([...ALL_EVENTS]) },
			{ weight: 3, arbitrary: fc.subarray([...ALL_EVENTS], { minLength: 1 }) },
			{ weight: 1, arbitrary: fc.subarray([...ALL_EVENTS], { minLength: 1, maxLength: 4 }) },
		),
	),
	before: fc.array(action, { maxLength: 10 }),
	rounds: fc.array(roundOf(action, 6), { minLength: 4, maxLength: 24, size: 'max' }),
});

/** A few inspections through many polls, with (nearly) every inspection moment selected. */
const fewInspections: fc.Arbitrary<History> = fc.record({
	settings: settings(fc.subarray([...EVENTS.inspections], { minLength: 12 })),
	before: fc.array(inspectionAction, { maxLength: 4 }),
	rounds: fc.array(roundOf(inspectionAction, 3), { minLength: 8, maxLength: 30, size: 'max' }),
});

export const historyArbitrary: fc.Arbitrary<History> = fc.oneof(
	{ weight: 1, arbitrary: wholeBusiness },
	{ weight: 1, arbitrary: fewInspections },
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
		let chosen = [...events];
		if (this.appointmentsWithoutCreatedAt) {
			const appointments = selectedOf('events', chosen);
			if (appointments.length === 1 && appointments[0] === 'inspection_event.created')
				chosen.push('inspection_event.updated');
		}
		for (const resource of RESOURCES) {
			const was = selectedOf(resource, before);
			if (was.length > 0 && !needsMemory(resource, was) && needsMemory(resource, chosen)) {
				chosen = [...chosen.filter((e) => !EVENTS[resource].includes(e)), ...was];
				this.count('run: selection kept (no memory to memory)');
			}
		}
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

	/** When each action happens and when the poll comes: the API's clock, in whole seconds. */
	private schedule(
		waitMs: number,
		actions: Action[],
		pauseMs: number,
	): { at: number[]; pollAt: number } {
		// Skip Ended Moments Later Than 0: n8n away under 80 days in all (see the top of this file).
		const longest = this.settings.endedLateHours === 0 ? 39 * DAY : Infinity;
		let now = this.business.now + Math.min(waitMs, longest);
		const at = actions.map((a) => {
			now += this.capped ? Math.max(a.afterMs, OVERLAP_MS + MINUTE) : a.afterMs;
			if (a.do === 'clock') {
				// Set back, never behind the last poll (what the trigger saw stays seen).
				const floor = this.lastPoll === null ? -Infinity : this.lastPoll + SECOND;
				if (a.jumpMs > 0 || !this.capped) now = Math.max(now + a.jumpMs, floor, now - 4 * MINUTE);
			}
			return now;
		});
		return { at, pollAt: now + Math.min(pauseMs, longest) };
	}

	/** Applies the actions at their times, then the pause; says what happened when. */
	act(waitMs: number, actions: Action[], pauseMs: number): string[] {
		const { at, pollAt } = this.schedule(waitMs, actions, pauseMs);
		const told = actions.map((a, i) => {
			this.business.now = at[i];
			this.apply(a, pollAt);
			return `    ${new Date(at[i]).toISOString()} ${JSON.stringify({ ...a, afterMs: undefined })}`;
		});
		this.business.now = pollAt;
		return told;
	}

	/**
	 * A change to a record the trigger holds, made before its 90 days end and read after they
	 * end, is left out (see the top of this file).
	 */
	private touches(resource: Resource, id: string | undefined, pollAt: number): string | undefined {
		if (id === undefined) return undefined;
		const until = this.model.heldUntil(resource, id);
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
				id = this.touches('inspections', b.pick('inspections', a.pick), pollAt);
				if (id !== undefined) b.changeInspection(id, a.change, a.arg);
				return;
			case 'contact':
				b.newContact(a.contact);
				return;
			case 'contactChange':
				id = this.touches('contacts', b.pick('contacts', a.pick), pollAt);
				if (id !== undefined) b.changeContact(id, a.change, a.arg);
				return;
			case 'appointment':
				b.newAppointment(a.pick, a.withCreatedAt);
				return;
			case 'appointmentChange':
				id = this.touches('events', b.pick('events', a.pick), pollAt);
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
				this.count(a.jumpMs < 0 ? 'run: clock set back' : 'run: clock jumped ahead');
				return;
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
