/**
 * The business moments of an inspection and a contact: one rule per moment,
 * read from a record by itself (used by the poll's derived events and by Fetch
 * Test Event) and compared between two versions the trigger saw. Pure: no n8n,
 * no HTTP. docs/polling-trigger.md gives each rule in words.
 */
import type { IDataObject } from 'n8n-workflow';

import type { WatchedValue, WatchedValues } from './slots';

/** A record's object field, or an empty one when it is missing or not an object. */
export const child = (record: IDataObject, name: string) =>
	(typeof record[name] === 'object' && record[name] !== null ? record[name] : {}) as IDataObject;

/**
 * Fully paid: `price.paid` is true. The API documents `paid` as a boolean; only
 * when it is missing do the other payment fields decide: `payment_status`
 * "paid", or nothing left due (`amount_due` 0) after a payment (`amount_paid`
 * above 0). A partial payment (something still due) is never paid.
 */
export function isPaid(record: IDataObject): boolean {
	const price = child(record, 'price');
	if (typeof price.paid === 'boolean') return price.paid;
	if (typeof price.payment_status === 'string')
		return price.payment_status.toLowerCase() === 'paid';
	return price.amount_due === 0 && typeof price.amount_paid === 'number' && price.amount_paid > 0;
}

const itemSigned = (item: unknown) => {
	if (typeof item !== 'object' || item === null) return false;
	const { status, signed_at: signedAt } = item as IDataObject;
	return (typeof signedAt === 'string' && signedAt !== '') || status === 'signed';
};

/**
 * Every agreement signed: the inspection has agreements (`agreements.present`
 * not false), `agreements.all_signed` is true, and no listed item lacks its
 * signature (`signed_at` or status "signed"). One signed agreement of several
 * is not "signed"; an inspection without agreements never is.
 */
export function allAgreementsSigned(record: IDataObject): boolean {
	const agreements = child(record, 'agreements');
	if (agreements.present === false || agreements.all_signed !== true) return false;
	const items = Array.isArray(agreements.items) ? agreements.items : [];
	return items.every(itemSigned);
}

/** The report is published: the reports status (the aggregate of its reports) is "published". */
export const isPublished = (record: IDataObject) => child(record, 'reports').status === 'published';

/** Canceled or deleted: no time-based moment is ever reported for it. */
export const isCanceledOrDeleted = (record: IDataObject) =>
	record.status === 'canceled' || record.deleted === true;

const QUARTER_HOUR = 15 * 60_000;
/** Longer is taken for a data error; the stored length is capped here. */
const MAX_LENGTH_QUARTERS = 14 * 24 * 4;

/**
 * How long the inspection lasts, in quarter hours, rounded up (so "ended" is
 * never early): `ends_at` minus `scheduled_for`, else `duration_hours`, else 0
 * (it ends when it starts).
 */
export function lengthInQuarters(record: IDataObject): number {
	const start = typeof record.scheduled_for === 'string' ? Date.parse(record.scheduled_for) : NaN;
	const end = typeof record.ends_at === 'string' ? Date.parse(record.ends_at) : NaN;
	let ms = 0;
	if (!Number.isNaN(start) && !Number.isNaN(end)) ms = end - start;
	else if (typeof record.duration_hours === 'number') ms = record.duration_hours * 3_600_000;
	if (!(ms > 0)) return 0;
	return Math.min(Math.ceil(ms / QUARTER_HOUR), MAX_LENGTH_QUARTERS);
}

/**
 * The `moments` watched value: one small number holding the facts the moments
 * compare, so the state spends one slot on them. Bits: paid (1), every
 * agreement signed (2), "starting" reported for this schedule (4), "ended"
 * reported for it (8); above them the length in quarter hours.
 */
export interface MomentFacts {
	paid: boolean;
	signed: boolean;
	startingReported: boolean;
	endedReported: boolean;
	lengthQuarters: number;
}

export const packFacts = (f: MomentFacts): number =>
	f.lengthQuarters * 16 +
	(f.paid ? 1 : 0) +
	(f.signed ? 2 : 0) +
	(f.startingReported ? 4 : 0) +
	(f.endedReported ? 8 : 0);

