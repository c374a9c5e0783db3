/**
 * What the trigger keeps of an inspection's business facts, in one slot of its
 * fingerprint: whether it is paid, has every agreement signed or nothing to
 * sign, and how long it lasts (the facts are defined in
 * shared/inspectionFacts.ts); and what it reported of the moments that come at
 * most once (Only Trigger Once, and Ended), with the start times it reminded
 * of (Starting). A list of whole numbers, so an inspection with nothing
 * reported yet takes two or three characters.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	allAgreementsSigned,
	hasNothingToSign,
	isPaid,
	plannedLengthMs,
} from '../../shared/inspectionFacts';
import type { WatchedValue } from './packing';

const QUARTER_HOUR = 15 * 60_000;
const MINUTE = 60_000;
/** Longer is taken for a data error; the kept length stops here. */
const MAX_LENGTH_QUARTERS = 14 * 24 * 4;
/** Start times reminded of, kept per inspection: a move back to one of them reminds no one again. */
export const MAX_REMINDED_STARTS = 3;

export interface KeptFacts {
	paid: boolean;
	signed: boolean;
	nothingToSign: boolean;
	/** How long it lasts, in quarter hours rounded up (so "ended" is never early). */
	lengthQuarters: number;
	/** The moments reported for good, one bit each (the catalog's `onceBit`). */
	reported: number;
	/** The start times (ms, whole minutes) Starting was reported for, oldest first. */
	remindedStarts: number[];
}

/** The length in quarter hours, rounded up, capped. */
export const lengthInQuarters = (record: IDataObject): number =>
	Math.min(Math.ceil(plannedLengthMs(record) / QUARTER_HOUR), MAX_LENGTH_QUARTERS);

/** [facts and length, reported bits, reminded start minutes...]; the tail is left off while empty. */
export function packFacts(facts: KeptFacts): number[] {
	const head =
		facts.lengthQuarters * 8 +
		(facts.paid ? 1 : 0) +
		(facts.signed ? 2 : 0) +
		(facts.nothingToSign ? 4 : 0);
	const starts = facts.remindedStarts.map((ms) => Math.floor(ms / MINUTE));
	if (facts.reported === 0 && starts.length === 0) return [head];
	return [head, facts.reported, ...starts];
}

/** The kept facts, or undefined when the slot is not there (a state stored before it). */
export function unpackFacts(value: WatchedValue | undefined): KeptFacts | undefined {
	if (!Array.isArray(value) || value.length === 0) return undefined;
	const [head, reported = 0, ...starts] = value.map(Number);
	if (!Number.isSafeInteger(head) || head < 0) return undefined;
	return {
		paid: (head & 1) !== 0,
		signed: (head & 2) !== 0,
		nothingToSign: (head & 4) !== 0,
		lengthQuarters: Math.floor(head / 8),
		reported: Number.isSafeInteger(reported) ? reported : 0,
		remindedStarts: starts.filter(Number.isSafeInteger).map((minutes) => minutes * MINUTE),
	};
}

/** The facts of a record as listed, with nothing reported. */
export const factsOf = (record: IDataObject): number[] =>
	packFacts({
		paid: isPaid(record),
		signed: allAgreementsSigned(record),
		nothingToSign: hasNothingToSign(record),
		lengthQuarters: lengthInQuarters(record),
		reported: 0,
		remindedStarts: [],
	});

/** `now` with what was reported of the version before carried over: a moment reported stays reported. */
export function carryReported(before: WatchedValue | undefined, now: WatchedValue): WatchedValue {
	const was = unpackFacts(before);
	const is = unpackFacts(now);
	if (!was || !is) return now;
	return packFacts({ ...is, reported: was.reported, remindedStarts: was.remindedStarts });
}

/** `value` with the moments of `bits` marked reported, and `start` (ms) as reminded. */
export function markReported(value: WatchedValue, bits: number, start?: number): WatchedValue {
	const facts = unpackFacts(value);
	if (!facts) return value;
	const starts = facts.remindedStarts.filter((ms) => start === undefined || !sameMinute(ms, start));
	if (start !== undefined) starts.push(start);
	return packFacts({
		...facts,
		reported: facts.reported | bits,
		remindedStarts: starts.slice(-MAX_REMINDED_STARTS),
	});
}

export const sameMinute = (a: number, b: number) =>
	Math.floor(a / MINUTE) === Math.floor(b / MINUTE);
