/**
 * The walks one poll makes over a resource's list.
 *
 * - Contacts and inspections: sort=updated_at ascending, relying on ties
 *   broken by id so pages neither skip nor repeat a record (cursorBoundToSort);
 *   a fresh window starts at `highWaterMark - overlap`.
 * - Inspection events: the list takes no sort (eventsPath), so it comes in id
 *   order (orderOfUnsortedLists).
 * - Attachments: the account-wide list, newest change first (orderOfUnsortedLists).
 * - Baseline: inspections are walked in full, contacts and inspection events
 *   back to the last REMEMBER_MS (what the trigger holds: docs/moments.md),
 *   so the events and `changes` have a memory to compare with; a resource
 *   whose selected events read no memory (attachments always) is read newest
 *   first back to one overlap before the newest, the versions the first
 *   window returns again.
 *
 * The state fields a walk moves are described in the table at ResourceState.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/endpoints';
import {
	type JudgeContext,
	judgeUnreadable,
	judgeVersion,
	readProblem,
	type Verdict,
} from '../judge';
import {
	changeTime,
	REMEMBER_MS,
	type Resource,
	type ResourceState,
	type UnfinishedWalk,
} from '../memory';
import { type Budget, CLOCK_JUMP_TOLERANCE_MS, followServerClock } from './clocks';
import type { ListPage, ListSource } from './types';

export interface WalkContext extends JudgeContext {
	source: ListSource;
	budget: Budget;
	/** The fraction of the poll's budget this resource's walks may run until (see Budget). */
	budgetShare: number;
	verdicts: Verdict[];
	overlapMs: number;
	/** The local clock (PollOptions.now). */
	localNow: () => number;
}

/**
 * How to walk one resource's list. Ascending walks advance the high-water mark
 * record by record; the others (newest first, or by id) move it to their
 * newest record when done.
 */
export interface WalkPlan {
	ascending: boolean;
	sort?: string;
	/**
	 * A baseline that reads newest first only back to one overlap before the
	 * newest record: the versions the first live window will return again.
	 */
	firstWindowOnly?: boolean;
	/** The list comes in id order: its items go out by change time. */
	inIdOrder?: boolean;
	/** A baseline that reads only what changed in the last REMEMBER_MS (plus a day: clocks differ). */
	recentOnly?: boolean;
}

/** Where the window after a finished leftover one starts (see walkList). */
export interface WindowStart {
	updatedSince: number | null;
	windowStart: number | null;
}

const DAY = 24 * 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const newestOf = (a: number | null, b: number | null) =>
	a === null ? b : b === null ? a : Math.max(a, b);

function pollQuery(resource: Resource, since: number | null, sort?: string): IDataObject {
	const query: IDataObject = { limit: LIMITS.pageSizeMax };
	if (sort) query.sort = sort;
	if (since !== null) query.updated_since = iso(since);
	// Canceled and deleted inspections are hidden by default; the trigger must see them to report them.
	if (resource === 'inspections')
		Object.assign(query, { include_deleted: true, include_canceled: true });
	return query;
}

/** A new walk: its window starts one overlap before the high-water mark, unless `start` says otherwise. */
function freshWalk(ctx: WalkContext, plan: WalkPlan, start?: WindowStart): UnfinishedWalk {
	const { state, overlapMs } = ctx;
	const fresh =
		plan.firstWindowOnly || state.highWaterMark === null ? null : state.highWaterMark - overlapMs;
	const inherited = fresh === null ? undefined : state.inheritedWindowStart;
	const recent = plan.recentOnly && fresh === null ? ctx.now - REMEMBER_MS - DAY : null;
	return {
		windowStart: start ? start.windowStart : inherited === undefined ? fresh : inherited,
		updatedSince: start ? start.updatedSince : (fresh ?? recent),
		nextPageCursor: null,
		newestProcessed: null,
		firstCutAt: null,
	};
}

/** The change time of a verdict; an unreadable record's cannot be read and counts as now. */
const itemTime = (verdict: Verdict) =>
	verdict.problem !== undefined ? Infinity : changeTime(verdict.record);

