/**
 * What one listed record version means: the walks hand every version they read
 * to itemForVersion, which remembers it and says which item, if any, it emits.
 */
import type { IDataObject } from 'n8n-workflow';

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
import type { TriggerItem } from './types';

/** The part of a walk's context a version is judged in. */
export interface VersionContext {
	resource: Resource;
	state: ResourceState;
	selected: ReadonlySet<PollEvent>;
}

/** Remembers one listed version; returns the item it means, or null (seen before, baseline, or not selected). */
export function itemForVersion(
	ctx: VersionContext,
	record: IDataObject,
	windowStart: number | null,
): TriggerItem | null {
	const { resource, state } = ctx;
	const key = recordKey(resource, record);
	if (key === null) return null;
	const packed = packKey(key);
	const previous = state.fingerprints.get(packed) ?? null;
	const current = fingerprintOf(resource, record, previous);
	if (previous !== null && sameVersion(previous, current)) return null;
	state.fingerprints.set(packed, current);
	if (state.phase === 'baseline') return null;
	// Reported once as existing; a later version of it during the same initial walk is a change like any other.
	if (state.phase === 'existing' && previous === null) {
		const event = EXISTING_EVENTS[resource];
		return { event, events: [event], record, previous: null, changes: null };
	}
	const derived = deriveEvents(resource, previous, record, current, windowStart);
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
