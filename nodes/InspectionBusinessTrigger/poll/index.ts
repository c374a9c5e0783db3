/**
 * The poll room's door: one poll, pure (runPoll): the state before, the API
 * pages it fetches through a `ListSource`, and the items and state after. Each
 * watched resource gets its walk (listWalk.ts), whose versions the judge turns
 * into verdicts, then the time moments, then what the trigger no longer needs
 * is let go. It never mutates the state it is given, so a poll that throws
 * leaves the old state, and the next poll covers the same window again. A
 * poll the budget cuts short lets a resource it never reached (else one it
 * could not finish) go first next time, so even a budget of one page per poll
 * reaches every resource in turn.
 */
import type { IDataObject } from 'n8n-workflow';

import { needsMemory, watchedResources } from '../catalog';
import {
	itemsOf,
	type JudgeContext,
	judgeVersion,
	reportTimeMoments,
	type TriggerItem,
	type Verdict,
} from '../judge';
import {
	endOf,
	freshState,
	REMEMBER_MS,
	type InspectionMemory,
	keepWithinBudget,
	type Keeping,
	letGo,
	readState,
	type Resource,
	type ResourceState,
	writeState,
} from '../memory';
import { Budget } from './clocks';
import { keepFrom, type WalkContext, walkList, type WalkPlan } from './listWalk';
import type { ListSource, PollOptions } from './types';

export type { ListPage, ListRequest, ListSource, PollOptions } from './types';
export { apiSource, newestRecords } from './apiSource';

export interface PollResult {
	items: TriggerItem[];
	state: IDataObject;
	/** Whether the state differs from the one given (its `generation` then counts one more). */
	changed: boolean;
	/** False when the budget cut a walk short; the next poll continues it. */
	complete: boolean;
	/** When a baseline this poll began, began (the API's time); undefined if none began. */
	baselineBegan?: number;
}

const PLANS: Record<Resource, WalkPlan> = {
	contacts: { ascending: true, sort: 'updated_at' },
	inspections: { ascending: true, sort: 'updated_at' },
	events: { ascending: false, inIdOrder: true },
	attachments: { ascending: false },
};

/**
 * The baseline of a resource whose selected events read no memory: newest
 * first, back to one overlap before the newest (the versions the first window
 * returns again). The appointments list takes no sort: its baseline is the
 * usual one.
 */
const NEWEST_FIRST: Record<Exclude<Resource, 'events'>, WalkPlan> = {
	contacts: { ascending: false, sort: '-updated_at', firstWindowOnly: true },
	inspections: { ascending: false, sort: '-updated_at', firstWindowOnly: true },
	attachments: { ascending: false, firstWindowOnly: true },
};

/** What a baseline reads: inspections in full (a booking months ahead), contacts and appointments recent ones. */
const BASELINE_RECENT_ONLY: ReadonlySet<Resource> = new Set(['contacts', 'events']);

/**
 * Runs one resource's walk. A finished leftover window says nothing about what
 * changed behind its cursor while it waited (a record that became visible
 * late, an attachment that jumped to the top), so a window from where it was
 * first cut, minus the overlap, follows it.
 */
async function walk(ctx: WalkContext): Promise<boolean> {
	const { state, resource } = ctx;
	if (state.phase === 'baseline' && !ctx.needsMemory && resource !== 'events')
		return await walkList(ctx, NEWEST_FIRST[resource]);
	const plan = {
		...PLANS[resource],
		recentOnly: state.phase === 'baseline' && BASELINE_RECENT_ONLY.has(resource),
	};
	const leftover = state.unfinishedWalk;
	const done = await walkList(ctx, plan);
	if (!done || leftover?.firstCutAt == null) return done;
	return await walkList(ctx, plan, {
		updatedSince: leftover.firstCutAt - ctx.overlapMs,
		windowStart: leftover.windowStart,
	});
}

/**
 * Its selected events start reading the records' memory (Paid added to a trigger that watched
 * only Created): a baseline again, so the records it holds nothing of are held; it begins where
 * the last walk stood, so every change since is reported, as a record seen for the first time.
 */
function baselineFrom(state: ResourceState, options: PollOptions): void {
	state.phase = 'baseline';
	// No high-water mark: the last look listed nothing, so everything listed now came since.
	state.baselineBegan = Math.max(0, (state.highWaterMark ?? 0) - options.overlapMs);
	// Read as a first baseline reads: the whole list (contacts and appointments: their recent ones).
	state.highWaterMark = null;
	delete state.unfinishedWalk;
	delete state.inheritedWindowStart;
}

