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
