/**
 * What one listed record version means: the walks hand every version they read
 * to itemForVersion, which remembers it and says which item, if any, it emits,
 * by the catalog's rules. A version the trigger cannot read goes to
 * itemForUnreadable instead.
 */
import type { GenericValue, IDataObject } from 'n8n-workflow';

import { apiTime } from '../../shared/inspectionFacts';
import {
	EVENT_ROWS,
	EXISTING_EVENTS,
	onceBits,
	type PollEvent,
	primaryEvent,
	selectedRows,
	UNREADABLE_EVENTS,
} from '../catalog';
import type { Resource } from '../resources';
import { markReported, unpackFacts } from '../memory/keptFacts';
import {
	type Fingerprint,
	fingerprintOf,
	packKey,
	publicFingerprint,
	recordKey,
	sameVersion,
} from '../memory/fingerprints';
import type { ResourceState } from '../memory/state';
import { changesBetween } from '../memory/watchedFields';
import type { Change } from './change';
import type { TriggerItem, UnreadableItem } from './items';
import { asReceived, unreadableKey } from './unreadable';

/** The part of a walk's context a version is judged in. */
export interface VersionContext {
	resource: Resource;
	state: ResourceState;
	selected: readonly PollEvent[];
	/** Only Trigger Once: the moments reported at most once per record. */
	onlyOnce: boolean;
}

/** Where a version was listed. */
export interface Listing {
	/** The window start ("created" and "added" are judged against it; null: everything is new). */
	windowStart: number | null;
	/** The API's time when it was listed. */
	seenAt: number;
	/** Listed in the answer that dated the baseline's start: it existed before the baseline began. */
	existedAtBaseline: boolean;
}

/**
 * Whether a baseline reports this version: it is dated after the baseline
 * began (the API's time of the baseline's first answer), so it is a change
 * made while the baseline ran, not part of what existed before. The Date
 * header counts whole seconds, so a version in that first answer may be dated
 * a little after it: it is still what existed.
 */
const changedSinceBaselineBegan = (state: ResourceState, updatedAt: number, listing: Listing) =>
	!listing.existedAtBaseline &&
	state.baselineBegan !== undefined &&
	updatedAt > state.baselineBegan;

/**
 * Remembers one listed version; returns the item it means, or null (seen
 * before, part of the baseline, or not selected). A version that cannot be
 * judged (a fault in the code that reads it) is reported as unreadable rather
 * than failing the poll.
 */
export function itemForVersion(
	ctx: VersionContext,
	record: IDataObject,
	listing: Listing,
): TriggerItem | UnreadableItem | null {
	try {
		return judgeVersion(ctx, record, listing);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return itemForUnreadable(
			ctx,
			record,
			`the record could not be read: ${reason}`,
			listing.seenAt,
		);
	}
}

/** What a new version means, before the user's selection: every event whose rule holds, and `changes`. */
export interface Derived {
	events: PollEvent[];
	changes: IDataObject | null;
}

/**
 * The events one new version means by the catalog's rules, in priority order,
 * and its `changes`. `previous`: the version seen before (null: first seen);
 * `from`: the window start (null: everything is new).
 */
export function deriveEvents(
	resource: Resource,
	previous: Fingerprint | null,
	record: IDataObject,
	current: Fingerprint,
	from: number | null,
): Derived {
	const createdAt = apiTime(record.created_at);
	const created = previous === null && (from === null || (createdAt !== null && createdAt >= from));
	const now = current.values ?? {};
	const change: Change = {
		now,
		before: previous === null ? null : (previous.values ?? {}),
		created,
		record,
		from,
	};
	return {
		events: EVENT_ROWS.filter((row) => row.resource === resource && row.happened?.(change)).map(
			(row) => row.value,
		),
		changes: changesBetween(resource, created ? 'new' : previous?.values, now),
	};
}