/** Hands the walk's verdicts to the poll in change order. */
function emitInOrder(ctx: WalkContext, plan: WalkPlan, found: Verdict[]): void {
	ctx.verdicts.push(
		...(plan.ascending
			? found
			: plan.inIdOrder
				? found.sort((a, b) => itemTime(a) - itemTime(b))
				: found.reverse()),
	);
}

/** Stops before the next page and keeps the walk; the next poll continues from its cursor. */
function cutShort(state: ResourceState, walk: UnfinishedWalk): void {
	// What becomes visible late has an updated_at close to now, so at or after the newest seen, minus a lag.
	// A walk cut before its first page has nothing behind a cursor, so no window follows it: with
	// one page a poll, each window after a leftover would otherwise leave another one, forever.
	if (walk.nextPageCursor !== null || walk.newestProcessed !== null)
		walk.firstCutAt ??= newestOf(state.highWaterMark, walk.newestProcessed);
	state.unfinishedWalk = walk;
}

/**
 * Processes one page's records into `found`; true when the window ends with
 * this page (its last page, or a first-window-only walk reached versions older
 * than its window, which the API will not return again). A record the trigger
 * cannot read is reported at once (ctx.verdicts) and moves no mark: its time
 * cannot be trusted.
 */
function readRecords(
	ctx: WalkContext,
	plan: WalkPlan,
	walk: UnfinishedWalk,
	page: ListPage,
	found: Verdict[],
): boolean {
	const { state } = ctx;
	const serverTime = page.serverTime ?? Infinity;
	const seenAt = page.serverTime ?? ctx.localNow();
	for (const record of page.records as unknown[]) {
		const problem = readProblem(ctx.resource, record);
		if (problem !== null) {
			const verdict = judgeUnreadable(ctx, record, problem, seenAt);
			if (verdict) ctx.verdicts.push(verdict);
			continue;
		}
		const readable = record as IDataObject;
		const updatedAt = changeTime(readable);
		const mark = Math.min(updatedAt, serverTime);
		if (plan.firstWindowOnly) {
			walk.newestProcessed ??= mark;
			walk.windowStart ??= walk.newestProcessed - ctx.overlapMs;
			if (updatedAt < walk.windowStart) return true;
		}
		const verdict = judgeVersion(ctx, readable, {
			windowStart: walk.windowStart,
			existedAtBaseline: page.datedBaseline === true,
		});
		if (verdict) found.push(verdict);
		walk.newestProcessed = newestOf(walk.newestProcessed, mark);
		if (plan.ascending) state.highWaterMark = newestOf(state.highWaterMark, mark);
	}
	return page.nextCursor === null;
}

/**
 * Fetches and processes pages until the window ends (`finished`) or the
 * budget cuts the walk short; `paged`: the walk moved on to a further page,
 * so the list could have changed between its pages.
 */
async function readPages(
	ctx: WalkContext,
	plan: WalkPlan,
	walk: UnfinishedWalk,
	found: Verdict[],
): Promise<{ finished: boolean; paged: boolean }> {
	let paged = false;
	for (;;) {
		if (!ctx.budget.allows(ctx.budgetShare)) return { finished: false, paged };
		const query = pollQuery(ctx.resource, walk.updatedSince, plan.sort);
		const page = await ctx.budget.timed(() =>
			ctx.source.fetch({ resource: ctx.resource, query, cursor: walk.nextPageCursor }),
		);
		if (page.outOfTime) return { finished: false, paged };
		if (page.staleCursor && walk.nextPageCursor !== null) {
			walk.nextPageCursor = null;
			// Ascending, everything before the walk's newest record is done; newest first, nothing is.
			if (plan.ascending && walk.newestProcessed !== null) walk.updatedSince = walk.newestProcessed;
			continue;
		}
		if (page.serverTime !== undefined) {
			const reading = {
				serverTime: page.serverTime,
				localNow: ctx.localNow(),
				overlapMs: ctx.overlapMs,
				ascending: plan.ascending,
			};
			if (followServerClock(ctx.state, walk, reading)) continue;
		}
		const ends = readRecords(ctx, plan, walk, page, found);
		walk.nextPageCursor = ends ? null : page.nextCursor;
		if (walk.nextPageCursor === null) return { finished: true, paged };
		paged = true;
	}
}

