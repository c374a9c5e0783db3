/**
 * The trigger's persisted state: what it remembers per watched resource
 * between polls (the table at ResourceState), and the one place that reads it
 * from n8n's static data and writes it back.
 *
 * Bound: at most `cap` fingerprints per resource (default 100,000), plus one
 * dictionary of the strings their watched values share (see fingerprints.ts).
 * Contacts, inspections and inspection events keep one fingerprint per record,
 * because the derived events and `changes` compare against the last one (see
 * KEEPS_EVERY_RECORD); attachments keep only versions inside the overlap window
 * (all the dedupe needs; after a walk of several pages, one overlap more, see
 * `inheritedWindowStart`). Over the cap, the least recently updated
 * fingerprints go first, those inside the window last.
 */
import type { IDataObject } from 'n8n-workflow';

import { RESOURCES, type Resource } from '../resources';
import { Fingerprints } from './fingerprints';

const STATE_VERSION = 1;
export const DEFAULT_CAP = 100_000;

/**
 * What a walk does with a version it has not seen: `baseline` remembers it
 * without emitting, `existing` emits it as an existing record, `live` emits
 * the change.
 */
export type WatchPhase = 'baseline' | 'existing' | 'live';

/** A walk the poll budget cut short; its fields are in the table at ResourceState. */
export interface UnfinishedWalk {
	windowStart: number | null;
	updatedSince: number | null;
	nextPageCursor: string | null;
	newestProcessed: number | null;
	firstCutAt: number | null;
}

/**
 * The decoded, mutable state of one watched resource, which a poll works on;
 * the stored form is never touched. Times are ms on the server's clock. The
 * stored keys are those the first release wrote, kept so that a state saved by
 * any earlier version still reads (decodeState and encodeState map them).
 *
 * | Field (stored key) | What it holds | When it changes |
 * | --- | --- | --- |
 * | `phase` (`mode`) | What a walk does with an unseen version (see WatchPhase). | Set when a resource gets its state (`existing` when Emit Existing is on and no resource has a state yet, else `baseline`); `live` once that first walk, and the window after it if the budget cut it, is done. |
 * | `highWaterMark` (`position`) | The newest updated_at processed, never past the server's time; null before the first record. | Record by record in an ascending walk; when a newest-first or id-order walk finishes; lowered to the server's time when that is earlier. |
 * | `serverClockOffset` (`clockOffset`) | The server's clock minus the local one, as last stored. | On a page that carries the server's time, when it moved by more than the jitter (5 s); a clock gone back by more than the overlap re-opens the walk's window that much earlier. |
 * | `unfinishedWalk` (`walk`) | The walk the budget cut short, continued next poll from its cursor; absent when none. | Set when the budget cuts a walk; cleared when a walk finishes. |
 * | `unfinishedWalk.windowStart` (`floor`) | The start of the walk's window: "created" and "added" are judged against it, and versions are kept back to it; null: no lower bound. | Set when the walk starts; moved back with `updatedSince` when the server's clock went back. |
 * | `unfinishedWalk.updatedSince` (`since`) | The walk's `updated_since`, bound to its cursor (a cursor works only with the filters it was made with, cursorBoundToFilters). | Set when the walk starts; moved when its cursor is refused or the server's clock went back (the walk then starts that page over). |
 * | `unfinishedWalk.nextPageCursor` (`cursor`) | The cursor of the next page; null: the walk (re)starts at the first page of its window. | After every page; cleared when refused or when the server's clock went back. |
 * | `unfinishedWalk.newestProcessed` (`top`) | The newest updated_at the walk has processed (for an ascending walk, how far it got). | Record by record; lowered to the server's time when that is earlier. |
 * | `unfinishedWalk.firstCutAt` (`anchor`) | The newer of the high-water mark and `newestProcessed` when the budget first cut the walk: the window after it starts one overlap earlier, to find what became visible behind its cursor meanwhile; null: cut before its first page. | Once, when first cut; lowered to the server's time when that is earlier. |
 * | `inheritedWindowStart` (`priorFloor`) | After a newest-first walk of several pages: the earlier window start the next window judges "added" by, since a record that changed between its pages jumped above it unread (null after the walk that emitted existing records: no start); absent otherwise. | Set or cleared at the end of every finished walk. |
 * | `fingerprints` (`seen`, `dict`) | One fingerprint per record version seen (fingerprints.ts), the dedupe and what `previous` and `changes` compare with. | For every new version; pruned and held to the cap after every walk. |
 * | `baselineBegan` (`began`) | While the phase is `baseline`: the API's time (Date header) of the first answer of the poll the baseline began in; a version dated after it is a change made while the baseline ran, and is reported. Absent otherwise, and in a state stored before it existed until its next poll. | Set at the first answer of a poll, for each resource in `baseline` that lacks it; cleared when the phase becomes `live`. |
 * | `startingFrom`, `endedFrom` (same keys, inspections only) | When the trigger began watching Starting, and Ended (server clock): none that came due before is reported (judge/timeMoments.ts). | Each set by the first poll with its event selected; dropped by a poll without it. |
 * | `goesFirst` (`first`, one per state) | The resource a poll cut short could not finish (or never reached): it goes first next poll. | After every poll. |
 */
export interface ResourceState {
	phase: WatchPhase;
	highWaterMark: number | null;
	serverClockOffset?: number;
	unfinishedWalk?: UnfinishedWalk;
	inheritedWindowStart?: number | null;
	baselineBegan?: number;
	startingFrom?: number;
	endedFrom?: number;
	fingerprints: Fingerprints;
}

