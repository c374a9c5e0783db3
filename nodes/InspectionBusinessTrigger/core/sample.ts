/**
 * "Fetch Test Event": the newest record that matches a selected event, judged
 * by its own fields alone, with the poll's own rule per event (STATUS_RULES in
 * events.ts, inspectionMoments in moment-events.ts, scheduleOf in
 * time-moments.ts) applied as to a record first seen. A test run must not read or move the trigger's state, so there
 * is no fingerprint to compare with: `previous` and `changes` are null. So a
 * change can only be told by what it leaves: a contact with tags stands in for
 * "tag added" and one with a role for "new role", an inspection with a
 * scheduled time for "rescheduled", one with services for "fees changed" and
 * one with an inspector for "inspector assigned" (naming the first); nothing
 * stands in for "tag removed" or "inspector removed".
 */
import type { IDataObject } from 'n8n-workflow';

import {
	changeTime,
	hasSchedule,
	type PollEvent,
	primaryEvent,
	type Resource,
	STATUS_RULES,
} from './events';
import { inspectionMoments } from './moment-events';
import type { WatchedValues } from './slots';
import { scheduleOf } from './time-moments';
import type { TriggerItem } from './types';
import { watchedValues } from './watch';

const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;

/** The time-based moments an inspection shows by itself at `now`: upcoming, or over. */
function timeEvents(values: WatchedValues, now: number): PollEvent[] {
	const schedule = scheduleOf(values);
	if (!schedule) return [];
	if (schedule.start > now) return ['inspection.starting'];
	return schedule.end <= now ? ['inspection.ended'] : [];
}

/**
 * By the poll's own rules (events.ts, moment-events.ts) on the record's watched
 * values, as if it came from nothing; a scheduled time stands in for
 * "rescheduled" and services or add-ons for "fees changed".
 */
function shownInspectionEvents(record: IDataObject, fresh: boolean, now: number): PollEvent[] {
	const values = watchedValues('inspections', record);
	const events: PollEvent[] = [fresh ? 'inspection.created' : 'inspection.updated'];
	if (STATUS_RULES['inspection.confirmed'](values)) events.push('inspection.confirmed');
	if (hasSchedule(values)) events.push('inspection.rescheduled');
	for (const event of [
		'inspection.canceled',
		'inspection.published',
		'inspection.deleted',
	] as const)
		if (STATUS_RULES[event](values)) events.push(event);
	events.push(...inspectionMoments(null, values, true));
	if (Array.isArray(values.services) && values.services.length > 0)
		events.push('inspection.fees_changed');
	events.push(...timeEvents(values, now));
	return events;
}

/** The events a record shows by itself: a created record has never been updated since. */
function visibleEvents(resource: Resource, record: IDataObject, now: number): PollEvent[] {
	const fresh = record.created_at !== undefined && record.created_at === record.updated_at;
	if (resource === 'attachments') return ['attachment.added'];
	if (resource === 'events')
		return [fresh ? 'inspection_event.created' : 'inspection_event.updated'];
	if (resource === 'contacts') {
		return [
			fresh ? 'contact.created' : 'contact.updated',
			...(nonEmpty(record.tags) ? ['contact.tag_added' as const] : []),
			...(nonEmpty(record.roles) ? ['contact.new_role' as const] : []),
		];
	}
	return shownInspectionEvents(record, fresh, now);
}

/** The item as the poll shapes it: an inspector's moment alone, naming them; new roles named. */
function sampleItem(record: IDataObject, events: PollEvent[]): TriggerItem {
	const item: TriggerItem = {
		event: primaryEvent(events),
		events,
		record,
		previous: null,
		changes: null,
	};
	if (events.includes('inspection.inspector_assigned')) {
		const others = events.filter((event) => event !== 'inspection.inspector_assigned');
		if (others.length > 0) return { ...item, event: primaryEvent(others), events: others };
		// The first inspector the rule counts: one with an id.
		const first = (record.inspectors as IDataObject[]).find(
			(inspector) => typeof inspector === 'object' && inspector !== null && inspector.id != null,
		)!;
		return { ...item, inspector: { id: String(first.id), name: first.name ?? null } };
	}
	if (events.includes('contact.new_role')) return { ...item, new_roles: record.roles as string[] };
	return item;
}

/** Picks the newest record, across the watched resources, that shows a selected event. */
export function pickSample(
	newest: ReadonlyArray<{ resource: Resource; records: IDataObject[] }>,
	selected: readonly PollEvent[],
	now: number,
): TriggerItem | null {
	let best: { record: IDataObject; events: PollEvent[]; at: number } | null = null;
	for (const { resource, records } of newest) {
		for (const record of records) {
			const events = visibleEvents(resource, record, now).filter((event) =>
				selected.includes(event),
			);
			const at = changeTime(record);
			if (events.length === 0 || (best !== null && best.at >= at)) continue;
			best = { record, events, at };
		}
	}
	return best === null ? null : sampleItem(best.record, best.events);
}
