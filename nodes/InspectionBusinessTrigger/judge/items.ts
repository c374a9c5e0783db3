/**
 * The items the trigger emits, shaped from what a version or a time meant (a
 * Verdict). Node version 2: one item per moment, so a Switch on `event` sends
 * every moment to its branch (docs/moments.md); version 1: one item per
 * change, its `event` the most specific. Both: one item per inspector
 * assigned or removed, naming them in `inspector`; `new_roles` on a new role,
 * `amount_received` on a payment received, `moment_at` on a time moment.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	EVENT_ROWS,
	type EmittedEvent,
	type PollEvent,
	primaryEvent,
	type UnreadableEvent,
} from '../catalog';
import type { Named } from '../memory';

/** What one version, or one moment's time, meant. */
export interface Verdict {
	/** Every selected event it made (an existing or unreadable record: its one event). */
	events: EmittedEvent[];
	record: IDataObject;
	previous: IDataObject | null;
	changes: IDataObject | null;
	inspectors?: { added: Named[]; removed: Named[] };
	newRoles?: string[];
	/** Money received, in the account's currency. */
	amountReceived?: number;
	/** When a time moment came (ISO). */
	momentAt?: string;
	/** What could not be read (an unreadable record). */
	problem?: string;
}

export interface TriggerItem extends IDataObject {
	event: EmittedEvent;
	events: EmittedEvent[];
	record: IDataObject;
	previous: IDataObject | null;
	/** The watched fields that changed, before and after (changes.ts); null when nothing to compare. */
	changes: IDataObject | null;
}

/** A listed record the trigger could not read (unreadable.ts), reported once. */
export interface UnreadableItem extends TriggerItem {
	event: UnreadableEvent;
	problem: string;
}

const PER_INSPECTOR = new Map<string, 'added' | 'removed'>(
	EVENT_ROWS.flatMap((row) => (row.perInspector ? [[row.value, row.perInspector] as const] : [])),
);
const row = (event: EmittedEvent) => EVENT_ROWS.find((r) => r.value === event);

/** The item of one event (or, version 1, several) of a verdict. */
function itemOf(verdict: Verdict, event: EmittedEvent, events: EmittedEvent[]): TriggerItem {
	const item: TriggerItem = {
		event,
		events: verdict.events,
		record: verdict.record,
		previous: verdict.previous,
		changes: verdict.changes,
	};
	if (verdict.problem !== undefined) item.problem = verdict.problem;
	if (verdict.momentAt !== undefined) item.moment_at = verdict.momentAt;
	if (events.some((e) => row(e)?.namesNewRoles)) item.new_roles = [...(verdict.newRoles ?? [])];
	if (events.some((e) => row(e)?.namesPayment)) item.amount_received = verdict.amountReceived ?? 0;
	return item;
}

/** One item per inspector of a per-inspector event. */
const perInspector = (verdict: Verdict, event: EmittedEvent): TriggerItem[] =>
	(verdict.inspectors?.[PER_INSPECTOR.get(event)!] ?? []).map((inspector) => ({
		...itemOf(verdict, event, [event]),
		inspector: { ...inspector },
	}));

/** Version 2: an item per moment. */
function itemsPerMoment(verdict: Verdict): TriggerItem[] {
	return verdict.events.flatMap((event) =>
		PER_INSPECTOR.has(event) ? perInspector(verdict, event) : [itemOf(verdict, event, [event])],
	);
}

/** Version 1: an item per change (its `event` the most specific), inspector moments apart. */
function itemsPerChange(verdict: Verdict): TriggerItem[] {
	const rest = verdict.events.filter((event) => !PER_INSPECTOR.has(event));
	const items =
		rest.length > 0 ? [{ ...itemOf(verdict, primaryEvent(rest), rest), events: rest }] : [];
	for (const event of verdict.events.filter((e) => PER_INSPECTOR.has(e)))
		items.push(...perInspector(verdict, event).map((item) => ({ ...item, events: [event] })));
	return items;
}

/** The items of a poll's verdicts, in their order. */
export const itemsOf = (verdicts: Verdict[], oneItemPerMoment: boolean): TriggerItem[] =>
	verdicts.flatMap(oneItemPerMoment ? itemsPerMoment : itemsPerChange);

export type { PollEvent };