/** The watched resources in this poll's order, starting with the one the last poll named. */
function turnOrder(resources: Resource[], goesFirst: Resource | undefined): Resource[] {
	const at = goesFirst === undefined ? -1 : resources.indexOf(goesFirst);
	return at <= 0 ? resources : [...resources.slice(at), ...resources.slice(0, at)];
}

/**
 * The source this poll reads through: the first answer that carries the API's
 * time dates the start of every baseline that has no start yet. `began`
 * (PollOptions.baselineBegan) is an earlier start, if one is known.
 */
function datingBaselines(
	source: ListSource,
	states: Partial<Record<Resource, ResourceState>>,
	began: number | undefined,
): { reader: ListSource; start: () => number | undefined } {
	let dated = false;
	let given: number | undefined;
	const reader: ListSource = {
		async fetch(request) {
			const page = await source.fetch(request);
			if (dated || page.serverTime === undefined) return page;
			dated = true;
			// An earlier start is kept; then this answer lists what changed since, too.
			const start = Math.min(page.serverTime, began ?? Infinity);
			const dating = (Object.keys(states) as Resource[]).filter(
				(resource) =>
					states[resource]!.phase === 'baseline' && states[resource]!.baselineBegan === undefined,
			);
			for (const resource of dating) states[resource]!.baselineBegan = start;
			if (dating.length > 0) given = start;
			// What this answer lists existed when the baselines it dated began: its own resource's.
			return dating.includes(request.resource) && start === page.serverTime
				? { ...page, datedBaseline: true }
				: page;
		},
	};
	return { reader, start: () => given };
}

/** When a held record last mattered: an inspection's last change or its end (its Ended time, if later). */
function activityOf(resource: Resource, options: PollOptions): Keeping['activity'] {
	if (resource !== 'inspections') return (updatedAt) => updatedAt;
	const endedSelected = options.events.includes('inspection.ended');
	return (updatedAt, memory) => {
		const end = memory ? endOf(memory as InspectionMemory) : null;
		const ended =
			end === null ? -Infinity : end + (endedSelected ? options.endedHours * 3_600_000 : 0);
		return Math.max(updatedAt, ended);
	};
}

/** Holds the memory sweep to once an hour of the server's clock: it reads every held record. */
const SWEEP_EVERY_MS = 60 * 60_000;

export async function runPoll(
	stored: IDataObject,
	source: ListSource,
	options: PollOptions,
): Promise<PollResult> {
	const { resources: states, goesFirst, generation = 0 } = readState(stored);
	const headerBefore = header(stored);
	const firstPoll = Object.keys(states).length === 0;
	const order = turnOrder(watchedResources(options.events), goesFirst);
	for (const resource of order) {
		const state = (states[resource] ??= freshState(
			resource,
			firstPoll && options.emitExisting ? 'existing' : 'baseline',
		));
		const needed = needsMemory(resource, options.events);
		if (needed && state.memoryKept !== true && state.phase === 'live') baselineFrom(state, options);
		if (needed) state.memoryKept = true;
		else delete state.memoryKept;
	}
	const { reader, start } = datingBaselines(source, states, options.baselineBegan);
	const budget = new Budget(options);
	const verdicts: Verdict[] = [];
	// Next poll goes first: a resource this one never reached, else one it could not finish.
	let unreached: Resource | undefined;
	let unfinished: Resource | undefined;

	for (const [index, resource] of order.entries()) {
		const state = states[resource]!;
		const requestsBefore = budget.requests;
		// Its first walk (a baseline, or the existing records) stores every record the list gives.
		const firstWalk = state.phase !== 'live';
		const ctx = judgeContext(resource, state, options);
		const done = await walk({
			...ctx,
			source: reader,
			budget,
			budgetShare: (index + 1) / order.length,
			verdicts,
			overlapMs: options.overlapMs,
			localNow: options.now,
		});
		if (!done && budget.requests === requestsBefore) unreached ??= resource;
		else if (!done) unfinished ??= resource;
		// A walk cut short may hold an old schedule: the next poll reports what is due then.
		if (resource === 'inspections' && done)
			verdicts.push(
				...(await timeMoments({ ...ctx, now: serverNow(state, options) }, source, budget, options)),
			);
		holdWhatIsNeeded(resource, state, ctx.needsMemory, options, firstWalk);
	}
	const watched = order.map((resource) => states[resource]!);
	keepWithinBudget(
		watched,
		(state) => activityOf(resourceOf(states, state), options),
		options.stateBudget,
	);
	const goesFirstNext = unreached ?? unfinished;
	// A resource no selected event needs is forgotten; selected again later, it starts with a baseline.
	const kept = Object.fromEntries(order.map((resource) => [resource, states[resource]]));
	const state = writeState({ resources: kept, goesFirst: goesFirstNext, generation });
	const changed =
		watched.some(({ records }) => records.changed) ||
		header(state) !== headerBefore ||
		Object.keys(states).length !== order.length;
	if (changed) state.generation = generation + 1;
	return {
		items: itemsOf(verdicts, options.oneItemPerMoment),
		state,
		changed,
		complete: goesFirstNext === undefined,
		baselineBegan: start(),
	};
}

