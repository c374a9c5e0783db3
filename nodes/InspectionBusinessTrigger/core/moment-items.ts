/**
 * Inspector moments come one item per inspector: an item's other events stay
 * together (as for any change), and each inspector assigned or removed gets an
 * item of its own whose `inspector` names them. A contact's item with "new
 * role" names the roles in `new_roles`.
 */
import type { IDataObject } from 'n8n-workflow';

import { type EmittedEvent, type PollEvent, primaryEvent } from './events';
import type { PollItem, TriggerItem } from './types';

const INSPECTOR_EVENTS = {
	'inspection.inspector_assigned': 'added',
	'inspection.inspector_removed': 'removed',
} as const;

const isInspectorEvent = (event: EmittedEvent): event is keyof typeof INSPECTOR_EVENTS =>
	event in INSPECTOR_EVENTS;

function split(item: TriggerItem): TriggerItem[] {
	const rest = item.events.filter((event) => !isInspectorEvent(event)) as PollEvent[];
	const out: TriggerItem[] =
		rest.length > 0 ? [{ ...item, event: primaryEvent(rest), events: rest }] : [];
	const diff = (item.changes?.inspectors ?? {}) as IDataObject;
	for (const event of item.events.filter(isInspectorEvent)) {
		const inspectors = (diff[INSPECTOR_EVENTS[event]] ?? []) as IDataObject[];
		for (const inspector of inspectors)
			out.push({ ...item, event, events: [event], inspector: { ...inspector } });
	}
	return out;
}

export function itemsPerMoment(items: PollItem[]): PollItem[] {
	return items.flatMap((item): PollItem[] => {
		if ('problem' in item) return [item]; // an unreadable record has no moments
		if (item.events.includes('contact.new_role')) {
			const roles = (item.changes?.roles as IDataObject | undefined)?.added;
			return [{ ...item, new_roles: Array.isArray(roles) ? [...roles] : [] }];
		}
		return item.events.some(isInspectorEvent) ? split(item) : [item];
	});
}
