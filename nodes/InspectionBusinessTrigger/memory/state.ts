/**
 * The trigger's persisted state: per watched resource, where its walk stands
 * and the records it holds (records.ts); read from n8n's static data and
 * written back here, the one door to it. The stored keys are the fields'
 * names below. A state an earlier release wrote is read by upgrade.ts.
 *
 * | Field | What it holds | When it changes |
 * | --- | --- | --- |
 * | `phase` | What a walk does with a version it has not seen: `baseline` remembers it without emitting, `existing` emits it as an existing record, `live` emits the change. | `existing` when Emit Existing is on and no resource has a state yet, else `baseline`; `live` once that first walk is done. |
 * | `highWaterMark` | The newest updated_at processed, never past the server's time; null before the first record. | Record by record in an ascending walk; when a newest-first or id-order walk finishes. |
 * | `serverClockOffset` | The server's clock minus the local one, as last stored. | When it moved by more than the jitter (5 s). |
 * | `unfinishedWalk` | A walk the poll budget cut short, continued next poll from its cursor (`windowStart`, `updatedSince`, `nextPageCursor`, `newestProcessed`, `firstCutAt`: see poll/listWalk.ts). | Set when the budget cuts a walk; cleared when it finishes. |
 * | `inheritedWindowStart` | After a newest-first walk of several pages: the earlier window start the next window judges "added" by. | At the end of every finished walk. |
 * | `baselineBegan` | While the phase is `baseline`: the API's time of its first answer; a version dated after it is a change made while the baseline ran. | Set at the first answer; cleared when the phase becomes `live`. |
 * | `startingFrom`, `endedFrom` | When the trigger began watching Starting, and Ended (server clock). | Set by the first poll with the event selected; dropped by a poll without it. |
 * | `timeMomentsDue` | The earliest server time a Starting or Ended moment can come due, for the settings in `timeMomentsFor`: an earlier poll skips the look at every held inspection. | After every look; lowered when a version moves a moment earlier. |
 * | `records`, `dictionary` | The records held (records.ts). | For every new version; let go by letGo. |
 * | `memoryKept` | Whether the selected events read the records' memory: when they start to, the resource takes a baseline again (from its last look, so no change is lost). | After every poll. |
 * | `sweptAt` | When the memories past REMEMBER_MS were last let go (server clock): once an hour, since it reads every record. | After each sweep. |
 * | `goesFirst` (one per state) | The resource a poll cut short could not finish: it goes first next poll. | After every poll. |
 * | `generation` (one per state) | How many polls changed the state: what the overlap guard (pollGuards.ts) tells states apart by, without reading them. | By every poll that changed something. |
 */
import type { IDataObject } from 'n8n-workflow';

import { type HeldResource, RecordBook, unpackId } from './records';
import { upgradeState } from './upgrade';

export const RESOURCES = ['contacts', 'inspections', 'events', 'attachments'] as const;
export type Resource = (typeof RESOURCES)[number];

const FORMAT = 2;

export type WatchPhase = 'baseline' | 'existing' | 'live';

export interface UnfinishedWalk {
	windowStart: number | null;
	updatedSince: number | null;
	nextPageCursor: string | null;
	newestProcessed: number | null;
	firstCutAt: number | null;
}

/** The decoded, mutable state of one watched resource, which a poll works on. Times: ms, server clock. */
export interface ResourceState {
	phase: WatchPhase;
	highWaterMark: number | null;
	serverClockOffset?: number;
	unfinishedWalk?: UnfinishedWalk;
	inheritedWindowStart?: number | null;
	baselineBegan?: number;
	startingFrom?: number;
	endedFrom?: number;
	timeMomentsDue?: number;
	timeMomentsFor?: string;
	sweptAt?: number;
	memoryKept?: boolean;
	records: RecordBook;
}

export interface TriggerState {
	resources: Partial<Record<Resource, ResourceState>>;
	goesFirst?: Resource;
	generation?: number;
}

const isTime = (value: unknown): value is number | null =>
	value === null || (typeof value === 'number' && Number.isFinite(value));
const isPhase = (value: unknown): value is WatchPhase =>
	value === 'baseline' || value === 'existing' || value === 'live';

/** The optional scalar fields, each stored under its own name. */
const OPTIONAL_TIMES = [
	'serverClockOffset',
	'baselineBegan',
	'startingFrom',
	'endedFrom',
	'timeMomentsDue',
	'sweptAt',
] as const;

