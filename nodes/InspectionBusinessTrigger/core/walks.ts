/**
 * The walks one poll makes over a resource's list, and the budget they share.
 *
 * - Contacts and inspections: sort=updated_at ascending (ties by id, A12); a
 *   fresh window starts at `position - overlap`.
 * - Inspection events: the list takes no sort (A9), so by id (A12).
 * - Attachments: the account-wide list, newest change first (D4).
 * - Baseline: contacts, inspections and inspection events are walked in full,
 *   so the derived events and `changes` have a fingerprint to compare with;
 *   attachments read newest first back to `top - overlap`, the versions the
 *   first window returns again.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/endpoints';
import {
	changeTime,
	deriveEvents,
	EXISTING_EVENTS,
	fingerprintOf,
	type PollEvent,
	primaryEvent,
	publicFingerprint,
	recordKey,
	type Resource,
	sameVersion,
} from './events';
import { type Mode, packKey, type PendingWalk, type ResourceState } from './state';
import type { ListSource, PollOptions, TriggerItem } from './types';

/**
 * Pages may be fetched while the poll has time left. The budget is shared out
 * so that every watched resource gets its turn: the i-th resource of n may run
 * until (i + 1)/n of the budget, plus whatever the earlier ones left. A page is
 * only started when twice the slowest page so far still fits; the poll's first
 * page always is, so every poll makes progress.
 */
export class Budget {
	private readonly start: number;
	private slowest = 0;
	/** Requests made so far in this poll. */
	requests = 0;

	constructor(private readonly options: PollOptions) {
		this.start = options.now();
	}

	/** `budgetShare`: the fraction of the poll's budget this walk may run until. */
	allows(budgetShare: number): boolean {
		if (this.requests === 0) return true;
		const elapsed = this.options.now() - this.start;
		return elapsed + 2 * this.slowest <= this.options.budgetMs * budgetShare;
	}

	async timed<T>(fetch: () => Promise<T>): Promise<T> {
		const started = this.options.now();
		this.requests++;
		const result = await fetch();
		this.slowest = Math.max(this.slowest, this.options.now() - started);
		return result;
	}
}

export interface WalkContext {
	resource: Resource;
	state: ResourceState;
	source: ListSource;
	budget: Budget;
	/** The fraction of the poll's budget this resource's walks may run until (see Budget). */
	budgetShare: number;
	selected: ReadonlySet<PollEvent>;
	items: TriggerItem[];
	overlapMs: number;
	/** The local clock (PollOptions.now). */
	now: () => number;
}

/** Remembers one listed version; returns the item it means, or null (seen before, baseline, or not selected). */
function itemForVersion(
	ctx: WalkContext,
	record: IDataObject,
	mode: Mode,
	floor: number | null,
): TriggerItem | null {
	const key = recordKey(ctx.resource, record);
	if (key === null) return null;
	const packed = packKey(key);
	const current = fingerprintOf(ctx.resource, record);
	const previous = ctx.state.seen.get(packed) ?? null;
	if (previous !== null && sameVersion(previous, current)) return null;
	ctx.state.seen.set(packed, current);
	if (mode === 'baseline') return null;
	// Reported once as existing; a later version of it during the same initial walk is a change like any other.
	if (mode === 'existing' && previous === null) {
		const event = EXISTING_EVENTS[ctx.resource];
		return { event, events: [event], record, previous: null, changes: null };
	}
	const derived = deriveEvents(ctx.resource, previous, record, current, floor);
	const events = derived.events.filter((e) => ctx.selected.has(e));
	if (events.length === 0) return null;
	const prior = previous === null ? null : publicFingerprint(ctx.resource, previous);
	return {
		event: primaryEvent(events),
		events,
		record,
		previous: prior,
		changes: derived.changes,
	};
}

const iso = (ms: number) => new Date(ms).toISOString();
const newestOf = (a: number | null, b: number | null) =>
	a === null ? b : b === null ? a : Math.max(a, b);

/**
 * How much earlier than its own window the state remembers versions: a server
 * clock set back by up to this much re-opens a window whose versions the
 * dedupe still knows, so none is emitted twice.
 */
