/**
 * One poll, pure: the state before, the API pages it fetches through a
 * `ListSource`, and the items and state after: each watched resource's walk
 * (listWalk.ts), whose versions the judge turns into items
 * (judge/judgeVersion.ts), then the time-based moments (judge/timeMoments.ts). It never mutates the state it
 * is given, so a poll that throws leaves the old state, and the next poll
 * covers the same window again. Each watched resource gets one walk per poll
 * (see walks.ts). A poll the budget cuts short lets a resource it never reached
 * (else one it could not finish) go first next time, so even a budget of one
 * page per poll reaches every resource in turn.
 */
import type { IDataObject } from 'n8n-workflow';

import { watchedResources } from '../catalog';
import { itemsPerMoment, type PollItem } from '../judge/items';
import { reportTimeMoments } from '../judge/timeMoments';
import { Fingerprints } from '../memory/fingerprints';
import {
	DEFAULT_CAP,
	decodeState,
	encodeState,
	enforceCap,
	pruneBefore,
	type ResourceState,
	type StoredState,
} from '../memory/state';
import { KEEPS_EVERY_RECORD, type Resource } from '../resources';
import { Budget } from './budget';
import { keepFrom, type WalkContext, walkList, type WalkPlan } from './listWalk';
import { OPTION_DEFAULTS } from '../description';
import type { ListSource, PollOptions } from './types';

interface PollResult {
	items: PollItem[];
	state: StoredState;
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
 * Runs one resource's walk. A finished leftover window says nothing about what
 * changed behind its cursor while it waited (a record that became visible
 * late, an attachment that jumped to the top), so a window from where it was
 * first cut, minus the overlap, follows it.
 */
async function walk(ctx: WalkContext): Promise<boolean> {
	const { state, resource } = ctx;
	if (state.phase === 'baseline' && !KEEPS_EVERY_RECORD.has(resource)) {
		return await walkList(ctx, { ascending: false, firstWindowOnly: true });
	}
	const plan = PLANS[resource];
	const leftover = state.unfinishedWalk;
	const done = await walkList(ctx, plan);
	if (!done || leftover?.firstCutAt == null) return done;
	return await walkList(ctx, plan, {
		updatedSince: leftover.firstCutAt - ctx.overlapMs,
		windowStart: leftover.windowStart,
	});
}

/** The watched resources in this poll's order, starting with the one the last poll named. */
function turnOrder(resources: Resource[], goesFirst: Resource | undefined): Resource[] {
	const at = goesFirst === undefined ? -1 : resources.indexOf(goesFirst);
	return at <= 0 ? resources : [...resources.slice(at), ...resources.slice(0, at)];
}

/** Drops the versions the next window no longer needs, and holds the rest to the cap. */
function boundFingerprints(resource: Resource, state: ResourceState, options: PollOptions): void {
	const oldest = keepFrom(state, options.overlapMs);
	if (!KEEPS_EVERY_RECORD.has(resource)) pruneBefore(state.fingerprints, oldest);
	enforceCap(state.fingerprints, options.cap ?? DEFAULT_CAP);
}

/**
 * The source this poll reads through: the first answer that carries the API's
 * time dates the start of every baseline that has no start yet (a baseline
 * that begins in this poll, or one stored before baselines kept their start).
 * `began` (PollOptions.baselineBegan) is an earlier start, if one is known.
 * `start()`: the start this poll gave, if it gave one.
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
			for (const state of Object.values(states)) {
				if (state.phase !== 'baseline' || state.baselineBegan !== undefined) continue;
				state.baselineBegan = start;
				given = start;
			}
			return given !== undefined && start === page.serverTime
				? { ...page, datedBaseline: true }
				: page;
		},
	};
	return { reader, start: () => given };
}

export async function runPoll(
	stored: IDataObject,
	source: ListSource,
	options: PollOptions,
): Promise<PollResult> {
	const { resources: states, goesFirst } = decodeState(stored);
	const firstPoll = Object.keys(states).length === 0;
	const order = turnOrder(watchedResources(options.events), goesFirst);
	for (const resource of order) {
		states[resource] ??= {
			phase: firstPoll && options.emitExisting ? 'existing' : 'baseline',
			highWaterMark: null,
			fingerprints: new Fingerprints(resource),
		};
	}
	const { reader, start } = datingBaselines(source, states, options.baselineBegan);
	const onlyOnce = options.onlyOnce ?? OPTION_DEFAULTS.onlyOnce;
	const budget = new Budget(options);
	const items: PollItem[] = [];
	// Next poll goes first: a resource this one never reached, else one it could not finish.
	let unreached: Resource | undefined;
	let unfinished: Resource | undefined;

	for (const [index, resource] of order.entries()) {
		const state = states[resource]!;
		const requestsBefore = budget.requests;
		const done = await walk({
			resource,
			state,
			source: reader,
			budget,
			budgetShare: (index + 1) / order.length,
			selected: options.events,
			onlyOnce,
			items,
			overlapMs: options.overlapMs,
			now: options.now,
		});
		if (!done && budget.requests === requestsBefore) unreached ??= resource;
		else if (!done) unfinished ??= resource;
		// A walk cut short may hold an old schedule: the next poll reports what is due then.
		if (resource === 'inspections' && done)
			await timeMomentsAfterWalk(state, source, budget, { ...options, onlyOnce }, items);

		boundFingerprints(resource, state, options);
	}
	const goesFirstNext = unreached ?? unfinished;
	// A resource no selected event needs is forgotten; selected again later, it starts with a baseline.
	const watched = Object.fromEntries(order.map((resource) => [resource, states[resource]]));
	return {
		items: itemsPerMoment(items),
		state: encodeState({ resources: watched, goesFirst: goesFirstNext }),
		complete: goesFirstNext === undefined,
		baselineBegan: start(),
	};
}

/** The time-based moments after a finished walk of the inspections, their lookups within the budget. */
async function timeMomentsAfterWalk(
	state: ResourceState,
	source: ListSource,
	budget: Budget,
	options: PollOptions & { onlyOnce: boolean },
	items: PollItem[],
): Promise<void> {
	const lookup = {
		async fetch(query: IDataObject) {
			if (!budget.allows(1)) return null;
			return await budget.timed(() =>
				source.fetch({ resource: 'inspections', query, cursor: null }),
			);
		},
	};
	await reportTimeMoments(
		state,
		lookup,
		{
			judge: {
				resource: 'inspections',
				state,
				selected: options.events,
				onlyOnce: options.onlyOnce,
			},
			startingHours: options.startingHours ?? OPTION_DEFAULTS.startingHours,
			endedHours: options.endedHours ?? OPTION_DEFAULTS.endedHours,
			statuses: options.momentStatuses ?? OPTION_DEFAULTS.momentStatuses,
			serverNow: options.now() + (state.serverClockOffset ?? 0),
		},
		items,
	);
}
