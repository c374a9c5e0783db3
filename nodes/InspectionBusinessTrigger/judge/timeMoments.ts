/**
 * The time-based moments (the catalog rows with `time`): Starting, the hours
 * the user chose before an inspection starts, and Ended, the hours after it
 * ended. They are judged from the state alone, after the inspections' walk:
 * each fingerprint holds the schedule (scheduled_for, and the length in the
 * kept facts), the status, and what was reported. So an idle poll makes no
 * request for them; only a poll where a moment came asks for those
 * inspections, ⌈n/200⌉ `ids=` requests, to emit the current record.
 *
 * A moment is due when its time has come (at or before the server's now), the
 * inspection's status is one the user counts (confirmed only, by default: a
 * draft or an unconfirmed booking may never take place) and it is not deleted,
 * and:
 * - Starting: not reported for this start time (a move to a new time may
 *   remind again; a return to a time already reminded does not; a new length
 *   does not), and the inspection has not ended yet;
 * - Ended: not reported for this inspection (an inspection ends once), and its
 *   time came after the trigger began watching Ended.
 * Each starts from the first poll with it selected: the Starting already due
 * then are noted as done, no Ended before then is reported.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/endpoints';
import { isDeletedFlag } from '../../shared/inspectionFacts';
import { isUuid } from '../../shared/rules/formats';
import { EVENT_ROWS, type PollEvent, UNREADABLE_EVENTS } from '../catalog';
import { markReported, sameMinute, unpackFacts } from '../memory/keptFacts';
import { changeTime, type Fingerprint, unpackId } from '../memory/fingerprints';
import type { ResourceState } from '../memory/state';
import type { PollItem } from './items';
import { itemForVersion, type VersionContext } from './judgeVersion';

const HOUR = 3_600_000;
const QUARTER_HOUR = 15 * 60_000;

type TimeRow = (typeof EVENT_ROWS)[number] & { time: 'beforeStart' | 'afterEnd' };
const TIME_ROWS = EVENT_ROWS.filter((row): row is TimeRow => row.time !== undefined);

export interface TimeMomentOptions {
	/** The selected events; the judge's context for versions a lookup finds. */
	judge: VersionContext;
	/** Hours before the start that Starting comes. */
	startingHours: number;
	/** Hours after the end that Ended comes. */
	endedHours: number;
	/** The inspection statuses the moments count. */
	statuses: readonly string[];
	/** The server's time now (ms). */
	serverNow: number;
}

interface DueMoment {
	row: TimeRow;
	/** When it came (ms). */
	at: number;
}

interface Due {
	key: string;
	moments: DueMoment[];
}

/** When a version's inspection starts and ends, if it has a time and a status the moments count. */
export function scheduleOf(
	values: Fingerprint['values'],
	statuses: readonly string[],
): { start: number; end: number } | null {
	const facts = unpackFacts(values?.facts);
	const start = values?.scheduled_for;
	if (!facts || typeof start !== 'number') return null;
	if (isDeletedFlag(values?.deleted) || !statuses.includes(String(values?.status))) return null;
	return { start, end: start + facts.lengthQuarters * QUARTER_HOUR };
}

const fromOf = (state: ResourceState, row: TimeRow) =>
	row.time === 'beforeStart' ? state.startingFrom : state.endedFrom;

/** The selected time-based moments of one fingerprint that are due now. */
function dueMoments(
	state: ResourceState,
	fp: Fingerprint,
	options: TimeMomentOptions,
): DueMoment[] {
	const schedule = scheduleOf(fp.values, options.statuses);
	const facts = unpackFacts(fp.values?.facts);
	if (!schedule || !facts) return [];
	const { start, end } = schedule;
	const now = options.serverNow;
	const due: DueMoment[] = [];
	for (const row of TIME_ROWS) {
		const from = fromOf(state, row);
		if (from === undefined || !options.judge.selected.includes(row.value)) continue;
		if (row.time === 'beforeStart') {
			const at = start - options.startingHours * HOUR;
			const reminded = facts.remindedStarts.some((ms) => sameMinute(ms, start));
			// A schedule learned late (booked inside the lead time) still gets its reminder, until the end.
			if (!reminded && at <= now && now < Math.max(end, start + HOUR)) due.push({ row, at });
		} else {
			const at = end + options.endedHours * HOUR;
			const reported = (facts.reported & (row.once?.bit ?? 0)) !== 0;
			if (!reported && at > from && at <= now) due.push({ row, at });
		}
	}
	return due;
}

/** Notes the moments as reported in the fingerprint: Ended for the inspection, Starting for its start time. */
function noteReported(state: ResourceState, key: string, moments: DueMoment[]): void {
	const fp = state.fingerprints.get(key);
	if (!fp?.values?.facts) return;
	for (const { row } of moments) {
		const start = fp.values.scheduled_for as number;
		fp.values.facts =
			row.time === 'beforeStart'
				? markReported(fp.values.facts, 0, start)
				: markReported(fp.values.facts, row.once?.bit ?? 0);
	}
	state.fingerprints.set(key, fp);
}

