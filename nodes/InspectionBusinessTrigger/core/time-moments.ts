/**
 * The time-based moments: "inspection starting" (a set number of hours before
 * scheduled_for) and "inspection ended" (a set number of hours after it
 * ended). They are judged from the state alone, after the inspections' walk:
 * each fingerprint holds the schedule (scheduled_for, and the length in the
 * `moments` value) and whether each moment was reported for it, and the
 * resource's state holds when the trigger began watching them. So an idle poll
 * makes no request for them; only a poll where a moment came asks for those
 * inspections, ⌈n/200⌉ `ids=` requests, to emit the current record and to
 * check it was not canceled, deleted or moved meanwhile.
 *
 * A moment is due when its time has come (at or before the server's now),
 * has not been reported for this schedule, and the inspection is neither
 * canceled nor deleted. "Starting" is due only until the inspection ends (a
 * schedule learned inside the lead time still gets it); "ended" only when its
 * time came after the trigger began watching (no review request for an old
 * inspection entered late). The first poll that watches them notes every
 * "starting" already due as done. A moved schedule is a new moment
 * (moments.ts carryReported).
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/endpoints';
import { isUuid } from '../../shared/rules/formats';
import type { Budget } from './budget';
import type { Fingerprint } from './events';
import { unpackId } from './fingerprints';
import { isCanceledOrDeleted, lengthInQuarters, packFacts, unpackFacts } from './moments';
import type { ResourceState } from './state';
import type { WatchedValues } from './slots';
import type { ListSource, PollItem, PollOptions } from './types';
import { UNREADABLE_EVENTS } from './unreadable';

const HOUR = 3_600_000;
const QUARTER_HOUR = 15 * 60_000;

export type TimeMoment = 'inspection.starting' | 'inspection.ended';

export interface TimeMomentOptions {
	/** The selected time-based moments. */
	selected: ReadonlySet<string>;
	/** Hours before scheduled_for that "starting" comes. */
	startingHours: number;
	/** Hours after the inspection's end that "ended" comes. */
	endedHours: number;
	/** The server's time now (ms). */
	serverNow: number;
}

interface Due {
	key: string;
	fp: Fingerprint;
	moments: Array<{ event: TimeMoment; at: number }>;
}

/**
 * When a version's inspection starts and ends; null when it has no time, or is
 * canceled or deleted (no time-based moment is ever reported for it). Used by
 * the poll and by Fetch Test Event.
 */
export function scheduleOf(values: WatchedValues): { start: number; end: number } | null {
	const facts = unpackFacts(values.moments);
	const start = values.scheduled_for;
	if (!facts || typeof start !== 'number') return null;
	if (values.status === 'canceled' || values.deleted === true) return null;
	return { start, end: start + facts.lengthQuarters * QUARTER_HOUR };
}

/** The time-based moments of one fingerprint that are due now. */
export function dueMoments(
	fp: Fingerprint,
	from: number,
	options: TimeMomentOptions,
): Array<{ event: TimeMoment; at: number }> {
	const values = fp.values ?? {};
	const facts = unpackFacts(values.moments);
	const schedule = scheduleOf(values);
	if (!facts || !schedule) return [];
	const { start, end } = schedule;
	const now = options.serverNow;
	const due: Array<{ event: TimeMoment; at: number }> = [];
	const startingAt = start - options.startingHours * HOUR;
	// A schedule learned late (booked inside the lead time) still gets its "starting", until the end.
	if (
		options.selected.has('inspection.starting') &&
		!facts.startingReported &&
		startingAt <= now &&
		now < Math.max(end, start + HOUR)
	)
		due.push({ event: 'inspection.starting', at: startingAt });
	const endedAt = end + options.endedHours * HOUR;
	if (
		options.selected.has('inspection.ended') &&
		!facts.endedReported &&
		endedAt > from &&
		endedAt <= now
	)
		due.push({ event: 'inspection.ended', at: endedAt });
	return due;
}

/** Marks the moments reported in the fingerprint's `moments` value. */
function markReported(state: ResourceState, { key, fp, moments }: Due): void {
	const facts = unpackFacts(fp.values?.moments);
	if (!facts || !fp.values) return;
	const events = new Set(moments.map((m) => m.event));
	fp.values.moments = packFacts({
		...facts,
		startingReported: facts.startingReported || events.has('inspection.starting'),
		endedReported: facts.endedReported || events.has('inspection.ended'),
	});
	state.fingerprints.set(key, fp);
}

/** Whether the listed record still has the schedule the fingerprint holds. */
function sameSchedule(record: IDataObject, fp: Fingerprint): boolean {
	const start = typeof record.scheduled_for === 'string' ? Date.parse(record.scheduled_for) : NaN;
	const facts = unpackFacts(fp.values?.moments);
	return start === fp.values?.scheduled_for && lengthInQuarters(record) === facts?.lengthQuarters;
}

/**
 * A due moment of an inspection whose id is not a UUID, which `ids=` cannot look up:
 * reported once, visibly, as unreadable, and noted as handled.
 */