export function unpackFacts(value: WatchedValue | undefined): MomentFacts | undefined {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return undefined;
	return {
		paid: (value & 1) !== 0,
		signed: (value & 2) !== 0,
		startingReported: (value & 4) !== 0,
		endedReported: (value & 8) !== 0,
		lengthQuarters: Math.floor(value / 16),
	};
}

/** The facts of a record as listed: nothing reported yet. */
export const factsOf = (record: IDataObject): number =>
	packFacts({
		paid: isPaid(record),
		signed: allAgreementsSigned(record),
		startingReported: false,
		endedReported: false,
		lengthQuarters: lengthInQuarters(record),
	});

/**
 * A new version keeps what was reported of its time-based moments while its
 * schedule (start and length) stays; a moved schedule is a new moment.
 */
export function carryReported(before: WatchedValues | undefined, now: WatchedValues): void {
	const was = unpackFacts(before?.moments);
	const is = unpackFacts(now.moments);
	if (!was || !is) return;
	const sameSchedule =
		before?.scheduled_for === now.scheduled_for && was.lengthQuarters === is.lengthQuarters;
	if (!sameSchedule) return;
	now.moments = packFacts({
		...is,
		startingReported: was.startingReported,
		endedReported: was.endedReported,
	});
}

/** Inspectors, services and add-ons are held as the JSON of [id, name] (services and add-ons tagged by kind). */
export const namedKeys = (value: unknown, kind?: string): string[] =>
	Array.isArray(value)
		? value
				.filter((v): v is IDataObject => typeof v === 'object' && v !== null && v.id != null)
				.map((v) =>
					JSON.stringify(
						kind === undefined
							? [String(v.id), v.name ?? null]
							: [kind, String(v.id), v.name ?? null],
					),
				)
				.sort()
		: [];

export interface Named {
	id: string;
	name: string | null;
}

export function namedOf(key: string): Named & { kind?: string } {
	const parts = JSON.parse(key) as Array<string | null>;
	if (parts.length === 3)
		return { kind: parts[0] ?? '', id: String(parts[1]), name: parts[2] ?? null };
	return { id: String(parts[0]), name: parts[1] ?? null };
}

/** The keys of `a` whose id (and kind) is not in `b`. */
export function missingKeys(a: WatchedValue | undefined, b: WatchedValue | undefined): string[] {
	const idOf = (key: string) => {
		const n = namedOf(key);
		return `${n.kind ?? ''}/${n.id}`;
	};
	const ids = new Set((Array.isArray(b) ? b : []).map(idOf));
	return (Array.isArray(a) ? a : []).filter((key) => !ids.has(idOf(key)));
}

/** Inspectors added and removed, by id, for `changes.inspectors`. */
export const inspectorsDiff = (before: WatchedValue | undefined, after: WatchedValue) => ({
	added: missingKeys(after, before).map(namedOf),
	removed: missingKeys(before, after).map(namedOf),
});

/** The services and add-ons of a record as the `services` watched value. */
export const serviceKeys = (record: IDataObject): string[] =>
	[...namedKeys(record.services, 's'), ...namedKeys(record.add_ons, 'a')].sort();

/** `changes.services` / `changes.add_ons` as users read them: lists of {id, name}, split by kind. */
export function showServices(value: WatchedValue): IDataObject {
	const all = (Array.isArray(value) ? value : []).map(namedOf);
	const strip = ({ id, name }: Named) => ({ id, name });
	return {
		services: all.filter((n) => n.kind === 's').map(strip),
		add_ons: all.filter((n) => n.kind === 'a').map(strip),
	};
}

/** Services and add-ons added and removed, by id, for `changes.services`. */
export const servicesDiff = (before: WatchedValue | undefined, after: WatchedValue) => ({
	added: showServices(missingKeys(after, before)),
	removed: showServices(missingKeys(before, after)),
});

/** Roles a contact has now that the version before did not: the roles are the distinct roles it ever had. */
export function newRoles(
	before: WatchedValue | undefined,
	now: WatchedValue | undefined,
): string[] {
	if (!Array.isArray(now)) return [];
	const had = new Set(Array.isArray(before) ? before : []);
	return now.filter((role) => !had.has(role));
}
