/**
 * The poll's two clocks: its own time budget (Budget), and the server's clock,
 * which the walks follow page by page (followServerClock).
 */
import type { ResourceState, UnfinishedWalk } from '../memory';

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

	constructor(private readonly options: { now: () => number; budgetMs: number }) {
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

/**
 * How much earlier than its own window the state remembers versions: a server
 * clock set back by up to this much re-opens a window whose versions the
 * dedupe still knows, so none is emitted twice.
 */
export const CLOCK_JUMP_TOLERANCE_MS = 3 * 60 * 60_000;
/** Below this, a difference between the two clocks is noise (the Date header counts whole seconds). */
const CLOCK_JITTER_MS = 5_000;

/** One page's view of the clocks, and what the walk needs to react to it. */
export interface ClockReading {
	/** The server's time when it answered the page (ms). */
	serverTime: number;
	/** The local clock at the same moment (PollOptions.now). */
	localNow: number;
	overlapMs: number;
	/** Whether the walk goes by updated_at ascending. */
	ascending: boolean;
}

/**
 * No mark passes the server's time, so a record dated in the future cannot
 * hide what comes after it. And when the server's clock went back against the
 * local one by more than the overlap (set back, or an earlier answer came from
 * a clock running ahead), changes since then may be dated before the window,
 * or behind a resumed cursor: the walk starts again that much earlier (at most
 * CLOCK_JUMP_TOLERANCE_MS), at once (true: fetch again). The offset between
 * the clocks is stored only when it moves by more than the jitter, so an idle
 * poll still leaves the state unchanged.
 */
export function followServerClock(
	state: ResourceState,
	walk: UnfinishedWalk,
	{ serverTime, localNow, overlapMs, ascending }: ClockReading,
): boolean {
	const offset = serverTime - localNow;
	const last = state.serverClockOffset;
	if (last === undefined || Math.abs(offset - last) > CLOCK_JITTER_MS)
		state.serverClockOffset = offset;
	if (state.highWaterMark !== null && state.highWaterMark > serverTime)
		state.highWaterMark = serverTime;
	if (walk.newestProcessed !== null)
		walk.newestProcessed = Math.min(walk.newestProcessed, serverTime);
	if (walk.firstCutAt !== null) walk.firstCutAt = Math.min(walk.firstCutAt, serverTime);
	if (last === undefined) return false;
	const wentBack = last - offset;
	if (wentBack <= Math.max(overlapMs, CLOCK_JITTER_MS)) return false;
	if (walk.updatedSince === null) {
		// A window without a lower bound still has one once its cursor is past the set-back dates.
		if (walk.nextPageCursor === null) return false;
		walk.nextPageCursor = null;
		if (!ascending || walk.newestProcessed === null) return true;
	}
	// As after a refused cursor: ascending, everything before the newest record is done.
	if (ascending && walk.newestProcessed !== null && walk.nextPageCursor !== null)
		walk.updatedSince = Math.max(walk.updatedSince ?? -Infinity, walk.newestProcessed);
	walk.updatedSince = walk.updatedSince! - Math.min(wentBack, CLOCK_JUMP_TOLERANCE_MS);
	walk.nextPageCursor = null;
	if (walk.windowStart !== null) walk.windowStart = Math.min(walk.windowStart, walk.updatedSince);
	return true;
}
