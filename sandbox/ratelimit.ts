import { performance } from 'node:perf_hooks';

const WINDOW_MS = 60_000;

/**
 * sandboxRateWindow: a sliding 60-second window per key owner (sharedRateBudget), on real monotonic time so
 * clock changes never refill or drain a budget.
 */
export class RateLimiter {
	private readonly windows = new Map<string, number[]>();

	constructor(public perMinute: number) {}

	/** Admits one request: null, or the whole seconds until a slot frees (Retry-After). */
	take(owner: string): number | null {
		const now = performance.now();
		const hits = this.windows.get(owner) ?? [];
		let expired = 0;
		while (expired < hits.length && hits[expired] <= now - WINDOW_MS) expired++;
		hits.splice(0, expired);
		if (hits.length >= this.perMinute) {
			const frees = hits[hits.length - this.perMinute] + WINDOW_MS;
			this.windows.set(owner, hits);
			return Math.max(1, Math.ceil((frees - now) / 1000));
		}
		hits.push(now);
		this.windows.set(owner, hits);
		return null;
	}

	clear(): void {
		this.windows.clear();
	}
}