function unlookedUp(state: ResourceState, entry: Due): PollItem {
	markReported(state, entry);
	const event = UNREADABLE_EVENTS.inspections;
	return {
		event,
		events: [event],
		record: { id: unpackId(entry.key) },
		previous: null,
		changes: null,
		problem: `its ${entry.moments.map((m) => m.event).join(' and ')} moment is due, but its id is not a UUID, so it cannot be read by id`,
	};
}

/** The first poll that watches time-based moments notes the time; a "starting" already due is noted as done. */
function startWatching(state: ResourceState, options: TimeMomentOptions): void {
	state.momentsFrom = options.serverNow;
	for (const [key] of state.fingerprints.times()) {
		const fp = state.fingerprints.get(key);
		const moments = fp ? dueMoments(fp, options.serverNow, options) : [];
		const starting = moments.filter((m) => m.event === 'inspection.starting');
		if (fp && starting.length > 0) markReported(state, { key, fp, moments: starting });
	}
}

/** The inspections with a moment due since `from`; those whose id is not a UUID go to `items` as unreadable. */
function collectDue(
	state: ResourceState,
	from: number,
	options: TimeMomentOptions,
	items: PollItem[],
): Due[] {
	const due: Due[] = [];
	for (const [key] of state.fingerprints.times()) {
		const fp = state.fingerprints.get(key);
		const moments = fp ? dueMoments(fp, from, options) : [];
		if (fp === undefined || moments.length === 0) continue;
		// `ids=` takes UUIDs only: one odd id in a lookup would fail every poll from then on.
		if (isUuid(unpackId(key))) due.push({ key, fp, moments });
		else items.push(unlookedUp(state, { key, fp, moments }));
	}
	return due;
}

/** Reports one looked-up batch: a moved schedule waits for the walk, gone or canceled is noted as handled. */
function reportBatch(
	state: ResourceState,
	byId: Map<string, Due>,
	records: IDataObject[],
	items: PollItem[],
): void {
	const found = new Map(records.map((r) => [String(r.id).toLowerCase(), r]));
	for (const [id, entry] of byId) {
		const record = found.get(id);
		// Moved meanwhile: the next walk reads the new version, whose moments are new.
		if (record && !isCanceledOrDeleted(record) && !sameSchedule(record, entry.fp)) continue;
		// Gone, canceled or deleted: noted as handled, so it is not asked for again.
		markReported(state, entry);
		if (!record || isCanceledOrDeleted(record)) continue;
		for (const moment of entry.moments) {
			items.push({
				event: moment.event,
				events: [moment.event],
				record,
				previous: null,
				changes: null,
				moment_at: new Date(moment.at).toISOString(),
			});
		}
	}
}

/**
 * Reports the due time-based moments into `items`. The first poll that
 * watches them only notes the time: nothing before it is reported. A moment
 * whose lookup the budget does not allow stays due for the next poll.
 */
export async function reportTimeMoments(
	state: ResourceState,
	source: ListSource,
	budget: Budget,
	options: TimeMomentOptions,
	items: PollItem[],
): Promise<void> {
	if (state.momentsFrom === undefined) {
		startWatching(state, options);
		return;
	}
	const due = collectDue(state, state.momentsFrom, options, items);
	for (let i = 0; i < due.length; i += LIMITS.idsMax) {
		if (!budget.allows(1)) return;
		const batch = due.slice(i, i + LIMITS.idsMax);
		const byId = new Map(batch.map((d) => [unpackId(d.key).toLowerCase(), d]));
		const query = {
			ids: [...byId.keys()].join(','),
			include_deleted: true,
			include_canceled: true,
			limit: LIMITS.idsMax,
		};
		const page = await budget.timed(() =>
			source.fetch({ resource: 'inspections', query, cursor: null }),
		);
		if (page.outOfTime) return;
		reportBatch(state, byId, page.records, items);
	}
}

const DEFAULT_HOURS = 24;

/**
 * The poll's step after the inspections' walk: reports the due moments when
 * "starting" or "ended" is selected and the walk finished (a walk cut short
 * may hold an old schedule; the next poll reports what is due then), and
 * forgets when watching began when neither is selected.
 */
export async function timeMomentsAfterWalk(
	state: ResourceState,
	source: ListSource,
	budget: Budget,
	options: PollOptions,
	walkDone: boolean,
	items: PollItem[],
): Promise<void> {
	const selected = new Set<string>(options.events);
	if (!selected.has('inspection.starting') && !selected.has('inspection.ended')) {
		delete state.momentsFrom;
		return;
	}
	if (!walkDone) return;
	await reportTimeMoments(
		state,
		source,
		budget,
		{
			selected,
			startingHours: options.startingHours ?? DEFAULT_HOURS,
			endedHours: options.endedHours ?? DEFAULT_HOURS,
			serverNow: options.now() + (state.serverClockOffset ?? 0),
		},
		items,
	);
}
