/**
 * The walks follow the server's clock, page by page (each page carries the
 * server's time when it answered; see ListPage.serverTime).
 */
import type { ResourceState, UnfinishedWalk } from '../memory/state';

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
		// As after a refused cursor: ascending, everything before the newest record is done.
		if (!ascending || walk.newestProcessed === null) return true;
		walk.updatedSince = walk.newestProcessed;
	}
	walk.updatedSince -= Math.min(wentBack, CLOCK_JUMP_TOLERANCE_MS);
	walk.nextPageCursor = null;
	if (walk.windowStart !== null) walk.windowStart = Math.min(walk.windowStart, walk.updatedSince);
	return true;
}
