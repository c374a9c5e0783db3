/**
 * The time moments (the catalog rows with `time`): Starting, the hours the user
 * chose before an inspection starts, and Ended, the hours after it ended, as
 * docs/moments.md words them. They are judged from what the trigger holds,
 * after the inspections' walk; only a poll where one came due asks for those
 * inspections, ⌈n/200⌉ `ids=` requests, to report the current record. The
 * state keeps the earliest time one can come due (`timeMomentsDue`), so a poll
 * before it does not look at the held inspections at all.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/endpoints';
import { isUuid } from '../../shared/rules/formats';
import { EVENT_ROWS, type EventRow, type PollEvent, UNREADABLE_EVENTS } from '../catalog';
import {
	changeTime,
	endOf,
	type InspectionMemory,
	type RecordBook,
	type ResourceState,
	unpackId,
} from '../memory';
import type { Verdict } from './items';

const HOUR = 3_600_000;
/**
 * A reminder still goes out this long after the scheduled start, for a poll
 * that runs late (and Hours Before 0); never later: the inspector is there.
 */
export const STARTING_GRACE_MS = 15 * 60_000;

type TimeRow = EventRow & { time: 'beforeStart' | 'afterEnd' };
const TIME_ROWS = EVENT_ROWS.filter((row): row is TimeRow & { value: PollEvent } => !!row.time);

/** The settings the time moments are judged by. */
export interface TimeSettings {
	selected: readonly PollEvent[];
	startingHours: number;
	endedHours: number;
	/** The inspection statuses the moments count. */
	statuses: readonly string[];
	/** Hours late past which an Ended is skipped, not sent; 0: never skipped. */
	endedLateHours: number;
}

const selects = (settings: TimeSettings, time: TimeRow['time']) =>
	TIME_ROWS.some((row) => row.time === time && settings.selected.includes(row.value));

/** When an inspection's Ended moment comes (ms), or null without a schedule. */
export const endedAt = (memory: InspectionMemory, settings: Pick<TimeSettings, 'endedHours'>) => {
	const end = endOf(memory);
	return end === null ? null : end + settings.endedHours * HOUR;
};

const counts = (memory: InspectionMemory, statuses: readonly string[]) =>
	memory.start !== null &&
	!memory.facts.includes('deleted') &&
	memory.status !== null &&
	statuses.includes(memory.status);

interface Due {
	row: TimeRow & { value: PollEvent };
	/** When it came (ms). */
	at: number;
	/** More than the late bound past its time: counted as done, not sent. */
	skipped: boolean;
}

/**
 * The moments of one inspection due at `now`, and the next time one can come
 * due (Infinity: none); `from`: when the trigger began watching each.
 */
export function dueMoments(
	memory: InspectionMemory,
	state: Pick<ResourceState, 'startingFrom' | 'endedFrom'>,
	settings: TimeSettings,
	now: number,
): { due: Due[]; next: number } {
	const due: Due[] = [];
	let next = Infinity;
	if (!counts(memory, settings.statuses)) return { due, next };
	const start = memory.start!;
	const starting = TIME_ROWS.find((row) => row.time === 'beforeStart')!;
	if (state.startingFrom !== undefined && settings.selected.includes(starting.value)) {
		const at = start - settings.startingHours * HOUR;
		if (memory.remindedStart !== start && now < start + STARTING_GRACE_MS) {
			if (at <= now) due.push({ row: starting, at, skipped: false });
			else next = Math.min(next, at);
		}
	}
	const ended = TIME_ROWS.find((row) => row.time === 'afterEnd')!;
	const endedFrom = state.endedFrom;
	if (endedFrom !== undefined && settings.selected.includes(ended.value)) {
		const at = endedAt(memory, settings)!;
		if (!memory.happened.includes('ended') && at > endedFrom) {
			const late = settings.endedLateHours > 0 && now - at > settings.endedLateHours * HOUR;
			if (at <= now) due.push({ row: ended, at, skipped: late });
			else next = Math.min(next, at);
		}
	}
	return { due, next };
}

