/**
 * One new record version next to the version the trigger saw before: what
 * every rule of the event catalog (catalog.ts) reads, and the words the rules
 * are written in. The facts themselves (paid, signed, canceled…) are defined in
 * shared/inspectionFacts.ts; here they are read from a version's kept values.
 * Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	apiTime,
	isCanceledStatus,
	isConfirmedStatus,
	isDeletedFlag,
	isPaidStatus,
	isPublishedReportsStatus,
} from '../../shared/inspectionFacts';
import { unpackFacts } from '../memory/keptFacts';
import { missingKeys, newEntries } from '../memory/namedLists';
import type { WatchedValue, WatchedValues } from '../memory/packing';

export interface Change {
	/** The watched values of the version just read. */
	now: WatchedValues;
	/**
	 * The watched values of the version seen before; null when the record is
	 * seen for the first time. A field it lacks is unknown (a state stored before
	 * the trigger watched it), and an unknown never makes an event.
	 */
	before: WatchedValues | null;
	/** Seen for the first time, with created_at inside the window. */
	created: boolean;
	/** The record as listed (for its own timestamps). */
	record: IDataObject;
	/** The window start; null: everything is new. */
	from: number | null;
}

/** What a version says of a fact: true, false, or undefined when it does not tell. */
export type Fact = (values: WatchedValues) => boolean | undefined;

const known =
	(field: string, test: (value: WatchedValue) => boolean): Fact =>
	(values) =>
		values[field] === undefined ? undefined : test(values[field]!);

/** The facts the rules name, read from a version's kept values. */
export const FACTS = {
	confirmed: known('status', isConfirmedStatus),
	canceled: known('status', isCanceledStatus),
	published: known('reports.status', isPublishedReportsStatus),
	deleted: known('deleted', isDeletedFlag),
	/** A state stored before the kept facts still knows the payment status. */
	paid: (values: WatchedValues) =>
		unpackFacts(values.facts)?.paid ??
		(values['price.payment_status'] === undefined
			? undefined
			: isPaidStatus(values['price.payment_status'])),
	signed: (values: WatchedValues) => unpackFacts(values.facts)?.signed,
	/** Nothing to sign counts as signed for a gate that waits on signatures. */
	signedOrNothingToSign: (values: WatchedValues) => {
		const facts = unpackFacts(values.facts);
		return facts === undefined ? undefined : facts.signed || facts.nothingToSign;
	},
} satisfies Record<string, Fact>;

/** All of the facts hold; undefined when one is unknown. */
export const allOf =
	(...facts: Fact[]): Fact =>
	(values) => {
		const answers = facts.map((fact) => fact(values));
		return answers.includes(undefined) ? undefined : answers.every(Boolean);
	};

/** The record's own time `field` is inside the window (what tells a first-seen record's change). */
export const ownTimeInWindow = (field: string) => (change: Change) => {
	const time = apiTime(change.record[field]);
	return change.from === null || (time !== null && time >= change.from);
};

/**
 * The fact holds now and was known not to before. A record seen for the first
 * time counts when it was created inside the window (it came from nothing), or
 * when `seenFirstWhen` tells from its own timestamps that it happened inside it.
 */
export const became =
	(fact: Fact, seenFirstWhen?: (change: Change) => boolean) =>
	(change: Change): boolean => {
		if (fact(change.now) !== true) return false;
		if (change.before === null) return change.created || (seenFirstWhen?.(change) ?? false);
		return fact(change.before) === false;
	};

/** A field's value before: a created record had none (`empty`); one first seen otherwise is unknown. */
const valueBefore = (change: Change, field: string, empty: WatchedValue) =>
	change.before === null ? (change.created ? empty : undefined) : change.before[field];

/** An entry of a named list (tags, inspectors) whose id was not there before. */
export const addedTo = (field: string) => (change: Change) => {
	const before = valueBefore(change, field, []);
	return before !== undefined && missingKeys(change.now[field], before).length > 0;
};

/** An entry of a named list whose id is no longer there. */
export const removedFrom = (field: string) => (change: Change) => {
	const before = valueBefore(change, field, []);
	return (
		before !== undefined &&
		change.now[field] !== undefined &&
		missingKeys(before, change.now[field]).length > 0
	);
};

/** A text entry (a role) that was not there before. */
export const newIn = (field: string) => (change: Change) => {
	const before = valueBefore(change, field, []);
	return before !== undefined && newEntries(before, change.now[field]).length > 0;
};

/** A field known in both versions with another value (lists: other ids). */
export const differs = (field: string, compare?: 'ids') => (change: Change) => {
	const before = change.before?.[field];
	const now = change.now[field];
	if (before === undefined || now === undefined) return false;
	if (compare === 'ids')
		return missingKeys(before, now).length + missingKeys(now, before).length > 0;
	return before !== now;
};

/** The scheduled time moved: both versions have one, and they differ. */
export const rescheduled = (change: Change) =>
	typeof change.before?.scheduled_for === 'number' &&
	typeof change.now.scheduled_for === 'number' &&
	change.before.scheduled_for !== change.now.scheduled_for;

/** Seen for the first time. */
export const firstSeen = (change: Change) => change.before === null;
