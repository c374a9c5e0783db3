/**
 * What an inspection's fields mean to the business, each fact written once:
 * paid (or nothing to pay), agreements signed (or nothing to sign), reports
 * published, canceled, deleted, confirmed, how long it lasts, money in cents,
 * and how the API's times read. The
 * action node's Simplify and the polling trigger's events both read them here,
 * so neither node imports the other. Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

/** A record's object field, or an empty one when it is missing or not an object. */
export const child = (record: IDataObject, name: string) =>
	(typeof record[name] === 'object' && record[name] !== null ? record[name] : {}) as IDataObject;

/** A date-time with no offset: hours and minutes, optional seconds and fraction, nothing after. */
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/**
 * A time the API sent, in ms; null when it is not a time. The contract says
 * every timestamp in a response is UTC, so one that comes without an offset is
 * read as UTC too, never in the n8n server's local time.
 */
export function apiTime(value: unknown): number | null {
	if (typeof value !== 'string' || value === '') return null;
	const ms = Date.parse(WITHOUT_OFFSET.test(value) ? `${value}Z` : value);
	return Number.isNaN(ms) ? null : ms;
}

/** The inspection statuses a fact names (the contract lists draft, waiting, review, confirmed, canceled). */
export const isConfirmedStatus = (status: unknown) => status === 'confirmed';
export const isCanceledStatus = (status: unknown) => status === 'canceled';
/** `deleted` is true only for a deleted inspection listed with include_deleted. */
export const isDeletedFlag = (deleted: unknown) => deleted === true;

/** How many of the inspection's reports (`reports.items`) are published. */
export function publishedReportCount(record: IDataObject): number {
	const items = child(record, 'reports').items;
	return (Array.isArray(items) ? items : []).filter(
		(item) =>
			typeof item === 'object' && item !== null && (item as IDataObject).status === 'published',
	).length;
}

/**
 * How far the reports status says publication went: 0 none, 1 some (`partial`), 2 all
 * (`published`). An inspection whose reports the API does not itemise shows its publication so.
 */
export const reportsStatusRank = (reportsStatus: unknown): number =>
	reportsStatus === 'published' ? 2 : reportsStatus === 'partial' ? 1 : 0;

/** At least one report is published: a report item published, or the status says some are. */
export const someReportPublished = (publishedReports: number, reportsStatus: unknown): boolean =>
	publishedReports > 0 || reportsStatusRank(reportsStatus) > 0;

/** An amount of money in whole cents, so 425.1 and 425.09999999999997 are the same; null when not a number. */
export const cents = (amount: unknown): number | null =>
	typeof amount === 'number' && Number.isFinite(amount) ? Math.round(amount * 100) : null;

/**
 * Fully paid: `price.paid` is true. The API documents `paid` as a boolean; only
 * when it is missing do the other payment fields decide: `payment_status`
 * "paid", or nothing left due (`amount_due` 0) after a payment (`amount_paid`
 * above 0). A partial payment (something still due) is never paid.
 */
export function isPaid(record: IDataObject): boolean {
	const price = child(record, 'price');
	if (typeof price.paid === 'boolean') return price.paid;
	if (typeof price.payment_status === 'string') return isPaidStatus(price.payment_status);
	return price.amount_due === 0 && typeof price.amount_paid === 'number' && price.amount_paid > 0;
}

/**
 * Nothing to pay: the quote is 0 and nothing is due (a warranty call, a free
 * re-inspection). It is never "paid" itself; for a gate that waits on the
 * payment (paid and signed) it counts as paid.
 */
export function hasNothingToPay(record: IDataObject): boolean {
	const price = child(record, 'price');
	return cents(price.quote) === 0 && (cents(price.amount_due) ?? 0) === 0;
}

/** A payment status that says fully paid (any case); what decides when `price.paid` is missing. */
export const isPaidStatus = (paymentStatus: unknown) =>
	typeof paymentStatus === 'string' && paymentStatus.toLowerCase() === 'paid';

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

/**
 * Nothing to sign: the inspection has no agreements (`agreements.present`
 * false). For a gate that waits on signatures (paid and signed), nothing to
 * sign counts as signed; it is never "agreements signed" itself.
 */
export const hasNothingToSign = (record: IDataObject) =>
	child(record, 'agreements').present === false;

/**
 * How long the inspection is planned to last, in ms: `ends_at` minus
 * `scheduled_for`, else `duration_hours`, else 0 (it ends when it starts).
 */
export function plannedLengthMs(record: IDataObject): number {
	const start = apiTime(record.scheduled_for);
	const end = apiTime(record.ends_at);
	let ms = 0;
	if (start !== null && end !== null) ms = end - start;
	else if (typeof record.duration_hours === 'number') ms = record.duration_hours * 3_600_000;
	return ms > 0 ? ms : 0;
}
