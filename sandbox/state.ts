import { SandboxClock } from './clock';
import { FaultInjector } from './faults';
import { LinkSigner } from './files';
import type { ShortPageMode } from './paging';
import { RateLimiter } from './ratelimit';
import { RequestLog } from './requestlog';
import { buildSeed } from './seed';
import type { Store } from './store';
import { WebhookDispatcher } from './webhooks';

const DAY = 24 * 60 * 60 * 1000;

export interface Settings {
	shortPages: ShortPageMode;
	latencyMs: number;
}

/** Everything one running sandbox holds; handlers receive it. */
export class SandboxState {
	readonly clock = new SandboxClock();
	readonly signer = new LinkSigner(this.clock);
	readonly log = new RequestLog();
	readonly faults = new FaultInjector();
	readonly webhooks = new WebhookDispatcher(this.clock);
	readonly limiter: RateLimiter;
	store!: Store;
	seedName = 'demo';

	constructor(
		readonly settings: Settings,
		rateLimit: number,
		seed: string,
	) {
		this.limiter = new RateLimiter(rateLimit);
		this.reset(seed);
	}

	/** Re-seeds the data (anchored at the start of today, sandbox time) and forgets webhook receivers. */
	reset(seed = this.seedName): void {
		this.seedName = seed;
		this.store = seeded(seed, Math.floor(this.clock.now() / DAY) * DAY);
		this.webhooks.clear();
	}

	/** A write time: now, but never before the record's previous update. */
	writeTime(previous = 0): number {
		return Math.max(this.clock.now(), previous + 1);
	}
}

/**
 * The last seed built, per process, for a day: a reset copies it (a tenth of the CPU of building
 * it; the tests reset before each test). The large seed is built each time instead of held twice.
 */
let lastBuilt: { key: string; store: Store } | undefined;

function seeded(seed: string, anchor: number): Store {
	if (seed === 'large') return buildSeed(seed, anchor);
	const key = `${seed}@${anchor}`;
	if (lastBuilt?.key !== key) lastBuilt = { key, store: buildSeed(seed, anchor) };
	return lastBuilt.store.copy();
}
