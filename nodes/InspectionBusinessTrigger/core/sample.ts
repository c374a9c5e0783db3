/**
 * "Fetch Test Event": the newest record that matches a selected event, judged
 * by its own fields alone. A test run must not read or move the trigger's
 * state, so there is no fingerprint to compare with: `previous` and `changes`
 * are null. A contact with tags stands in for "tag added"; none for "tag removed".
 */
import type { IDataObject } from 'n8n-workflow';

import { changeTime, type PollEvent, primaryEvent, type Resource } from './events';
import type { TriggerItem } from './types';

/** The events a record shows by itself: a created record has never been updated since. */
function visibleEvents(resource: Resource, record: IDataObject): PollEvent[] {
	const fresh = record.created_at !== undefined && record.created_at === record.updated_at;
	if (resource === 'attachments') return ['attachment.added'];
	if (resource === 'events')
		return [fresh ? 'inspection_event.created' : 'inspection_event.updated'];
	if (resource === 'contacts') {
		const tagged = Array.isArray(record.tags) && record.tags.length > 0;
		return [
			fresh ? 'contact.created' : 'contact.updated',
			...(tagged ? ['contact.tag_added' as const] : []),
		];
	}
	const events: PollEvent[] = [fresh ? 'inspection.created' : 'inspection.updated'];
	if (record.status === 'confirmed') events.push('inspection.confirmed');
	if (record.scheduled_for) events.push('inspection.rescheduled');
	if (record.status === 'canceled') events.push('inspection.canceled');
	if ((record.reports as IDataObject | undefined)?.status === 'published')
		events.push('inspection.published');
	if (record.deleted === true) events.push('inspection.deleted');
	return events;
}

/** Picks the newest record, across the watched resources, that shows a selected event. */
export function pickSample(
	newest: ReadonlyArray<{ resource: Resource; records: IDataObject[] }>,
	selected: readonly PollEvent[],
): TriggerItem | null {
	let best: { item: TriggerItem; at: number } | null = null;
	for (const { resource, records } of newest) {
		for (const record of records) {
			const events = visibleEvents(resource, record).filter((event) => selected.includes(event));
			const at = changeTime(record);
			if (events.length === 0 || (best !== null && best.at >= at)) continue;
			best = {
				item: { event: primaryEvent(events), events, record, previous: null, changes: null },
				at,
			};
		}
	}
	return best?.item ?? null;
}