/** The stored state without its records: what else a poll may change, cheap to compare. */
const header = (stored: IDataObject) =>
	JSON.stringify(stored, (key, value: unknown) =>
		key === 'records' || key === 'dictionary' || key === 'generation' ? undefined : value,
	);

const resourceOf = (states: Partial<Record<Resource, ResourceState>>, state: ResourceState) =>
	(Object.keys(states) as Resource[]).find((resource) => states[resource] === state)!;

/** The server's time now, by the offset the state last measured. */
const serverNow = (state: ResourceState, options: PollOptions) =>
	options.now() + (state.serverClockOffset ?? 0);

function judgeContext(
	resource: Resource,
	state: ResourceState,
	options: PollOptions,
): JudgeContext {
	return {
		resource,
		state,
		selected: options.events,
		onlyOnce: options.onlyOnce,
		needsMemory: needsMemory(resource, options.events),
		time: {
			selected: options.events,
			startingHours: options.startingHours,
			endedHours: options.endedHours,
			statuses: options.momentStatuses,
			endedLateHours: options.endedLateHours,
		},
		now: serverNow(state, options),
		forgotten: forgottenBy(resource, serverNow(state, options), options),
	};
}

/** Whether a held memory is past REMEMBER_MS after its activity, at `now`. */
const forgottenBy = (resource: Resource, now: number, options: PollOptions) => {
	const activity = activityOf(resource, options);
	return (updatedAt: number, memory: unknown) => activity(updatedAt, memory) <= now - REMEMBER_MS;
};

/**
 * Lets go of what the resource no longer needs: what no selected event reads,
 * every poll (the versions past the window; as cheap as the window is small),
 * and the memories past REMEMBER_MS at most once an hour, on a poll that
 * stored something anyway: the sweep reads every held record, and an idle
 * poll leaves the state as it was. A poll of the first walk sweeps too: it
 * stored every record the list gave, and on an account of years most of them
 * are long past their 90 days (let go at once, not up to an hour later).
 */
function holdWhatIsNeeded(
	resource: Resource,
	state: ResourceState,
	memoryNeeded: boolean,
	options: PollOptions,
	firstWalk: boolean,
): void {
	const now = serverNow(state, options);
	const sweep =
		!memoryNeeded ||
		options.recordCap !== undefined ||
		(state.records.changed &&
			(firstWalk || state.sweptAt === undefined || now - state.sweptAt >= SWEEP_EVERY_MS));
	if (!sweep) return;
	letGo(state.records, {
		now,
		needsMemory: memoryNeeded,
		keepVersionsFrom: keepFrom(state, options.overlapMs),
		activity: activityOf(resource, options),
		cap: options.recordCap,
	});
	if (memoryNeeded) state.sweptAt = now;
}

/** The time moments after a finished walk of the inspections, their lookups within the budget. */
async function timeMoments(
	ctx: JudgeContext,
	source: ListSource,
	budget: Budget,
	options: PollOptions,
): Promise<Verdict[]> {
	return await reportTimeMoments(ctx.state, {
		settings: ctx.time,
		now: ctx.now,
		async lookUp(query) {
			if (!budget.allows(1)) return null;
			const page = await budget.timed(() =>
				source.fetch({ resource: 'inspections', query, cursor: null }),
			);
			return page.outOfTime ? null : page.records;
		},
		judge: (record) => judgeVersion(ctx, record, { windowStart: null, existedAtBaseline: false }),
		forgotten: ctx.forgotten,
		skippedLate: (count) =>
			options.log?.(
				`Inspection Ended: ${count} moment(s) skipped, more than ${options.endedLateHours} hours late`,
			),
	});
}
