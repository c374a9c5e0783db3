/**
 * The items the trigger emits, and their last shaping: an event the catalog
 * marks per inspector comes one item per inspector assigned or removed, whose
 * `inspector` names them (the change's other events stay together in one
 * item); an event that names new roles adds `new_roles`.
 */
import type { GenericValue, IDataObject } from 'n8n-workflow';

import {
	EVENT_ROWS,
	type EmittedEvent,
	type PollEvent,
	primaryEvent,
	type UnreadableEvent,
} from '../catalog';

export interface TriggerItem extends IDataObject {
	event: EmittedEvent;
	events: EmittedEvent[];
	record: IDataObject;
	previous: IDataObject | null;
	/** The watched fields that changed, before and after (memory/watchedFields.ts); null when nothing to compare. */
	changes: IDataObject | null;
}

/** A listed record the trigger could not read (judge/unreadable.ts), reported once. */
export interface UnreadableItem extends IDataObject {
	event: UnreadableEvent;
	events: UnreadableEvent[];
	/** As received; cut below the depth limit when it nests deeper. */
	record: GenericValue;
	previous: null;
	changes: null;
	/** What could not be read. */
	problem: string;
}

/** What a poll emits. */
export type PollItem = TriggerItem | UnreadableItem;

const PER_INSPECTOR = new Map<string, 'added' | 'removed'>(
	EVENT_ROWS.flatMap((row) => (row.perInspector ? [[row.value, row.perInspector] as const] : [])),
);
const NAMES_NEW_ROLES = new Set<string>(
	EVENT_ROWS.filter((row) => row.namesNewRoles).map((row) => row.value),
);

function perInspector(item: TriggerItem): TriggerItem[] {
	const rest = item.events.filter((event) => !PER_INSPECTOR.has(event)) as PollEvent[];
	const out: TriggerItem[] =
		rest.length > 0 ? [{ ...item, event: primaryEvent(rest), events: rest }] : [];
	const diff = (item.changes?.inspectors ?? {}) as IDataObject;
	for (const event of item.events.filter((e) => PER_INSPECTOR.has(e))) {
		const inspectors = (diff[PER_INSPECTOR.get(event)!] ?? []) as IDataObject[];
		for (const inspector of inspectors)
			out.push({ ...item, event, events: [event], inspector: { ...inspector } });
	}
	return out;
}

export function itemsPerMoment(items: PollItem[]): PollItem[] {
	return items.flatMap((item): PollItem[] => {
		if ('problem' in item) return [item]; // an unreadable record has no moments
		if (item.events.some((event) => NAMES_NEW_ROLES.has(event))) {
			const roles = (item.changes?.roles as IDataObject | undefined)?.added;
			return [{ ...item, new_roles: Array.isArray(roles) ? [...roles] : [] }];
		}
		return item.events.some((event) => PER_INSPECTOR.has(event)) ? perInspector(item) : [item];
	});
}