const CLOCK_JUMP_TOLERANCE_MS = 3 * 60 * 60_000;
/** Below this, a difference between the two clocks is noise (the Date header counts whole seconds). */
const CLOCK_JITTER_MS = 5_000;

function listQuery(resource: Resource, since: number | null, sort?: string): IDataObject {
	const query: IDataObject = { limit: LIMITS.pageSizeMax };
	if (sort) query.sort = sort;
	if (since !== null) query.updated_since = iso(since);
	// Canceled and deleted inspections are hidden by default; the trigger must see them to report them.
	if (resource === 'inspections')
		Object.assign(query, { include_deleted: true, include_canceled: true });
	return query;
}

/**
 * How to walk one resource's list. Ascending walks advance the position record
 * by record; the others (newest first, or by id) move it to their newest
 * record when done. A baseline probe reads newest first only back to
 * `top - overlap`.
 */
export interface WalkPlan {
	ascending: boolean;
	sort?: string;
	probe?: boolean;
	/** The list comes in id order: its items go out by change time. */
	byId?: boolean;
}

/**
 * Walks one window. A walk the budget cuts short keeps its updated_since and
 * the cursor of its next page: the cursor is a keyset position, so the next
 * poll continues exactly there, even inside a run of equal updated_at values.
 * If the API refuses the stored cursor, an ascending walk restarts at its
 * position (everything before it is done) and a newest-first walk restarts its
 * window; either way the dedupe drops what comes back. `start` replaces the
 * fresh window's updated_since and floor (the window after a leftover one).
 */
export async function walkList(
	ctx: WalkContext,
	plan: WalkPlan,
	start?: { since: number | null; floor: number | null },
): Promise<boolean> {
	const { state, overlapMs } = ctx;
	const resumed = state.walk !== undefined;
	const fresh = plan.probe || state.position === null ? null : state.position - overlapMs;
	const walk: PendingWalk = state.walk ?? {
		floor: start
			? start.floor
			: fresh === null || state.priorFloor === undefined
				? fresh
				: state.priorFloor,
		since: start ? start.since : fresh,
		cursor: null,
		top: null,
		anchor: null,
	};
	// More than one page: the list could change between them (see priorFloor).
	let paged = resumed;
	const existing = state.mode === 'existing';
	const found: TriggerItem[] = [];
	const flush = () =>
		ctx.items.push(
			...(plan.ascending
				? found
				: plan.byId
					? found.sort((a, b) => changeTime(a.record) - changeTime(b.record))
					: found.reverse()),
		);
	/** Stops before the next page; the next poll continues from the cursor. */
	const cutShort = () => {
		// What becomes visible late has an updated_at close to now, so at or after the newest seen, minus a lag.
		// A walk cut before its first page has nothing behind a cursor, so no window follows it: with
		// one page a poll, each window after a leftover would otherwise leave another one, forever.
		if (walk.cursor !== null || walk.top !== null)
			walk.anchor ??= newestOf(state.position, walk.top);
		state.walk = walk;
		flush();
		return false;
	};
	for (;;) {
		if (!ctx.budget.allows(ctx.budgetShare)) return cutShort();
		const query = listQuery(ctx.resource, walk.since, plan.sort);
		const page = await ctx.budget.timed(() =>
			ctx.source.fetch({ resource: ctx.resource, query, cursor: walk.cursor }),
		);
		if (page.outOfTime) return cutShort();
		if (page.staleCursor && walk.cursor !== null) {
			walk.cursor = null;
			// Ascending, everything before the walk's newest record is done; newest first, nothing is.
			if (plan.ascending && walk.top !== null) walk.since = walk.top;
			continue;
		}
		const serverTime = page.serverTime ?? Infinity;
		if (
			page.serverTime !== undefined &&
			followServerClock(ctx, walk, plan.ascending, page.serverTime)
		)
			continue;
		let end = page.nextCursor === null;
		for (const record of page.records) {
			const updatedAt = changeTime(record);
			const mark = Math.min(updatedAt, serverTime);
			if (plan.probe) {
				walk.top ??= mark;
				walk.floor ??= walk.top - overlapMs;
				if (updatedAt < walk.floor) {
					end = true; // older than the first window: the API will not return it again
					break;
				}
			}
			const item = itemForVersion(ctx, record, state.mode, walk.floor);
			if (item) found.push(item);
			walk.top = newestOf(walk.top, mark);
			if (plan.ascending) state.position = newestOf(state.position, mark);
		}
		walk.cursor = end ? null : page.nextCursor;
		if (walk.cursor === null) break;
		paged = true;
	}
	flush();
	if (!plan.ascending) state.position = newestOf(state.position, walk.top);
	state.walk = undefined;
	state.priorFloor =
		plan.ascending || plan.probe || !paged
			? undefined
			: priorFloor(walk.floor, state.position, overlapMs, existing);
	// The window that follows a leftover (see runPoll) still belongs to the initial walk, if this was one.
	if (plan.probe || !resumed || walk.anchor === null) state.mode = 'live';
	return true;
}

