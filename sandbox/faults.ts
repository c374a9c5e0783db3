import { Prng } from './prng';

const FAULT_KINDS = [
	'429',
	'429-no-retry-after',
	'500',
	'502',
	'503',
	'reset',
	'slow',
	'malformed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface OneShotFault {
	kind: FaultKind;
	/** Only requests with this method. */
	method?: string;
	/** Only requests whose path starts with this. */
	path?: string;
	/** For 429: the Retry-After seconds (default 1). */
	retryAfter?: number;
	/** For slow: the delay (default: slowMs). */
	delayMs?: number;
}

export interface FaultSettings {
	probabilities: Partial<Record<FaultKind, number>>;
	slowMs: number;
	queue: OneShotFault[];
}

export const isFaultKind = (value: unknown): value is FaultKind =>
	typeof value === 'string' && (FAULT_KINDS as readonly string[]).includes(value);

/** Parses `--faults` like `500=0.05,reset=0.02,slow=0.1,slow-ms=2000`. */
export function parseFaultSpec(
	spec: string,
): Pick<FaultSettings, 'probabilities'> & { slowMs?: number } {
	const probabilities: FaultSettings['probabilities'] = {};
	let slowMs: number | undefined;
	for (const part of spec
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean)) {
		const [name, value] = part.split('=');
		const n = Number(value);
		if (name === 'slow-ms' && Number.isInteger(n) && n >= 0) slowMs = n;
		else if (isFaultKind(name) && n >= 0 && n <= 1) probabilities[name] = n;
		else
			throw new Error(
				`Bad fault spec "${part}": use kind=probability with kinds ${FAULT_KINDS.join(', ')}, or slow-ms=N`,
			);
	}
	const sum = Object.values(probabilities).reduce((a, b) => a + b, 0);
	if (sum > 1) throw new Error('Fault probabilities add up to more than 1');
	return { probabilities, slowMs };
}

/** Chooses the fault (if any) for one v1 request: the first matching one-shot fault, else a probability roll. */
export class FaultInjector {
	settings: FaultSettings = { probabilities: {}, slowMs: 3000, queue: [] };
	private rng = new Prng('faults');

	configure(next: Partial<FaultSettings>): void {
		this.settings = { ...this.settings, ...next };
		this.rng = new Prng('faults');
	}

	clear(): void {
		this.settings = { probabilities: {}, slowMs: this.settings.slowMs, queue: [] };
	}

	pick(method: string, path: string): OneShotFault | null {
		const index = this.settings.queue.findIndex(
			(f) =>
				(!f.method || f.method.toUpperCase() === method) && (!f.path || path.startsWith(f.path)),
		);
		if (index >= 0) return this.settings.queue.splice(index, 1)[0];
		let roll = this.rng.next();
		for (const kind of FAULT_KINDS) {
			roll -= this.settings.probabilities[kind] ?? 0;
			if (roll < 0) return { kind };
		}
		return null;
	}
}
