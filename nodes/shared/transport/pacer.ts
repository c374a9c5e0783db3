/**
 * Pacing, per API key, shared by every execution in this n8n instance
 * (module state). Two rules:
 *
 * 1. A sliding 60-second window. The API gives every key of one user a
 *    shared budget of 120 requests a minute and does not say how it counts,
 *    so the pacer assumes a sliding window (as the sandbox counts). A
 *    request holds its slot from the moment it is sent until one window after
 *    its answer arrived, so in-flight requests (and 429s) always count.
 * 2. The window's size is a learned rate, at most `limit` (the credential's
 *    Requests per Minute), for when other n8n instances share the key. No instance
 *    can see the others, so the server's 429 is the signal: every caller of
 *    the key pauses until Retry-After, and the rate halves (multiplicative
 *    decrease). Each answered request raises it again, by a tenth of the limit
 *    per minute of traffic (additive increase). Several processes so settle
 *    near their shared budget instead of taking turns on 429s.
 *
 * Waiting for a slot has a deadline (the credential's Wait for Rate Limit,
 * passed by the caller) and ends at n8n's Stop; a slot taken is given back by
 * its caller in every ending (./request.ts, `sendApiRequest`).
 */
import { createHash } from 'crypto';

import { sleep } from 'n8n-workflow';

export const PACING_WINDOW_MS = 60_000;
/** How long a waiting caller sleeps at most before looking again (keeps cancellation responsive). */
const MAX_NAP_MS = 1_000;
/** The learned rate never drops below this many requests per minute. */
const MIN_RATE = 1;
/** Additive increase: the share of the limit regained per minute of answered requests. */
const RECOVERY_PER_MINUTE = 0.1;

/** What ends a wait for a slot besides a free one: n8n's Stop, and the caller's deadline (a time). */
export interface SlotWaitBounds {
	stopped?: () => boolean;
	deadline?: () => number;
}

/** Thrown when a wait for a slot ends without one: stopped, or past the caller's deadline. */
export class SlotWaitEnded extends Error {
	constructor(readonly reason: 'stopped' | 'deadline') {
		super(
			reason === 'stopped'
				? 'Stopped while waiting for the rate limit'
				: 'The wait for the rate limit passed its deadline',
		);
	}
}

/** How a paced request ended, as far as the pacer learns from it. */
export type Outcome =
	| { kind: 'answered' }
	| { kind: 'rate-limited'; untilMs: number }
	| { kind: 'failed' };

export class Pacer {
	/** Answer times of finished requests still inside the window, oldest first. */
	private finished: number[] = [];

	private inFlight = 0;

	private pausedUntil = 0;

	/** Requests per minute this n8n instance allows itself now; `limit` until a 429 is seen. */
	private learnedRate: number;

	/** When the rate last halved; a 429 for a request sent before then is already accounted for. */
	private lastDecreaseAt = Number.NEGATIVE_INFINITY;

	constructor(
		public limit: number,
		private readonly windowMs = PACING_WINDOW_MS,
		private readonly now: () => number = Date.now,
		private readonly nap: (ms: number) => Promise<void> = sleep,
	) {
		this.learnedRate = limit;
	}

	/** The requests per minute this n8n instance currently allows itself. */
	get rate(): number {
		return Math.min(this.learnedRate, this.limit);
	}

	/**
	 * Waits for a free slot and takes it; call the returned function with the
	 * outcome once the answer (or failure) arrived. The check and the take
	 * happen in one synchronous step, so concurrent callers can never over-send.
	 * The wait ends with a `SlotWaitEnded` when `bounds.stopped` says so, and at
	 * `bounds.deadline` (asked for only once a wait begins): a wait that cannot
	 * end before it ends at once.
	 */
	async acquire(bounds: SlotWaitBounds = {}): Promise<(outcome?: Outcome) => void> {
		for (;;) {
			const wait = this.waitMs();
			if (wait === 0) {
				const sentAt = this.now();
				this.inFlight++;
				let released = false;
				return (outcome = { kind: 'answered' }) => {
					if (released) return;
					released = true;
					this.inFlight--;
					// A 429 holds its slot too: it keeps a contended instance's share conservative
					// (measured: fewer 429s with eight processes than when it frees at once).
					this.finished.push(this.now());
					this.learn(outcome, sentAt);
				};
			}
			if (bounds.stopped?.()) throw new SlotWaitEnded('stopped');
			const deadline = bounds.deadline?.() ?? Number.POSITIVE_INFINITY;
			if (this.now() + wait > deadline) throw new SlotWaitEnded('deadline');
			await this.nap(Math.min(wait, MAX_NAP_MS));
		}
	}

	/** Requests of this key sent and not yet answered; every one gives its slot back when it ends. */
	get inFlightCount(): number {
		return this.inFlight;
	}

	/** Nobody using this key sends before `untilMs` (the server's Retry-After). */
	pause(untilMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, untilMs);
	}

	private learn(outcome: Outcome, sentAt: number): void {
		if (outcome.kind === 'rate-limited') {
			this.pause(outcome.untilMs);
			// One halving per congestion event, however many callers were caught in it.
			if (sentAt > this.lastDecreaseAt) {
				this.learnedRate = Math.max(MIN_RATE, this.rate / 2);
				this.lastDecreaseAt = this.now();
			}
		} else if (outcome.kind === 'answered' && this.learnedRate < this.limit) {
			// +10 % of the limit per minute: each answer adds that much divided by the answers a minute holds.
			this.learnedRate = Math.min(
				this.limit,
				this.learnedRate + (RECOVERY_PER_MINUTE * this.limit) / this.learnedRate,
			);
		}
	}

	/** 0 when a slot is free now, else how long until one may be. */
	private waitMs(): number {
		const now = this.now();
		while (this.finished.length > 0 && this.finished[0] + this.windowMs <= now)
			this.finished.shift();
		if (this.pausedUntil > now) return this.pausedUntil - now;
		if (this.inFlight + this.finished.length >= this.rate) {
			// Full: the oldest finished slot frees first; if all are in flight, look again shortly.
			return this.finished.length > 0 ? this.finished[0] + this.windowMs - now : MAX_NAP_MS / 10;
		}
		return 0;
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