/** The memory with the moments noted as done: Starting for its start time, Ended for the inspection. */
export function noteDone(memory: InspectionMemory, due: readonly Due[]): InspectionMemory {
	let noted = memory;
	for (const { row } of due)
		noted =
			row.time === 'beforeStart'
				? { ...noted, remindedStart: noted.start }
				: { ...noted, happened: [...new Set([...noted.happened, 'ended' as const])] };
	return noted;
}

/** What the time moments were last looked at for: a change of it means looking again. */
const settingsKey = (state: ResourceState, settings: TimeSettings) =>
	JSON.stringify([
		settings.startingHours,
		settings.endedHours,
		[...settings.statuses].sort(),
		settings.endedLateHours,
		TIME_ROWS.filter((row) => settings.selected.includes(row.value)).map((row) => row.value),
		state.startingFrom,
		state.endedFrom,
	]);

/**
 * A moment's "from": set by the first poll with its event selected, dropped
 * by a poll without it. A Starting already due then is noted as done (the
 * client was not waiting for it).
 */
function startWatching(state: ResourceState, settings: TimeSettings, now: number): void {
	if (!selects(settings, 'afterEnd')) delete state.endedFrom;
	else state.endedFrom ??= now;
	if (!selects(settings, 'beforeStart')) {
		// Selected again later, Starting starts afresh: the times reminded of are forgotten.
		if (state.startingFrom !== undefined) forgetReminders(state);
		delete state.startingFrom;
	} else if (state.startingFrom === undefined) {
		state.startingFrom = now;
		for (const key of [...state.records.keys()]) {
			const held = state.records.get(key)!;
			const memory = held.memory as InspectionMemory | undefined;
			if (!memory) continue;
			const { due } = dueMoments(memory, state, settings, now);
			const starting = due.filter(({ row }) => row.time === 'beforeStart');
			if (starting.length > 0)
				state.records.set(key, { ...held, memory: noteDone(memory, starting) });
		}
	}
}

/** Forgets the start time each held inspection was last reminded of. */
function forgetReminders(state: ResourceState): void {
	for (const key of [...state.records.keys()]) {
		const held = state.records.get(key)!;
		const memory = held.memory as InspectionMemory | undefined;
		if (memory?.remindedStart != null)
			state.records.set(key, { ...held, memory: { ...memory, remindedStart: null } });
	}
}

/** Lowers the state's next due time for one held inspection (after a walk stored a version of it). */
export function noteNextDue(
	state: ResourceState,
	memory: InspectionMemory,
	settings: TimeSettings,
	now: number,
): void {
	if (state.timeMomentsDue === undefined) return;
	const { due, next } = dueMoments(memory, state, settings, now);
	const earliest = due.length > 0 ? now : next;
	if (earliest < state.timeMomentsDue) state.timeMomentsDue = earliest;
}

interface DueInspection {
	key: string;
	due: Due[];
}

/** Every held inspection with a moment due; the next time one comes due is stored. */
function collectDue(state: ResourceState, run: TimeMomentRun): DueInspection[] {
	const { settings, now } = run;
	const found: DueInspection[] = [];
	let next = Infinity;
	for (const key of state.records.keys()) {
		const held = state.records.get(key)!;
		const memory = held.memory as InspectionMemory | undefined;
		if (!memory || run.forgotten(held.updatedAt, memory)) continue;
		const moments = dueMoments(memory, state, settings, now);
		next = Math.min(next, moments.next);
		if (moments.due.length > 0) found.push({ key, due: moments.due });
	}
	state.timeMomentsDue = next;
	return found;
}

/** Notes moments done in the held memory. */
function markDone(records: RecordBook, key: string, due: readonly Due[]): void {
	const held = records.get(key);
	if (held?.memory)
		records.set(key, { ...held, memory: noteDone(held.memory as InspectionMemory, due) });
}

/** The source, budget and judge the lookups go through (the poll's). */
export interface TimeMomentRun {
	settings: TimeSettings;
	/** The server's time now (ms). */
	now: number;
	/** One `ids=` page within the poll's budget; null: no time left (the moments wait for the next poll). */
	lookUp(query: IDataObject): Promise<IDataObject[] | null>;
	/** Judges a looked-up version the walk has not seen (as the walk would); its verdict goes out too. */
	judge(record: IDataObject): Verdict | null;
	/** Logs a count of Ended moments skipped as too late. */
	skippedLate(count: number): void;
	/** Whether a held memory is past the time the trigger holds a record (judged as not held). */
	forgotten(updatedAt: number, memory: InspectionMemory): boolean;
}

