/**
 * "Fetch Test Event": the newest record that shows a selected event by itself,
 * judged by each catalog row's `sample`: the row's own rule on the record as a
 * change from nothing where the record alone can tell (paid, confirmed, an
 * inspector assigned…), or a stand-in where the event needs a version before it
 * (a scheduled time for rescheduled, services for fees changed, tags for tag
 * added, an upcoming or finished inspection for Starting or Ended). A test run
 * must not read or move the trigger's state, so `previous` and `changes` are
 * null; nothing stands in for tag removed or inspector removed.
 */
import type { IDataObject } from 'n8n-workflow';

import { type PollEvent, primaryEvent, selectedRows, type SampleView } from './catalog';
import type { TriggerItem } from './judge/items';
import { scheduleOf } from './judge/timeMoments';
import { changeTime } from './memory/fingerprints';
import { newEntries, showNamed } from './memory/namedLists';
import type { WatchedValues } from './memory/packing';
import { watchedValues } from './memory/watchedFields';
import { OPTION_DEFAULTS } from './description';
import type { Resource } from './resources';

/** Where the inspection stands against its schedule now, for a status the time moments count. */
function timingOf(
	resource: Resource,
	view: SampleView['asNew'],
	now: number,
	statuses: readonly string[],
) {
	if (resource !== 'inspections') return null;
	const schedule = scheduleOf(view.now, statuses);
	if (!schedule) return null;
	if (schedule.start > now) return 'upcoming';
	return schedule.end <= now ? 'over' : 'under way';
}

function viewOf(
	resource: Resource,
	record: IDataObject,
	now: number,
	statuses: readonly string[],
): SampleView {
	const asNew = {
		now: watchedValues(resource, record),
		before: null,
		created: true,
		record,
		from: null,
	};
	return {
		asNew,
		fresh: record.created_at !== undefined && record.created_at === record.updated_at,
		timing: timingOf(resource, asNew, now, statuses),
	};
}

/**
 * The item as the poll shapes it: an inspector's moment alone, naming the first
 * the poll would name; new roles named. Both as the poll reports them: from the
 * watched values (kept, sorted), as a change from nothing.
 */
function sampleItem(record: IDataObject, events: PollEvent[], values: WatchedValues): TriggerItem {
	const item: TriggerItem = {
		event: primaryEvent(events),
		events,
		record,
		previous: null,
		changes: null,
	};
	const perInspector = selectedRows(events).find((row) => row.perInspector === 'added');
	if (perInspector) {
		const others = events.filter((event) => event !== perInspector.value);
		if (others.length > 0) return { ...item, event: primaryEvent(others), events: others };
		// The sample rule showed an inspector with an id, so there is a first.
		const [first] = showNamed(values.inspectors ?? []);
		return { ...item, inspector: { ...first } };
	}
	if (selectedRows(events).some((row) => row.namesNewRoles))
		return { ...item, new_roles: newEntries(undefined, values.roles) };
	return item;
}

/** Picks the newest record, across the watched resources, that shows a selected event. */
export function pickSample(
	newest: ReadonlyArray<{ resource: Resource; records: IDataObject[] }>,
	selected: readonly PollEvent[],
	now: number,
	statuses: readonly string[] = OPTION_DEFAULTS.momentStatuses,
): TriggerItem | null {
	let best: { record: IDataObject; events: PollEvent[]; at: number; values: WatchedValues } | null =
		null;
	for (const { resource, records } of newest) {
		const rows = selectedRows(selected).filter((row) => row.resource === resource);
		for (const record of records) {
			const at = changeTime(record);
			if (best !== null && best.at >= at) continue;
			const view = viewOf(resource, record, now, statuses);
			const events = rows.filter((row) => row.sample(view)).map((row) => row.value);
			if (events.length > 0) best = { record, events, at, values: view.asNew.now };
		}
	}
	return best === null ? null : sampleItem(best.record, best.events, best.values);
}
