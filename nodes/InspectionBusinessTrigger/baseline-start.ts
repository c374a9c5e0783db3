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
