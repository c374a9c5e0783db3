/**
 * Replay protection. A14: a repeated delivery carries the same delivery id, so the trigger keeps
 * the ids it has started executions for in the workflow's static data (saved by n8n after the
 * response) and acknowledges a repeat without starting another. The memory is bounded by count
 * and by age, so the static data stays small however busy the account is.
 */
import type { IDataObject } from 'n8n-workflow';

export const REPLAY_MEMORY = { deliveries: 1000, ms: 24 * 60 * 60 * 1000 } as const;

/** `[delivery id, ms since epoch when it started an execution]`, oldest first. */
type Remembered = Array<[string, number]>;

const remembered = (store: IDataObject): Remembered =>
	Array.isArray(store.deliveries) ? (store.deliveries as Remembered) : [];

const fresh = (at: number, now: number) => now - at < REPLAY_MEMORY.ms;

/** Whether this delivery already started an execution within the memory's bounds. Changes nothing. */
export function isRepeat(store: IDataObject, deliveryId: string, now: number): boolean {
	return remembered(store).some(([id, at]) => id === deliveryId && fresh(at, now));
}

/** Remembers a delivery, dropping ids older than 24 h and the oldest beyond 1,000. */
export function remember(store: IDataObject, deliveryId: string, now: number): void {
	const kept = remembered(store).filter(([id, at]) => id !== deliveryId && fresh(at, now));
	kept.push([deliveryId, now]);
	store.deliveries = kept.slice(-REPLAY_MEMORY.deliveries);
}
