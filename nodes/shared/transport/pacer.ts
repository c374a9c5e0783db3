/**
 * Client-side pacing: a sliding 60-second window per API key, shared by every
 * execution in this n8n process (module state). It mirrors how the API counts
 * (A17, D7), with one change that makes it safe whatever the network does: a
 * request occupies its slot from the moment it is sent until one window after
 * its answer arrived. The server saw the request before the answer came back,
 * so by then the server's window has let go of it too; in-flight requests
 * always count.
 */
import { createHash } from 'crypto';

import { sleep } from 'n8n-workflow';

export const PACING_WINDOW_MS = 60_000;
/** How long a waiting caller sleeps at most before looking again (keeps cancellation responsive). */
const MAX_NAP_MS = 1_000;

export class Pacer {
	/** Answer times of finished requests still inside the window, oldest first. */
	private finished: number[] = [];

	private inFlight = 0;

	private pausedUntil = 0;

	constructor(
		public limit: number,
		private readonly windowMs = PACING_WINDOW_MS,
		private readonly now: () => number = Date.now,
		private readonly nap: (ms: number) => Promise<void> = sleep,
	) {}

	/**
	 * Waits for a free slot and takes it; call the returned function when the
	 * answer (or failure) arrived. The check and the take happen in one
	 * synchronous step, so concurrent callers can never over-send.
	 */
	async acquire(isCancelled: () => boolean = () => false): Promise<() => void> {
		for (;;) {
			const wait = this.waitMs();
			if (wait === 0) {
				this.inFlight++;
				let released = false;
				return () => {
					if (released) return;
					released = true;
					this.inFlight--;
					this.finished.push(this.now());
				};
			}
			if (isCancelled())
				throw new Error('The execution was cancelled while waiting for the rate limit');
			await this.nap(Math.min(wait, MAX_NAP_MS));
		}
	}

	/** After a 429: nobody using this key sends before `untilMs` (the server's Retry-After). */
	pause(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
	}

	/** 0 when a slot is free now, else how long until one may be. */
	private waitMs(): number {
		const now = this.now();
		while (this.finished.length > 0 && this.finished[0] + this.windowMs <= now)
			this.finished.shift();
		if (this.pausedUntil > now) return this.pausedUntil - now;
		if (this.inFlight + this.finished.length < this.limit) return 0;
		// Full: the oldest finished slot frees first; if all are in flight, look again shortly.
		return this.finished.length > 0 ? this.finished[0] + this.windowMs - now : MAX_NAP_MS / 10;
	}
}

/** One pacer per key, keyed by a hash so the key itself is never held as a map key or logged. */
const pacers = new Map<string, Pacer>();

export function pacerFor(apiKey: string, requestsPerMinute: number): Pacer {
	const id = createHash('sha256').update(apiKey).digest('hex');
	let pacer = pacers.get(id);
	if (pacer === undefined) {
		pacer = new Pacer(requestsPerMinute);
		pacers.set(id, pacer);
	}
	// The latest credential setting wins; executions share the one budget.
	pacer.limit = requestsPerMinute;
	return pacer;
}