/**
 * A moment's "from": set by the first poll with its event selected (a
 * Starting due then is noted as done), dropped by a poll without it.
 */
function startWatching(state: ResourceState, options: TimeMomentOptions): void {
	const now = options.serverNow;
	const selected = (time: TimeRow['time']) =>
		TIME_ROWS.some((row) => row.time === time && options.judge.selected.includes(row.value));
	if (!selected('afterEnd')) delete state.endedFrom;
	else state.endedFrom ??= now;
	if (!selected('beforeStart')) delete state.startingFrom;
	else if (state.startingFrom === undefined) {
		state.startingFrom = now;
		for (const [key] of state.fingerprints.times()) {
			const fp = state.fingerprints.get(key);
			const starting = fp ? dueMoments(state, fp, options) : [];
			const due = starting.filter(({ row }) => row.time === 'beforeStart');
			if (due.length > 0) noteReported(state, key, due);
		}
	}
}

/** The inspections with a moment due; those whose id is not a UUID go to `items` as unreadable. */
function collectDue(state: ResourceState, options: TimeMomentOptions, items: PollItem[]): Due[] {
	const due: Due[] = [];
	for (const [key] of state.fingerprints.times()) {
		const fp = state.fingerprints.get(key);
		const moments = fp ? dueMoments(state, fp, options) : [];
		if (moments.length === 0) continue;
		// `ids=` takes UUIDs only: one odd id in a lookup would fail every poll from then on.
		if (isUuid(unpackId(key))) due.push({ key, moments });
		else items.push(unlookedUp(state, key, moments));
	}
	return due;
}

/** A due moment of an inspection whose id `ids=` cannot look up: reported once, as unreadable. */
function unlookedUp(state: ResourceState, key: string, moments: DueMoment[]): PollItem {
	noteReported(state, key, moments);
	const event = UNREADABLE_EVENTS.inspections;
	return {
		event,
		events: [event],
		record: { id: unpackId(key) },
		previous: null,
		changes: null,
		problem: `its ${moments.map((m) => m.row.value).join(' and ')} moment is due, but its id is not a UUID, so it cannot be read by id`,
	};
}

/**
 * One looked-up inspection. A version the walk has not listed (the API listed
 * it late) is judged first, as the walk would, so the state holds what the
 * lookup showed (moved, canceled, another status) and the lookup is not made
 * again; then what is still due is emitted with the current record. Gone: noted
 * as handled.
 */
function reportLookedUp(
	state: ResourceState,
	entry: Due,
	record: IDataObject | undefined,
	options: TimeMomentOptions,
	items: PollItem[],
): void {
	if (!record) {
		noteReported(state, entry.key, entry.moments);
		return;
	}
	const known = state.fingerprints.get(entry.key);
	if (known && changeTime(record) >= known.updatedAt) {
		const listing = { windowStart: null, seenAt: options.serverNow, existedAtBaseline: false };
		const item = itemForVersion(options.judge, record, listing);
		if (item) items.push(item);
	}
	const fp = state.fingerprints.get(entry.key);
	const due = fp ? dueMoments(state, fp, options) : [];
	noteReported(state, entry.key, due);
	for (const { row, at } of due) {
		const event: PollEvent = row.value;
		items.push({
			event,
			events: [event],
			record,
			previous: null,
			changes: null,
			moment_at: new Date(at).toISOString(),
		});
	}
}

/** The source and budget the lookups go through (the poll's). */
export interface Lookup {
	fetch(query: IDataObject): Promise<{ records: IDataObject[]; outOfTime?: boolean } | null>;
}

/**
 * Reports the due time-based moments into `items`, after a finished walk of
 * the inspections (a walk cut short may hold an old schedule; the next poll
 * reports what is due then). A lookup the budget does not allow waits for the
 * next poll: its moments stay due.
 */
export async function reportTimeMoments(
	state: ResourceState,
	lookup: Lookup,
	options: TimeMomentOptions,
	items: PollItem[],
): Promise<void> {
	startWatching(state, options);
	if (state.startingFrom === undefined && state.endedFrom === undefined) return;
	const due = collectDue(state, options, items);
	for (let i = 0; i < due.length; i += LIMITS.idsMax) {
		const batch = due.slice(i, i + LIMITS.idsMax);
		const byId = new Map(batch.map((d) => [unpackId(d.key).toLowerCase(), d]));
		const page = await lookup.fetch({
			ids: [...byId.keys()].join(','),
			include_deleted: true,
			include_canceled: true,
			limit: LIMITS.idsMax,
		});
		if (page === null || page.outOfTime) return;
		const found = new Map(page.records.map((r) => [String(r.id).toLowerCase(), r]));
		for (const [id, entry] of byId) reportLookedUp(state, entry, found.get(id), options, items);
	}
}
