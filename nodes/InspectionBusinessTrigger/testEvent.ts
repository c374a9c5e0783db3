/**
 * "Fetch Test Event": the newest record that shows a selected event by itself,
 * judged by each catalog row's `sample`: the row's own rule on the record as a
 * change from nothing where the record alone can tell (paid, confirmed, an
 * inspector assigned…), or a stand-in where the event needs a version before
 * it (a scheduled time for rescheduled, services for fees changed, tags for tag
 * added, an upcoming or finished inspection for Starting or Ended). A test run
 * must not read or move the trigger's state, so `previous` and `changes` are
 * null; nothing stands in for tag removed or inspector removed. Its items are
 * shaped as a poll's of the same node version.
 */
import type { IDataObject } from 'n8n-workflow';

import { apiTime } from '../shared/inspectionFacts';
import { addedTo, type Change, type PollEvent, type SampleView, selectedRows } from './catalog';
import { itemsOf, type TriggerItem, type Verdict } from './judge';
import {
	changeTime,
	endOf,
	type InspectionMemory,
	memoryOf,
	type MemoryOf,
	type Named,
	type Resource,
} from './memory';

/** Where the inspection stands against its schedule now, for a status the time moments count. */
function timingOf(memory: InspectionMemory, now: number, statuses: readonly string[]) {
	const end = endOf(memory);
	if (end === null || memory.facts.includes('deleted') || !statuses.includes(String(memory.status)))
		return null;
	if (memory.start! > now) return 'upcoming';
	return end <= now ? 'over' : 'under way';
}

function viewOf(
	resource: Resource,
	record: IDataObject,
	now: number,
	statuses: readonly string[],
): SampleView {
	const memory = memoryOf(resource, record);
	const asNew: Change<unknown> = {
		now: memory,
		before: null,
		isNew: true,
		record,
		windowStart: null,
	};
	const created = apiTime(record.created_at);
	return {
		asNew,
		fresh: created !== null && created === apiTime(record.updated_at),
		timing: resource === 'inspections' ? timingOf(memory as InspectionMemory, now, statuses) : null,
	};
}

/** The sample as a poll would report it for the record as new. */
function verdictOf(resource: Resource, record: IDataObject, events: PollEvent[]): Verdict {
	const memory = memoryOf(resource, record);
	const verdict: Verdict = { events, record, previous: null, changes: null };
	if (resource === 'inspections') {
		const inspectors = (memory as InspectionMemory).inspectors;
		verdict.inspectors = {
			added: addedTo(inspectors, null, true, (n: Named) => n.id),
			removed: [],
		};
		verdict.amountReceived = ((memory as InspectionMemory).amountPaidCents ?? 0) / 100;
	}
	if (resource === 'contacts') verdict.newRoles = (memory as MemoryOf<'contacts'>).rolesHad.entries;
	return verdict;
}

/** Picks the newest record, across the watched resources, that shows a selected event. */
export function pickSample(
	newest: ReadonlyArray<{ resource: Resource; records: IDataObject[] }>,
	selected: readonly PollEvent[],
	now: number,
	settings: { statuses: readonly string[]; oneItemPerMoment: boolean },
): TriggerItem[] {
	let best: { resource: Resource; record: IDataObject; events: PollEvent[]; at: number } | null =
		null;
	for (const { resource, records } of newest) {
		const rows = selectedRows(selected).filter((row) => row.resource === resource);
		for (const record of records) {
			const at = changeTime(record);
			if (best !== null && best.at >= at) continue;
			const view = viewOf(resource, record, now, settings.statuses);
			const events = rows.filter((row) => row.sample(view as never)).map((row) => row.value);
			if (events.length > 0) best = { resource, record, events, at };
		}
	}
	if (best === null) return [];
	return itemsOf([verdictOf(best.resource, best.record, best.events)], settings.oneItemPerMoment);
}
