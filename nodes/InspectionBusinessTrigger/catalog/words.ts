/**
 * The words the event catalog's rules are written in (catalog/index.ts): one
 * listed version next to what the trigger held of the record before. Each
 * word is a sentence of docs/moments.md. Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { apiTime } from '../../shared/inspectionFacts';
import type {
	AnyMemory,
	HeldList,
	InspectionFact,
	InspectionMemory,
	MemoryOf,
	Named,
} from '../memory';

/** A new version of a record, judged against the memory held of it. */
export interface Change<M = AnyMemory> {
	/** The memory of the version just read; its lists are whole. */
	now: M;
	/** The memory held of the version before; null: the record is not held (first seen, or let go). */
	before: M | null;
	/** Seen for the first time and created inside the window: every fact is a change from nothing. */
	isNew: boolean;
	/** The record as listed (for its own timestamps). */
	record: IDataObject;
	/** The window start; null: everything is new. */
	windowStart: number | null;
	/**
	 * A record held by its version only (no memory): that version's updated_at,
	 * so its own times after it are what changed since. Undefined otherwise.
	 */
	versionSeenAt?: number;
}

export type InspectionChange = Change<InspectionMemory>;
export type ContactChange = Change<MemoryOf<'contacts'>>;

/** A version seen for the first time that is not new. */
export const firstSeenOld = (change: Change) => change.before === null && !change.isNew;

/**
 * The fact holds now and did not before; a record not held counts only when
 * new (it came from nothing).
 */
export const became =
	<M>(fact: (memory: M) => boolean) =>
	(change: Change<M>): boolean =>
		fact(change.now) && (change.before === null ? change.isNew : !fact(change.before));

/** An inspection's yes/no fact. */
export const holds =
	(fact: InspectionFact) =>
	(memory: InspectionMemory): boolean =>
		memory.facts.includes(fact);

/** Every one of the facts. */
export const allOf =
	<M>(...facts: Array<(memory: M) => boolean>) =>
	(memory: M): boolean =>
		facts.every((fact) => fact(memory));

/** Either fact. */
export const either =
	<M>(a: (memory: M) => boolean, b: (memory: M) => boolean) =>
	(memory: M): boolean =>
		a(memory) || b(memory);

/**
 * A record not held whose own time `field` (canceled_at, deleted_at) is inside
 * the window, and after the version held of it, if one is: it happened since
 * the trigger's last look.
 */
export const ownTimeInWindow = (field: string) => (change: Change) => {
	const time = apiTime(change.record[field]);
	if (change.versionSeenAt !== undefined) return time !== null && time > change.versionSeenAt;
	return change.windowStart === null || (time !== null && time >= change.windowStart);
};

/** The fact became true, or, for a record not held, its own time says it happened inside the window. */
export const becameOrDated =
	<M>(fact: (memory: M) => boolean, field: string) =>
	(change: Change<M>): boolean =>
		change.before === null && !change.isNew
			? fact(change.now) && ownTimeInWindow(field)(change as Change)
			: became(fact)(change);

const ids = <T>(list: HeldList<T>, idOf: (entry: T) => string) => list.entries.map(idOf);

/**
 * The entries of a list now whose id was not there before. A list held cut
 * (past MAX_KEPT_LIST) cannot tell: none. A new record's entries are all added.
 */
export function addedTo<T>(
	now: HeldList<T>,
	before: HeldList<T> | null,
	isNew: boolean,
	idOf: (entry: T) => string,
): T[] {
	if (before === null) return isNew ? now.entries : [];
	if (!before.complete) return [];
	const had = new Set(ids(before, idOf));
	return now.entries.filter((entry) => !had.has(idOf(entry)));
}

/** The entries held before whose id is not on the list now (the list now is whole). */
export function removedFrom<T>(
	now: HeldList<T>,
	before: HeldList<T> | null,
	idOf: (entry: T) => string,
): T[] {
	if (before === null) return [];
	const has = new Set(ids(now, idOf));
	return before.entries.filter((entry) => !has.has(idOf(entry)));
}

/**
 * Whether a list's ids differ between the versions (by the hash of all ids,
 * when held cut). A list an earlier release stored cut has no hash of its ids
 * (''): it cannot tell, so it says no.
 */
export const listChanged = <T>(now: HeldList<T>, before: HeldList<T>) =>
	before.idsHash !== '' && now.idsHash !== before.idsHash;

export const namedId = (named: Named) => named.id;