function readWalk(value: unknown): UnfinishedWalk | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const walk = value as IDataObject;
	const times = ['windowStart', 'updatedSince', 'newestProcessed', 'firstCutAt'] as const;
	if (!times.every((name) => isTime(walk[name]))) return undefined;
	if (walk.nextPageCursor !== null && typeof walk.nextPageCursor !== 'string') return undefined;
	return walk as unknown as UnfinishedWalk;
}

function readResource(resource: Resource, stored: IDataObject): ResourceState | undefined {
	if (!isPhase(stored.phase) || !isTime(stored.highWaterMark) || typeof stored.records !== 'string')
		return undefined;
	const state: ResourceState = {
		phase: stored.phase,
		highWaterMark: stored.highWaterMark,
		records: new RecordBook(
			resource as HeldResource,
			stored.records,
			Array.isArray(stored.dictionary) ? stored.dictionary.map(String) : [],
		),
	};
	for (const name of OPTIONAL_TIMES)
		if (typeof stored[name] === 'number') state[name] = stored[name] as number;
	const walk = readWalk(stored.unfinishedWalk);
	if (walk) state.unfinishedWalk = { ...walk };
	if (isTime(stored.inheritedWindowStart)) state.inheritedWindowStart = stored.inheritedWindowStart;
	if (typeof stored.timeMomentsFor === 'string') state.timeMomentsFor = stored.timeMomentsFor;
	if (stored.memoryKept === true) state.memoryKept = true;
	return state;
}

/** How many polls changed the stored state (0 for none, or an earlier format's). */
export const generationOf = (data: IDataObject): number =>
	typeof data.generation === 'number' ? data.generation : 0;

/** Whether the static data holds no state a poll would read (nothing kept yet). */
export const holdsNoState = (data: IDataObject): boolean =>
	RESOURCES.every((resource) => data[resource] === undefined);

/**
 * Reads the static data; a state an earlier release wrote is upgraded first.
 * Anything unrecognised (a hand edit) counts as no state: the trigger takes a
 * new baseline instead of guessing.
 */
export function readState(data: IDataObject): TriggerState {
	const current = data.format === FORMAT ? data : upgradeState(data);
	const resources: Partial<Record<Resource, ResourceState>> = {};
	if (current === undefined) return { resources };
	for (const resource of RESOURCES) {
		const stored = current[resource] as IDataObject | undefined;
		const state = stored ? readResource(resource, stored) : undefined;
		if (state) resources[resource] = state;
	}
	return {
		resources,
		goesFirst: RESOURCES.find((resource) => resource === current.goesFirst),
		generation: typeof data.generation === 'number' ? data.generation : 0,
	};
}

/** The fields in the order they are stored, so a state read and written again is the same text. */
const STORED_ORDER = [
	'phase',
	'highWaterMark',
	'serverClockOffset',
	'unfinishedWalk',
	'inheritedWindowStart',
	'baselineBegan',
	'startingFrom',
	'endedFrom',
	'timeMomentsDue',
	'timeMomentsFor',
	'sweptAt',
	'memoryKept',
] as const satisfies ReadonlyArray<Exclude<keyof ResourceState, 'records'>>;

/** The stored form: every field under its own name, records packed. */
export function writeState({ resources, goesFirst, generation }: TriggerState): IDataObject {
	const stored: IDataObject = {
		format: FORMAT,
		generation: generation ?? 0,
		...(goesFirst ? { goesFirst } : {}),
	};
	for (const resource of RESOURCES) {
		const state = resources[resource];
		if (!state) continue;
		const fields: IDataObject = {};
		for (const name of STORED_ORDER)
			if (state[name] !== undefined) fields[name] = state[name] as IDataObject[string];
		stored[resource] = { ...fields, ...state.records.encode() };
	}
	return stored;
}

/** A new resource state: its first walk takes a baseline, or emits what exists. */
export const freshState = (resource: Resource, phase: WatchPhase): ResourceState => ({
	phase,
	highWaterMark: null,
	records: new RecordBook(resource as HeldResource),
});

const DAY = 24 * 60 * 60_000;

/**
 * How long the trigger holds a record after its last activity (a contact's or
 * an appointment's last change; an inspection's last change or its end,
 * whichever is later): the moments' contract (docs/moments.md) says what a
 * record let go gets when it changes again.
 */