/** The stored form of an UnfinishedWalk, under the keys the first release wrote. */
interface StoredWalk {
	floor: number | null;
	since: number | null;
	cursor: string | null;
	top: number | null;
	anchor: number | null;
}

/** The stored form of a ResourceState, under the keys the first release wrote. */
interface StoredResource {
	mode: WatchPhase;
	position: number | null;
	clockOffset?: number;
	walk?: StoredWalk;
	priorFloor?: number | null;
	began?: number;
	startingFrom?: number;
	endedFrom?: number;
	seen: string;
	dict?: string[];
}

export type StoredState = { version: typeof STATE_VERSION; first?: Resource } & Partial<
	Record<Resource, StoredResource>
>;

/** Every watched resource's state, and the one that goes first next poll. */
export interface TriggerState {
	resources: Partial<Record<Resource, ResourceState>>;
	goesFirst?: Resource;
}

const isPhase = (value: unknown): value is WatchPhase =>
	value === 'baseline' || value === 'existing' || value === 'live';
const isTime = (value: unknown): value is number | null =>
	value === null || typeof value === 'number';

function readWalk(value: unknown): UnfinishedWalk | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const walk = value as IDataObject;
	if (!isTime(walk.floor) || !isTime(walk.since) || !isTime(walk.top) || !isTime(walk.anchor))
		return undefined;
	if (walk.cursor !== null && typeof walk.cursor !== 'string') return undefined;
	return {
		windowStart: walk.floor,
		updatedSince: walk.since,
		nextPageCursor: walk.cursor,
		newestProcessed: walk.top,
		firstCutAt: walk.anchor,
	};
}

const writeWalk = (walk: UnfinishedWalk): StoredWalk => ({
	floor: walk.windowStart,
	since: walk.updatedSince,
	cursor: walk.nextPageCursor,
	top: walk.newestProcessed,
	anchor: walk.firstCutAt,
});

function readResource(resource: Resource, stored: IDataObject): ResourceState | undefined {
	if (!isPhase(stored.mode) || !isTime(stored.position) || typeof stored.seen !== 'string')
		return undefined;
	return {
		phase: stored.mode,
		highWaterMark: stored.position,
		...(typeof stored.clockOffset === 'number' ? { serverClockOffset: stored.clockOffset } : {}),
		unfinishedWalk: readWalk(stored.walk),
		...(isTime(stored.priorFloor) ? { inheritedWindowStart: stored.priorFloor } : {}),
		...(typeof stored.began === 'number' ? { baselineBegan: stored.began } : {}),
		...(typeof stored.startingFrom === 'number' ? { startingFrom: stored.startingFrom } : {}),
		...(typeof stored.endedFrom === 'number' ? { endedFrom: stored.endedFrom } : {}),
		fingerprints: new Fingerprints(
			resource,
			stored.seen,
			Array.isArray(stored.dict) ? stored.dict.map(String) : [],
		),
	};
}

/** Whether the static data holds no state a poll would read (nothing kept yet). */
export const holdsNoState = (data: IDataObject): boolean =>
	data.version !== STATE_VERSION || RESOURCES.every((resource) => data[resource] === undefined);

/**
 * Reads the static data. Anything unrecognised (another version, a hand edit)
 * counts as no state: the trigger takes a new baseline instead of guessing.
 */
export function decodeState(data: IDataObject): TriggerState {
	const decoded: Partial<Record<Resource, ResourceState>> = {};
	if (data.version !== STATE_VERSION) return { resources: decoded };
	for (const resource of RESOURCES) {
		const stored = data[resource] as IDataObject | undefined;
		const state = stored ? readResource(resource, stored) : undefined;
		if (state) decoded[resource] = state;
	}
	const goesFirst = RESOURCES.find((resource) => resource === data.first);
	return { resources: decoded, goesFirst };
}

export function encodeState({ resources, goesFirst }: TriggerState): StoredState {
	const stored: StoredState = {
		version: STATE_VERSION,
		...(goesFirst ? { first: goesFirst } : {}),
	};
	for (const resource of RESOURCES) {
		const state = resources[resource];
		if (!state) continue;
		stored[resource] = {
			mode: state.phase,
			position: state.highWaterMark,
			...(state.serverClockOffset === undefined ? {} : { clockOffset: state.serverClockOffset }),
			...(state.unfinishedWalk ? { walk: writeWalk(state.unfinishedWalk) } : {}),
			...(state.inheritedWindowStart === undefined
				? {}
				: { priorFloor: state.inheritedWindowStart }),
			...(state.baselineBegan === undefined ? {} : { began: state.baselineBegan }),
			...(state.startingFrom === undefined ? {} : { startingFrom: state.startingFrom }),
			...(state.endedFrom === undefined ? {} : { endedFrom: state.endedFrom }),
			...state.fingerprints.encode(),
		};
	}
	return stored;
}

/** Drops versions older than the next window: the API will not return them again. */
export function pruneBefore(fingerprints: Fingerprints, from: number | null): void {
	if (from === null) return;
	for (const [key, updatedAt] of fingerprints.times())
		if (updatedAt < from) fingerprints.delete(key);
}

/**
 * Holds the fingerprints to `cap`, least recently updated first. The versions
 * the next window needs for its dedupe are the newest, so they go last, only
 * when nothing older is left.
 */
export function enforceCap(fingerprints: Fingerprints, cap: number): void {
	if (fingerprints.size <= cap) return;
	const byAge = [...fingerprints.times()].sort(([, a], [, b]) => a - b);
	for (let i = 0; fingerprints.size > cap; i++) fingerprints.delete(byAge[i][0]);
}
