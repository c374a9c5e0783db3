/**
 * What one listed record version means: the walks hand every version they
 * read to judgeVersion, which stores what the trigger keeps of it and says
 * what it means, by the catalog's rules (docs/moments.md), before the items
 * are shaped (items.ts). A version the trigger cannot read goes to
 * judgeUnreadable instead.
 */
import type { GenericValue, IDataObject } from 'n8n-workflow';

import { apiTime } from '../../shared/inspectionFacts';
import {
	amountReceived,
	addedTo,
	type Change,
	EVENT_ROWS,
	EXISTING_EVENTS,
	newRoles,
	type PollEvent,
	removedFrom,
	selectedRows,
	UNREADABLE_EVENTS,
} from '../catalog';
import {
	type AnyMemory,
	changeTime,
	contentHashOf,
	type Held,
	type HeldResource,
	type InspectionMemory,
	type Keeping,
	memoryOf,
	type Named,
	type OnceMoment,
	recordKey,
	REMEMBER_MS,
	type Resource,
	type ResourceState,
} from '../memory';
import { changesBetween } from './changes';
import type { Verdict } from './items';
import { endedAt, noteNextDue, type TimeSettings } from './timeMoments';
import { asReceived, unreadableKey } from './unreadable';

/** What a version is judged in. */
export interface JudgeContext {
	resource: Resource;
	state: ResourceState;
	selected: readonly PollEvent[];
	/** Only Trigger Once: the moments that allow it come at most once per inspection. */
	onlyOnce: boolean;
	/** Whether a selected event of the resource reads the records' memory. */
	needsMemory: boolean;
	/** When a held record last mattered (ms): its memory is let go REMEMBER_MS after. */
	activity: Keeping['activity'];
	time: TimeSettings;
	/** The server's time now (ms). */
	now: number;
}

/** Where a version was listed. */
export interface Listing {
	/** The window start ("new" is judged against it; null: everything is new). */
	windowStart: number | null;
	/** Listed in the answer that dated the baseline's start: it existed before the baseline began. */
	existedAtBaseline: boolean;
}

/**
 * Remembers one listed version; returns what it means, or null (seen before,
 * part of the baseline, or nothing selected). A version that cannot be judged
 * (a fault in the code that reads it) is reported as unreadable rather than
 * failing the poll.
 */
export function judgeVersion(ctx: JudgeContext, record: IDataObject, listing: Listing): Verdict | null {
	try {
		return judge(ctx, record, listing);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return judgeUnreadable(ctx, record, `the record could not be read: ${reason}`, ctx.now);
	}
}

/** The once-moments whose fact holds in `memory` (and Ended when its time has come). */
function holding(ctx: JudgeContext, memory: AnyMemory): OnceMoment[] {
	if (ctx.resource !== 'inspections') return [];
	const inspection = memory as InspectionMemory;
	const moments: OnceMoment[] = [];
	for (const row of EVENT_ROWS)
		if (row.resource === 'inspections' && row.once?.fact?.(inspection)) moments.push(row.once.moment);
	return moments;
}

/** Whether a baseline reports this version: dated after it began, so a change made while it ran. */
const changedSinceBaselineBegan = (state: ResourceState, updatedAt: number, listing: Listing) =>
	!listing.existedAtBaseline && state.baselineBegan !== undefined && updatedAt > state.baselineBegan;

/** The events of a change by the catalog's rules, selected, with Only Trigger Once applied. */
function eventsOf(ctx: JudgeContext, change: Change<AnyMemory>): PollEvent[] {
	const happened = ((change.before as InspectionMemory | null)?.happened ?? []) as OnceMoment[];
	return selectedRows(ctx.selected)
		.filter((row) => row.resource === ctx.resource && row.happened?.(change as never))
		.filter((row) => !(row.once && ctx.onlyOnce && happened.includes(row.once.moment)))
		.map((row) => row.value);
}

/** The `previous` of an item: what the trigger held, in the API's own field names. */
function previousOf(resource: Resource, held: Held): IDataObject {
	const updatedAt = new Date(held.updatedAt).toISOString();
	if (resource !== 'inspections') return { updated_at: updatedAt };
	const memory = held.memory as InspectionMemory;
	return {
		updated_at: updatedAt,
		status: memory.status,
		scheduled_for: memory.start === null ? null : new Date(memory.start).toISOString(),
		reports_status: memory.reportsStatus,
		deleted: memory.facts.includes('deleted'),
	};
}

/** What the items of a change name beyond its events: inspectors, new roles, money received. */
function namedParts(ctx: JudgeContext, change: Change<AnyMemory>, events: PollEvent[]) {
	const parts: Partial<Verdict> = {};
	const has = (event: PollEvent) => events.includes(event);
	if (ctx.resource === 'inspections') {
		const c = change as Change<InspectionMemory>;
		const id = (n: Named) => n.id;
		if (has('inspection.inspector_assigned') || has('inspection.inspector_removed'))
			parts.inspectors = {
				added: addedTo(c.now.inspectors, c.before?.inspectors ?? null, c.isNew, id),
				removed: removedFrom(c.now.inspectors, c.before?.inspectors ?? null, id),
			};
		if (has('inspection.payment_received')) parts.amountReceived = amountReceived(c) / 100;
	}
	if (has('contact.new_role')) parts.newRoles = newRoles(change as never);
	return parts;
}