export const REMEMBER_MS = 90 * DAY;

/**
 * The most the records of one trigger may take in the static data, in
 * characters (about bytes: the stored text is nearly all ASCII). n8n reads
 * the static data for every poll and rewrites it after every poll that emits;
 * past this, the records with the oldest activity are let go first.
 */
export const STATE_BUDGET = 2 * 1024 * 1024;

/** What a resource's records are held by, after a walk. */
export interface Keeping {
	/** The server's time now. */
	now: number;
	/** Whether a selected event of the resource reads a record's memory. */
	needsMemory: boolean;
	/** The oldest updated_at the next window needs to recognise (null: every one). */
	keepVersionsFrom: number | null;
	/** When a held record last mattered (ms). */
	activity: (updatedAt: number, memory: unknown) => number;
	/** Test knob: the most records a resource holds the memory of. */
	cap?: number;
}

/** Forgets a record's memory, and its version too once the next window no longer needs it. */
function forget(records: RecordBook, key: string, keepVersionsFrom: number | null): void {
	const held = records.get(key);
	if (held === undefined) return;
	if (keepVersionsFrom !== null && held.updatedAt < keepVersionsFrom) records.delete(key);
	else if (held.memory !== undefined)
		records.set(key, { updatedAt: held.updatedAt, hash: held.hash });
}

/**
 * Lets go of what the trigger no longer needs: memories whose activity is
 * more than REMEMBER_MS old (or every memory, when no selected event reads
 * one), versions the next window no longer returns, and, over `cap`, the
 * memories with the oldest activity.
 */
export function letGo(records: RecordBook, keeping: Keeping): void {
	const { now, needsMemory, keepVersionsFrom, activity, cap } = keeping;
	const kept: Array<[string, number]> = [];
	for (const key of [...records.keys()]) {
		const held = records.get(key)!;
		const recent = keepVersionsFrom === null || held.updatedAt >= keepVersionsFrom;
		if (held.memory === undefined || !needsMemory) {
			if (!recent) records.delete(key);
			else if (held.memory !== undefined) forget(records, key, keepVersionsFrom);
			continue;
		}
		const at = activity(held.updatedAt, held.memory);
		if (at <= now - REMEMBER_MS) forget(records, key, keepVersionsFrom);
		else kept.push([key, at]);
	}
	if (cap === undefined || kept.length <= cap) return;
	for (const [key] of byActivity(kept).slice(0, kept.length - cap))
		forget(records, key, keepVersionsFrom);
}

/** Oldest activity first; ties by the record's id, so every process lets go of the same records. */
function byActivity(entries: Array<[string, number]>) {
	const ids = new Map(entries.map(([key]) => [key, unpackId(key)]));
	return [...entries].sort(([ka, a], [kb, b]) => {
		const [ia, ib] = [ids.get(ka)!, ids.get(kb)!];
		return a - b || (ia < ib ? -1 : ia > ib ? 1 : 0);
	});
}

/**
 * Holds every resource's records within STATE_BUDGET (or `budget`): the
 * memories with the oldest activity go first; only then the versions, oldest
 * first (a version let go inside the window may be reported once more).
 */
export function keepWithinBudget(
	states: ResourceState[],
	activityOf: (state: ResourceState) => Keeping['activity'],
	budget = STATE_BUDGET,
): void {
	let size = 0;
	for (const { records } of states) size += records.storedSize();
	if (size <= budget) return;
	const memories: Array<{ records: RecordBook; key: string; at: number }> = [];
	for (const state of states) {
		const activity = activityOf(state);
		for (const key of state.records.keys()) {
			const held = state.records.get(key)!;
			if (held.memory !== undefined)
				memories.push({ records: state.records, key, at: activity(held.updatedAt, held.memory) });
		}
	}
	memories.sort((a, b) => a.at - b.at);
	for (const { records, key } of memories) {
		if (size <= budget) return;
		const before = records.sizeOf(key);
		forget(records, key, null);
		size -= before - records.sizeOf(key);
	}
	const versions = states.flatMap(({ records }) =>
		[...records.keys()].map((key) => ({ records, key, at: records.get(key)!.updatedAt })),
	);
	versions.sort((a, b) => a.at - b.at);
	for (const { records, key } of versions) {
		if (size <= budget) return;
		size -= records.sizeOf(key);
		records.delete(key);
	}
}
