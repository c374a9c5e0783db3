/**
 * The sandbox clock: real time plus an offset, so it keeps flowing after a set
 * or an advance. Every timestamp and every signed-link expiry reads it.
 */
export class SandboxClock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	set(ms: number): void {
		this.offsetMs = ms - Date.now();
	}

	advance(ms: number): void {
		this.offsetMs += ms;
	}

	get offset(): number {
		return this.offsetMs;
	}
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