/** A due moment of an inspection whose id `ids=` cannot look up: reported once, as unreadable. */
function unlookedUp(records: RecordBook, entry: DueInspection): Verdict {
	markDone(records, entry.key, entry.due);
	const event = UNREADABLE_EVENTS.inspections;
	return {
		events: [event],
		record: { id: unpackId(entry.key) },
		previous: null,
		changes: null,
		problem: `its ${entry.due.map((d) => d.row.value).join(' and ')} moment is due, but its id is not a UUID, so it cannot be read by id`,
	};
}

/**
 * One looked-up inspection: a version the walk has not seen is judged first,
 * so the moments are judged again on its schedule and status; what is still
 * due goes out with the current record. Gone: noted as done.
 */
function reportLookedUp(
	state: ResourceState,
	entry: DueInspection,
	record: IDataObject | undefined,
	run: TimeMomentRun,
	verdicts: Verdict[],
): number {
	if (!record) {
		markDone(state.records, entry.key, entry.due);
		return 0;
	}
	// A version the walk has not seen yet (listed late) is judged first; an older one is not.
	const known = state.records.get(entry.key);
	if (known && changeTime(record) >= known.updatedAt) {
		const changed = run.judge(record);
		if (changed) verdicts.push(changed);
	}
	const held = state.records.get(entry.key);
	const memory = held?.memory as InspectionMemory | undefined;
	if (!memory) return 0;
	const { due } = dueMoments(memory, state, run.settings, run.now);
	markDone(state.records, entry.key, due);
	for (const { row, at, skipped } of due)
		if (!skipped)
			verdicts.push({
				events: [row.value],
				record,
				previous: null,
				changes: null,
				momentAt: new Date(at).toISOString(),
			});
	return due.filter((d) => d.skipped).length;
}

/**
 * Reports the due time moments, after a finished walk of the inspections (a
 * walk cut short may hold an old schedule; the next poll reports what is due
 * then). A lookup the budget does not allow waits for the next poll.
 */
export async function reportTimeMoments(
	state: ResourceState,
	run: TimeMomentRun,
): Promise<Verdict[]> {
	const verdicts: Verdict[] = [];
	startWatching(state, run.settings, run.now);
	if (state.startingFrom === undefined && state.endedFrom === undefined) {
		delete state.timeMomentsDue;
		delete state.timeMomentsFor;
		return verdicts;
	}
	const key = settingsKey(state, run.settings);
	const current = state.timeMomentsFor === key && state.timeMomentsDue !== undefined;
	if (current && run.now < state.timeMomentsDue!) return verdicts;
	state.timeMomentsFor = key;
	const due = collectDue(state, run);
	let skipped = 0;
	const lookups: DueInspection[] = [];
	for (const entry of due) {
		// Skipped ones need no lookup; `ids=` takes UUIDs only.
		if (entry.due.every((d) => d.skipped)) {
			markDone(state.records, entry.key, entry.due);
			skipped += entry.due.length;
		} else if (isUuid(unpackId(entry.key))) lookups.push(entry);
		else verdicts.push(unlookedUp(state.records, entry));
	}
	for (let i = 0; i < lookups.length; i += LIMITS.idsMax) {
		const batch = lookups.slice(i, i + LIMITS.idsMax);
		const byId = new Map(batch.map((d) => [unpackId(d.key).toLowerCase(), d]));
		const records = await run.lookUp({
			ids: [...byId.keys()].join(','),
			include_deleted: true,
			include_canceled: true,
			limit: LIMITS.idsMax,
		});
		if (records === null) {
			// Out of time: these stay due, so the next poll looks again.
			state.timeMomentsDue = run.now;
			break;
		}
		const found = new Map(records.map((r) => [String(r.id).toLowerCase(), r]));
		for (const [id, entry] of byId)
			skipped += reportLookedUp(state, entry, found.get(id), run, verdicts);
	}
	if (skipped > 0) run.skippedLate(skipped);
	return verdicts;
}