/**
 * Walks one window. A walk the budget cuts short keeps its updated_since and
 * the cursor of its next page: the cursor is a keyset position, so the next
 * poll continues exactly there, even inside a run of equal updated_at values.
 * If the API refuses the stored cursor, an ascending walk restarts at its
 * newest record (everything before it is done) and a newest-first walk
 * restarts its window; either way the dedupe drops what comes back. `start`
 * replaces the fresh window's updated_since and start (the window after a
 * leftover one).
 */
export async function walkList(
	ctx: WalkContext,
	plan: WalkPlan,
	start?: WindowStart,
): Promise<boolean> {
	const { state } = ctx;
	const resumed = state.unfinishedWalk !== undefined;
	const walk = state.unfinishedWalk ?? freshWalk(ctx, plan, start);
	const found: Verdict[] = [];
	const { finished, paged } = await readPages(ctx, plan, walk, found);
	if (!finished) cutShort(state, walk);
	emitInOrder(ctx, plan, found);
	// A resumed walk took more than one page too: the list could change between them.
	if (finished) finishWalk(ctx, plan, walk, { resumed, paged: resumed || paged });
	return finished;
}

/**
 * Closes a walk that reached the end of its window. `resumed`: an earlier poll
 * cut it short; `paged`: it took more than one page.
 */
function finishWalk(
	ctx: WalkContext,
	plan: WalkPlan,
	walk: UnfinishedWalk,
	{ resumed, paged }: { resumed: boolean; paged: boolean },
): void {
	const { state, overlapMs } = ctx;
	const existing = state.phase === 'existing';
	if (!plan.ascending) state.highWaterMark = newestOf(state.highWaterMark, walk.newestProcessed);
	state.unfinishedWalk = undefined;
	state.inheritedWindowStart =
		plan.ascending || plan.firstWindowOnly || !paged
			? undefined
			: inheritedWindowStart(walk.windowStart, state.highWaterMark, overlapMs, existing);
	// The window that follows a leftover (see runPoll) still belongs to the initial walk, if this was one.
	if (plan.firstWindowOnly || !resumed || walk.firstCutAt === null) {
		// A baseline that read only what changed since a time, and found nothing, knows nothing
		// changed since: the next window starts there (else, without a start, it takes all as new).
		if (state.phase === 'baseline' && state.highWaterMark === null && walk.updatedSince !== null)
			state.highWaterMark = walk.updatedSince;
		state.phase = 'live';
		state.baselineBegan = undefined;
	}
}

/**
 * The window start the window after a paged newest-first walk judges by: the
 * walk's own, so what jumped above it is still "added", but at most one overlap
 * before the next window's start, so a list that always takes several pages
 * keeps at most two overlaps of versions. After the walk that emitted the
 * existing records (no window start), the next window has none either:
 * whatever it has not seen was never reported.
 */
function inheritedWindowStart(
	windowStart: number | null,
	highWaterMark: number | null,
	overlapMs: number,
	existing: boolean,
): number | null | undefined {
	if (windowStart === null && existing) return null;
	if (highWaterMark === null) return undefined;
	const bound = highWaterMark - 2 * overlapMs;
	return windowStart === null ? bound : Math.max(windowStart, bound);
}

/**
 * The oldest updated_at the state must still remember: the unfinished
 * window's start, else the next window's, less the clock jump tolerance. A
 * baseline's walk has no window start: it judges by when the baseline began,
 * and a version dated before that, read again, is silent whether held or not,
 * so what is past its 90 days goes as the baseline goes, not when it ends.
 */
export function keepFrom(state: ResourceState, overlapMs: number): number | null {
	const windowStart = state.unfinishedWalk
		? (state.unfinishedWalk.windowStart ??
			(state.phase === 'baseline' ? (state.baselineBegan ?? null) : null))
		: state.inheritedWindowStart !== undefined
			? state.inheritedWindowStart
			: state.highWaterMark === null
				? null
				: state.highWaterMark - overlapMs;
	return windowStart === null ? null : windowStart - CLOCK_JUMP_TOLERANCE_MS;
}
