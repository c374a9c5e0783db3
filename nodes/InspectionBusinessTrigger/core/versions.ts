/**
 * What one listed record version means: the walks hand every version they read
 * to itemForVersion, which remembers it and says which item, if any, it emits.
 * A version the trigger cannot read goes to itemForUnreadable instead.
 */
import type { GenericValue, IDataObject } from 'n8n-workflow';

import {
	deriveEvents,
	EXISTING_EVENTS,
	fingerprintOf,
	type PollEvent,
	primaryEvent,
	publicFingerprint,
	recordKey,
	type Resource,
	sameVersion,
} from './events';
import { packKey } from './fingerprints';
import type { ResourceState } from './state';
import type { TriggerItem, UnreadableItem } from './types';
import { asReceived, UNREADABLE_EVENTS, unreadableKey } from './unreadable';

/** The part of a walk's context a version is judged in. */
export interface VersionContext {
	resource: Resource;
	state: ResourceState;
	selected: ReadonlySet<PollEvent>;
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
	const events = derived.events.filter((e) => ctx.selected.has(e));
	if (events.length === 0) return null;
	const prior = previous === null ? null : publicFingerprint(resource, previous);
	return {
		event: primaryEvent(events),
		events,
		record,
		previous: prior,
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
	ctx: VersionContext,
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
