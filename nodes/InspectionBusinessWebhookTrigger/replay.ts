/**
 * Replay protection. The package assumes (see docs/assumptions.md, "Webhook payload") that a
 * repeated delivery carries the same delivery id. The trigger remembers the ids that started an
 * execution in two places:
 *
 * - the workflow's static data, which n8n saves to its database with the delivery, so the memory
 *   survives a restart and is seen by every n8n instance that loads the workflow afterwards;
 * - this n8n instance's own list, because each webhook request works on its own copy of the static
 *   data, loaded when the request arrived: a repeat that arrives while the first delivery is still
 *   in flight, or after a concurrent delivery's save overwrote it, is caught here.
 *
 * Whenever the static data is written it receives the union of both, so the last save holds every
 * id this n8n instance took. Both are bounded by count, by age and by size per delivery: a sender
 * chooses the id's length, and n8n saves the static data to its database with every delivery
 * (20 deliveries with 1 MB ids left 20 MB there), so an id longer than REPLAY_MEMORY.idBytes is
 * remembered by its SHA-256 (`rememberedId`).
 */
import { createHash } from 'crypto';

import type { IDataObject } from 'n8n-workflow';

export const REPLAY_MEMORY = {
	deliveries: 1000,
	ms: 24 * 60 * 60 * 1000,
	/** Longest delivery id remembered as it is, in bytes of its JSON text (quotes not counted). */
	idBytes: 128,
} as const;

/**
 * How a delivery id is remembered: as it is when its JSON text is at most REPLAY_MEMORY.idBytes
 * (every id the API is likely to send, and every id remembered before this bound, so those memories
 * still match), else as `sha256:` and the hex SHA-256 of its UTF-16 code units (exact, lone
 * surrogates included): 71 characters, whatever the id's length.
 */
export function rememberedId(deliveryId: string): string {
	if (Buffer.byteLength(JSON.stringify(deliveryId)) - 2 <= REPLAY_MEMORY.idBytes) return deliveryId;
	return `sha256:${createHash('sha256').update(deliveryId, 'utf16le').digest('hex')}`;
}

/** `[delivery id, ms since epoch when it started an execution]`, oldest first. */
type Remembered = Array<[string, number]>;

/** Per trigger node (workflow id and node id): the deliveries this n8n instance took. */
const takenHere = new Map<string, Remembered>();

const stored = (store: IDataObject): Remembered =>
	Array.isArray(store.deliveries) ? (store.deliveries as Remembered) : [];

const fresh = (at: number, now: number) => now - at < REPLAY_MEMORY.ms;

/** Fresh entries of both lists, one per id (the earliest time), the newest 1,000, oldest first. */
function merged(lists: Remembered[], now: number): Remembered {
	const earliest = new Map<string, number>();
	for (const list of lists) {
		for (const [id, at] of list) {
			const known = earliest.get(id);
			if (fresh(at, now) && (known === undefined || at < known)) earliest.set(id, at);
		}
	}
	const entries: Remembered = [...earliest.entries()];
	entries.sort((a, b) => a[1] - b[1]);
	return entries.slice(-REPLAY_MEMORY.deliveries);
}

/** The memory of one trigger node, as one webhook request sees it. */
export class DeliveryMemory {
	constructor(
		/** The node's static data: what n8n loaded with this request, and saves after it. */
		private readonly store: IDataObject,
		/** Identifies the trigger node across requests: workflow id and node id. */
		private readonly scope: string,
		private readonly now: () => number = Date.now,
	) {}

	/** Whether this delivery already started an execution within the memory's bounds. */
	isRepeat(deliveryId: string): boolean {
		const now = this.now();
		const remembered = rememberedId(deliveryId);
		const known = ([id, at]: [string, number]) => id === remembered && fresh(at, now);
		return stored(this.store).some(known) || (takenHere.get(this.scope) ?? []).some(known);
	}

	/** Claims a delivery in this n8n instance at once, before anything is awaited. */
	take(deliveryId: string): void {
		const now = this.now();
		const list = takenHere.get(this.scope) ?? [];
		takenHere.set(this.scope, merged([list, [[rememberedId(deliveryId), now]]], now));
	}

	/** Gives a claim back: the delivery did not start an execution, so a retry of it should. */
	release(deliveryId: string): void {
		const list = takenHere.get(this.scope);
		const remembered = rememberedId(deliveryId);
		if (list)
			takenHere.set(
				this.scope,
				list.filter(([id]) => id !== remembered),
			);
	}

	/** Writes both memories into the static data, which n8n then saves with this delivery. */
	save(): void {
		const now = this.now();
		this.store.deliveries = merged([stored(this.store), takenHere.get(this.scope) ?? []], now);
	}
}
