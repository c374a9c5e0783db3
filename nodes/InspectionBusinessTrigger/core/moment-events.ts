/**
 * Which business moments one new inspection version means, by comparing its
 * watched values with the version before (the rules are in moments.ts). A
 * moment is reported when its condition became true: true now, known false
 * before. A value the trigger did not hold before (a state stored before it
 * watched it) is unknown, and an unknown never makes a moment, so an upgrade
 * reports nothing that happened long ago.
 */
import { namedOf, unpackFacts } from './moments';
import type { WatchedValue, WatchedValues } from './slots';

export const CHANGE_MOMENTS = [
	'inspection.paid',
	'inspection.agreements_signed',
	'inspection.paid_and_signed',
	'inspection.paid_signed_published',
	'inspection.inspector_assigned',
	'inspection.inspector_removed',
	'inspection.fees_changed',
] as const;
export type ChangeMoment = (typeof CHANGE_MOMENTS)[number];

interface Conditions {
	paid: boolean | undefined;
	signed: boolean | undefined;
	published: boolean | undefined;
}

const both = (a: boolean | undefined, b: boolean | undefined) =>
	a === undefined || b === undefined ? undefined : a && b;

/** What a version's values say of the conditions; a state stored before `moments` falls back on the payment status. */
function conditionsOf(values: WatchedValues): Conditions {
	const facts = unpackFacts(values.moments);
	const status = values['price.payment_status'];
	const published =
		values['reports.status'] === undefined ? undefined : values['reports.status'] === 'published';
	if (facts) return { paid: facts.paid, signed: facts.signed, published };
	return {
		paid: status === undefined ? undefined : String(status).toLowerCase() === 'paid',
		signed: undefined,
		published,
	};
}

const idsOf = (value: WatchedValue | undefined) =>
	new Set((Array.isArray(value) ? value : []).map((key) => JSON.stringify(namedOf(key).id)));
const kindIdsOf = (value: WatchedValue | undefined) =>
	new Set(
		(Array.isArray(value) ? value : []).map((key) => {
			const n = namedOf(key);
			return `${n.kind ?? ''}/${n.id}`;
		}),
	);
const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));

/**
 * `before`: the values of the version seen before, or null when the record is
 * seen for the first time; then only a record created inside the window
 * (`created`) reports its moments, as if it came from nothing.
 */
export function inspectionMoments(
	before: WatchedValues | null,
	now: WatchedValues,
	created: boolean,
): ChangeMoment[] {
	if (before === null && !created) return [];
	const is = conditionsOf(now);
	const was: Conditions =
		before === null ? { paid: false, signed: false, published: false } : conditionsOf(before);
	const moments: ChangeMoment[] = [];
	const became = (
		moment: ChangeMoment,
		nowTrue: boolean | undefined,
		wasTrue: boolean | undefined,
	) => {
		if (nowTrue === true && wasTrue === false) moments.push(moment);
	};
	became('inspection.paid', is.paid, was.paid);
	became('inspection.agreements_signed', is.signed, was.signed);
	became('inspection.paid_and_signed', both(is.paid, is.signed), both(was.paid, was.signed));
	became(
		'inspection.paid_signed_published',
		both(both(is.paid, is.signed), is.published),
		both(both(was.paid, was.signed), was.published),
	);
	const inspectorsBefore = before === null ? [] : before.inspectors;
	if (inspectorsBefore !== undefined && now.inspectors !== undefined) {
		const had = idsOf(inspectorsBefore);
		const has = idsOf(now.inspectors);
		if (!subset(has, had)) moments.push('inspection.inspector_assigned');
		if (!subset(had, has)) moments.push('inspection.inspector_removed');
	}
	// Fees change on a record seen before: a new inspection's services are not a change.
	if (before !== null) {
		const servicesChanged =
			before.services !== undefined &&
			now.services !== undefined &&
			(() => {
				const had = kindIdsOf(before.services);
				const has = kindIdsOf(now.services);
				return had.size !== has.size || !subset(has, had);
			})();
		const quoteChanged =
			before['price.quote'] !== undefined &&
			now['price.quote'] !== undefined &&
			before['price.quote'] !== now['price.quote'];
		if (servicesChanged || quoteChanged) moments.push('inspection.fees_changed');
	}
	return moments;
}
