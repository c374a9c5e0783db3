/**
 * "Fetch Test Event": the newest record that matches a selected event, judged
 * by its own fields alone, with the same rule per moment as the poll
 * (moments.ts). A test run must not read or move the trigger's state, so there
 * is no fingerprint to compare with: `previous` and `changes` are null. So a
 * change can only be told by what it leaves: a contact with tags stands in for
 * "tag added" and one with a role for "new role", an inspection with a
 * scheduled time for "rescheduled", one with services for "fees changed" and
 * one with an inspector for "inspector assigned" (naming the first); nothing
 * stands in for "tag removed" or "inspector removed".
 */
import type { IDataObject } from 'n8n-workflow';

import { changeTime, type PollEvent, primaryEvent, type Resource } from './events';
import {
	allAgreementsSigned,
	isCanceledOrDeleted,
	isPaid,
	isPublished,
	lengthInQuarters,
} from './moments';
import type { TriggerItem } from './types';

const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;

/** The time-based moments an inspection shows by itself at `now`: upcoming, or over. */
function timeEvents(record: IDataObject, now: number): PollEvent[] {
	const start = typeof record.scheduled_for === 'string' ? Date.parse(record.scheduled_for) : NaN;
	if (Number.isNaN(start) || isCanceledOrDeleted(record)) return [];
	const end = start + lengthInQuarters(record) * 15 * 60_000;
	if (start > now) return ['inspection.starting'];
	return end <= now ? ['inspection.ended'] : [];
}

function inspectionEvents(record: IDataObject, fresh: boolean, now: number): PollEvent[] {
	const events: PollEvent[] = [fresh ? 'inspection.created' : 'inspection.updated'];
	if (record.status === 'confirmed') events.push('inspection.confirmed');
	if (record.scheduled_for) events.push('inspection.rescheduled');
	if (record.status === 'canceled') events.push('inspection.canceled');
	const published = isPublished(record);
	if (published) events.push('inspection.published');
	if (record.deleted === true) events.push('inspection.deleted');
	const paid = isPaid(record);
	const signed = allAgreementsSigned(record);
	if (paid) events.push('inspection.paid');
	if (signed) events.push('inspection.agreements_signed');
	if (paid && signed) events.push('inspection.paid_and_signed');
	if (paid && signed && published) events.push('inspection.paid_signed_published');
	if (nonEmpty(record.inspectors)) events.push('inspection.inspector_assigned');
	if (nonEmpty(record.services) || nonEmpty(record.add_ons)) events.push('inspection.fees_changed');
	events.push(...timeEvents(record, now));
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
	return inspectionEvents(record, fresh, now);
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
		const [first] = record.inspectors as IDataObject[];
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