/**
 * The selected events among those derived; a moment held to once per record is
 * left out when it was reported before, and is noted as reported in `current`
 * when it is emitted now.
 */
function selectedEvents(ctx: VersionContext, derived: PollEvent[], current: Fingerprint) {
	const held = onceBits(ctx.onlyOnce);
	const reported = unpackFacts(current.values?.facts)?.reported ?? 0;
	const events: PollEvent[] = [];
	let newlyReported = 0;
	for (const row of selectedRows(ctx.selected)) {
		if (!derived.includes(row.value)) continue;
		if (row.once && held & row.once.bit & reported) continue;
		events.push(row.value);
		if (row.once) newlyReported |= row.once.bit;
	}
	if (newlyReported !== 0 && current.values?.facts !== undefined)
		current.values.facts = markReported(current.values.facts, newlyReported);
	return events;
}

function judgeVersion(
	ctx: VersionContext,
	record: IDataObject,
	listing: Listing,
): TriggerItem | null {
	const { resource, state } = ctx;
	const key = recordKey(resource, record);
	if (key === null) throw new Error('the record has no id');
	const packed = packKey(key);
	const previous = state.fingerprints.get(packed) ?? null;
	const current = fingerprintOf(resource, record, previous);
	if (previous !== null && sameVersion(previous, current)) return null;
	state.fingerprints.set(packed, current);
	if (state.phase === 'baseline' && !changedSinceBaselineBegan(state, current.updatedAt, listing))
		return null;
	// Reported once as existing; a later version of it during the same initial walk is a change like any other.
	if (state.phase === 'existing' && previous === null) {
		const event = EXISTING_EVENTS[resource];
		return { event, events: [event], record, previous: null, changes: null };
	}
	// During a baseline, what is new is judged against the moment it began.
	const from = state.phase === 'baseline' ? (state.baselineBegan ?? null) : listing.windowStart;
	const derived = deriveEvents(resource, previous, record, current, from);
	const events = selectedEvents(ctx, derived.events, current);
	if (events.length === 0) return null;
	state.fingerprints.set(packed, current);
	return {
		event: primaryEvent(events),
		events,
		record,
		previous: previous === null ? null : publicFingerprint(resource, previous),
		changes: derived.changes,
	};
}

/** The key an unreadable record is remembered by: its own, when it has a usable one. */
function keyOfUnreadable(resource: Resource, record: unknown, contentHash: string): string {
	const usable =
		typeof record === 'object' && record !== null && !Array.isArray(record)
			? recordKey(resource, record as IDataObject)
			: null;
	return usable === null ? unreadableKey(contentHash) : packKey(usable);
}

/**
 * Reports a record the trigger cannot read, once: it is remembered by its
 * content, so the same record listed again (the overlap returns it) is not
 * reported again, and a changed one is. Reported in every phase, the baseline
 * included: it cannot be told whether it is a change, and it is never silent.
 * `seenAt`: the API's time when it was listed, what the state dates it by.
 */
export function itemForUnreadable(
	ctx: { resource: Resource; state: ResourceState },
	record: unknown,
	problem: string,
	seenAt: number,
): UnreadableItem | null {
	const { resource, state } = ctx;
	const { shown, contentHash } = asReceived(record);
	const packed = keyOfUnreadable(resource, record, contentHash);
	const previous = state.fingerprints.get(packed);
	// Attachments keep only the window's versions: seen again, it is dated again, so it stays known.
	const updatedAt = resource === 'attachments' ? seenAt : (previous?.updatedAt ?? seenAt);
	state.fingerprints.set(packed, {
		updatedAt,
		contentHash,
		...(previous?.values ? { values: previous.values } : {}),
	});
	if (previous?.contentHash === contentHash) return null;
	const event = UNREADABLE_EVENTS[resource];
	return {
		event,
		events: [event],
		record: shown as GenericValue,
		previous: null,
		changes: null,
		problem,
	};
}
