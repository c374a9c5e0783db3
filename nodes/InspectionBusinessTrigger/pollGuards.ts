/**
 * What the trigger must remember in the n8n process between polls, beyond the
 * workflow's static data: which polls of a node are running (one at a time),
 * and when a baseline began before n8n kept any state. Neither can live in the
 * static data: n8n hands each poll a copy taken when it started and keeps a
 * poll's state only with its result, so two polls running at once cannot see
 * each other there, and the test poll n8n runs at publication keeps nothing.
 * Both are shared by every poll in this n8n instance, like the transport's
 * pacer; they hold one small entry per trigger node, dropped when no longer
 * needed.
 */

/**
 * One poll at a time per trigger node, in this n8n instance.
 *
 * n8n does not wait for a poll to end before it starts the next one. The
 * durable scheduler (on by default from n8n 2.45) runs each poll time as a job
 * of its own and starts every due occurrence; the legacy poller fires on its
 * timer. A poll that outlasts the interval (a baseline, a catch-up, slow
 * answers) so overlaps the next. Both start from the same committed state, so
 * both would report the same changes, and whichever commits last undoes the
 * other's progress. A poll that finds another poll of its node running
 * therefore returns nothing and leaves the state alone: n8n commits nothing.
 *
 * n8n reads the committed state when an occurrence starts (seconds before the
 * node runs, under load), and commits a poll's state (with its execution, if
 * it emitted) a moment after the poll returns. An occurrence that starts in
 * that moment runs after the first poll, from the state before it. So for a
 * short while after a poll that changed the state, a poll that starts from the
 * same state is skipped too. Later, the same state means n8n did not keep that
 * poll's result (abandoned at its timeout, workflow deactivated, lease lost,
 * the test poll at publication), and the poll runs again.
 */

/** How long n8n may take from reading a poll's state to committing the poll before it; far more than it needs. */
export const COMMIT_GRACE_MS = 10_000;

interface NodePolls {
	running: boolean;
	/** The state the last poll that changed it started from, and when it ended. */
	changedFrom?: string;
	changedAt?: number;
}

export class OverlapGuard {
	private readonly nodes = new Map<string, NodePolls>();

	/**
	 * Whether a poll of `node` starting from `state` (a digest) may run now.
	 * If it may, it counts as running until `end`.
	 */
	start(node: string, state: string, now: number): boolean {
		const polls = this.nodes.get(node) ?? { running: false };
		if (polls.running) return false;
		const committing =
			polls.changedFrom === state && now - (polls.changedAt ?? 0) < COMMIT_GRACE_MS;
		if (committing) return false;
		this.nodes.set(node, { ...polls, running: true });
		return true;
	}

	/**
	 * The poll that `start` let run has ended; `changed`: it returned a new state
	 * for n8n to commit (a poll that threw, or found nothing new, did not).
	 */
	end(node: string, state: string, changed: boolean, now: number): void {
		const polls = this.nodes.get(node);
		if (changed) {
			this.nodes.set(node, { running: false, changedFrom: state, changedAt: now });
		} else if (polls?.changedAt !== undefined && now - polls.changedAt < COMMIT_GRACE_MS) {
			this.nodes.set(node, { ...polls, running: false });
		} else {
			this.nodes.delete(node);
		}
	}
}

/** Shared by every poll in this n8n instance, like the transport's pacer. */
export const overlapGuard = new OverlapGuard();

/**
 * When the first baseline of a trigger node began, remembered in this n8n
 * instance until a poll's state is kept.
 *
 * When a workflow is published, n8n runs one test poll, and keeps its state
 * only if it emitted something. Otherwise the first scheduled poll starts from
 * no state again, one poll interval later, and a change made in between would
 * be taken into its baseline. n8n gives the node no way to tell that test poll
 * from a scheduled poll, and no state to write to from it. So each poll that
 * starts from no state remembers here when its baseline began (the API's time
 * of its first answer), and the next poll that starts from no state again
 * dates its baseline from that moment: the changes since the test poll are
 * reported. A poll that starts from a kept state forgets it.
 *
 * Held in memory only: after a restart of n8n between publishing and the
 * first scheduled poll, that poll's baseline begins when it runs.
 */

/**
 * A moment older than this is not used: the next baseline then begins when it
 * runs. It bounds how far back a trigger published, unpublished before any
 * scheduled poll and published again reaches, and covers a daily poll.
 */
export const MAX_REMEMBERED_MS = 24 * 60 * 60_000;

interface RememberedStart {
	/** The API's time of the baseline's first answer (ms). */
	began: number;
	/** When it was remembered, by the local clock. */
	at: number;
}

export class BaselineStarts {
	private readonly starts = new Map<string, RememberedStart>();

	/** The moment a poll of `node` that starts from no state dates its baseline from, if one is remembered. */
	startOf(node: string, now: number): number | undefined {
		const remembered = this.starts.get(node);
		if (remembered === undefined || now - remembered.at > MAX_REMEMBERED_MS) return undefined;
		return remembered.began;
	}

	/**
	 * A poll of `node` ended. `fromNoState`: it started from no state;
	 * `began`: the start of the baseline its state holds.
	 */
	ended(node: string, fromNoState: boolean, began: number | undefined, now: number): void {
		if (!fromNoState) {
			this.starts.delete(node);
			return;
		}
		if (began === undefined || this.startOf(node, now) !== undefined) return;
		// Moments too old to be used are dropped, so the map holds only nodes waiting for a kept state.
		for (const [other, { at }] of this.starts)
			if (now - at > MAX_REMEMBERED_MS) this.starts.delete(other);
		this.starts.set(node, { began, at: now });
	}
}

/** Shared by every poll in this n8n instance, like the overlap guard. */
export const baselineStarts = new BaselineStarts();