/**
 * Follows the server's clock, page by page. No mark passes the server's time,
 * so a record dated in the future cannot hide what comes after it. And when
 * the server's clock went back against the local one by more than the overlap
 * (set back, or an earlier answer came from a clock running ahead), changes
 * since then may be dated before the window, or behind a resumed cursor: it
 * starts again that much earlier (at most CLOCK_JUMP_TOLERANCE_MS), at once
 * (true: fetch again). The offset between the clocks is stored only when it
 * moves by more than the jitter, so an idle poll still leaves the state
 * unchanged.
 */
function followServerClock(
	ctx: WalkContext,
	walk: PendingWalk,
	ascending: boolean,
	serverTime: number,
): boolean {
	const { state, overlapMs } = ctx;
	const offset = serverTime - ctx.now();
	const last = state.clockOffset;
	if (last === undefined || Math.abs(offset - last) > CLOCK_JITTER_MS) state.clockOffset = offset;
	if (state.position !== null && state.position > serverTime) state.position = serverTime;
	if (walk.top !== null) walk.top = Math.min(walk.top, serverTime);
	if (walk.anchor !== null) walk.anchor = Math.min(walk.anchor, serverTime);
	if (last === undefined) return false;
	const wentBack = last - offset;
	if (wentBack <= Math.max(overlapMs, CLOCK_JITTER_MS)) return false;
	if (walk.since === null) {
		// A window without a lower bound still has one once its cursor is past the set-back dates.
		if (walk.cursor === null) return false;
		walk.cursor = null;
		// As after a refused cursor: ascending, everything before the newest record is done.
		if (!ascending || walk.top === null) return true;
		walk.since = walk.top;
	}
	walk.since -= Math.min(wentBack, CLOCK_JUMP_TOLERANCE_MS);
	walk.cursor = null;
	if (walk.floor !== null) walk.floor = Math.min(walk.floor, walk.since);
	return true;
}

/**
 * The floor the window after a paged newest-first walk judges by: the walk's
 * own, so what jumped above it is still "added", but at most one overlap
 * before the next window's start, so a list that always takes several pages
 * keeps at most two overlaps of versions. After the walk that emitted the
 * existing records (no floor), the next window has none either: whatever it
 * has not seen was never reported.
 */
function priorFloor(
	floor: number | null,
	position: number | null,
	overlapMs: number,
	existing: boolean,
): number | null | undefined {
	if (floor === null && existing) return null;
	if (position === null) return undefined;
	const bound = position - 2 * overlapMs;
	return floor === null ? bound : Math.max(floor, bound);
}

/**
 * The oldest updated_at the state must still remember: the unfinished
 * window's floor, else the next window's, less the clock jump tolerance.
 */
export function keepFrom(state: ResourceState, overlapMs: number): number | null {
	const windowStart = state.walk
		? state.walk.floor
		: state.priorFloor !== undefined
			? state.priorFloor
			: state.position === null
				? null
				: state.position - overlapMs;
	return windowStart === null ? null : windowStart - CLOCK_JUMP_TOLERANCE_MS;
}