/**
 * What the trigger holds of a record, as the hourly sweep (letGo) leaves it: a
 * memory past REMEMBER_MS is let go here too, so a change after a quiet spell
 * (no poll stored anything, so no sweep ran) is judged as first seen. Its
 * version stays known: listed again unchanged, it is no change.
 */
function heldNow(ctx: JudgeContext, key: string): Held | undefined {
	const held = ctx.state.records.get(key);
	if (held?.memory === undefined) return held;
	const stale = ctx.activity(held.updatedAt, held.memory) < ctx.now - REMEMBER_MS;
	return stale ? { updatedAt: held.updatedAt, hash: held.hash } : held;
}

function judge(ctx: JudgeContext, record: IDataObject, listing: Listing): Verdict | null {
	const { resource, state } = ctx;
	const key = recordKey(resource as HeldResource, record);
	if (key === null) throw new Error('the record has no id');
	const held = heldNow(ctx, key);
	const updatedAt = changeTime(record);
	const hash = contentHashOf(record);
	if (held && held.updatedAt === updatedAt && held.hash === hash) return null;
	const before = held?.memory ?? null;
	// During a baseline, what is new is judged against the moment it began.
	const windowStart = state.phase === 'baseline' ? (state.baselineBegan ?? null) : listing.windowStart;
	const createdAt = apiTime(record.created_at);
	const isNew =
		held === undefined && (windowStart === null || (createdAt !== null && createdAt >= windowStart));
	const now = memoryOf(resource as HeldResource, record, before ?? undefined) as AnyMemory;
	const change: Change<AnyMemory> = { now, before, isNew, record, windowStart };
	if (held !== undefined && before === null) change.versionSeenAt = held.updatedAt;
	const silent =
		(state.phase === 'baseline' && !changedSinceBaselineBegan(state, updatedAt, listing)) ||
		(state.phase === 'existing' && held === undefined);
	const events = silent ? [] : eventsOf(ctx, change);
	remember(ctx, key, { updatedAt, hash, memory: now }, before === null && !isNew);
	if (state.phase === 'existing' && held === undefined) {
		const event = EXISTING_EVENTS[resource];
		return { events: [event], record, previous: null, changes: null };
	}
	if (events.length === 0) return null;
	return {
		events,
		record,
		previous: before === null ? null : previousOf(resource, held!),
		changes: changesBetween(resource as HeldResource, isNew ? 'new' : before, now),
		...namedParts(ctx, change, events),
	};
}

/**
 * Stores the version, with its memory when the selected events read one. The
 * once-moments whose fact holds now have happened; for a record not held and
 * not new, so has an Ended whose time has come (docs/moments.md).
 */
function remember(ctx: JudgeContext, key: string, version: Held, firstSeenOld: boolean): void {
	const { state, resource } = ctx;
	if (!ctx.needsMemory || version.memory === undefined) {
		state.records.set(key, { updatedAt: version.updatedAt, hash: version.hash });
		return;
	}
	if (resource === 'inspections') {
		const memory = version.memory as InspectionMemory;
		const happened = new Set([...memory.happened, ...holding(ctx, memory)]);
		const ended = endedAt(memory, ctx.time);
		if (firstSeenOld && ended !== null && ended <= ctx.now) happened.add('ended');
		version.memory = { ...memory, happened: [...happened] };
		noteNextDue(state, version.memory as InspectionMemory, ctx.time, ctx.now);
	}
	state.records.set(key, version);
}

/** The key an unreadable record is remembered by: its own, when it has a usable one. */
function keyOfUnreadable(resource: Resource, record: unknown, contentHash: string): string {
	const usable =
		typeof record === 'object' && record !== null && !Array.isArray(record)
			? recordKey(resource as HeldResource, record as IDataObject)
			: null;
	return usable ?? unreadableKey(contentHash);
}

/**
 * Reports a record the trigger cannot read, once: it is remembered by its
 * content, so the same record listed again (the overlap returns it) is not
 * reported again, and a changed one is. Reported in every phase, the baseline
 * included: it cannot be told whether it is a change, and it is never silent.
 * `seenAt`: the API's time when it was listed, what the state dates it by.
 */
export function judgeUnreadable(
	ctx: Pick<JudgeContext, 'resource' | 'state'>,
	record: unknown,
	problem: string,
	seenAt: number,
): Verdict | null {
	const { resource, state } = ctx;
	const { shown, contentHash } = asReceived(record);
	const key = keyOfUnreadable(resource, record, contentHash);
	const held = state.records.get(key);
	// Attachments keep only the window's versions: seen again, it is dated again, so it stays known.
	const updatedAt = resource === 'attachments' ? seenAt : (held?.updatedAt ?? seenAt);
	state.records.set(key, { ...held, updatedAt, hash: contentHash });
	if (held?.hash === contentHash) return null;
	return {
		events: [UNREADABLE_EVENTS[resource]],
		record: shown as GenericValue as IDataObject,
		previous: null,
		changes: null,
		problem,
	};
}
