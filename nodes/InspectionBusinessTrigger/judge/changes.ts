/**
 * An item's `changes`: the watched fields of a resource, each with its value
 * before and after, in the API's own field names (the docs' table of watched
 * fields is made from WATCHED_FIELDS by scripts/events-doc.ts). Lists add the
 * entries `added` and `removed`, by id; a list held cut (past 32 entries) says
 * so with `cut: true`, and its `added` is empty (the trigger cannot tell).
 */
import type { IDataObject } from 'n8n-workflow';

import { addedTo, listChanged, removedFrom } from '../catalog';
import type {
	AnyMemory,
	HeldList,
	HeldResource,
	InspectionMemory,
	MemoryOf,
	Named,
	Service,
} from '../memory';
import { serviceId } from '../memory';

/** A value as `changes` shows it. */
type Shown = IDataObject[string];

interface WatchedField<M> {
	/** The field's path in the API's record: its key in `changes`. */
	name: string;
	/** The value as `changes` shows it. */
	of: (memory: M) => Shown;
	/** A list: its entries are compared by id, and `added` and `removed` are shown. */
	list?: {
		of: (memory: M) => HeldList<unknown>;
		idOf: (entry: never) => string;
		show: (entries: never[]) => Shown;
	};
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const money = (cents: number | null) => (cents === null ? null : cents / 100);
const plain = (entries: Named[]) => entries.map(({ id, name }) => ({ id, name }));
const byKind = (entries: Service[]) => ({
	services: plain(entries.filter((s) => s.kind === 'service')),
	add_ons: plain(entries.filter((s) => s.kind === 'add_on')),
});
const named = <M>(name: string, of: (m: M) => HeldList<Named>): WatchedField<M> => ({
	name,
	of: (m) => plain(of(m).entries),
	list: { of, idOf: ((n: Named) => n.id) as never, show: plain as never },
});
const texts = <M>(name: string, of: (m: M) => HeldList<string>): WatchedField<M> => ({
	name,
	of: (m) => of(m).entries,
	list: { of, idOf: ((t: string) => t) as never, show: ((t: string[]) => t) as never },
});

export const WATCHED_FIELDS: { [R in HeldResource]: ReadonlyArray<WatchedField<MemoryOf<R>>> } = {
	contacts: [
		{ name: 'email', of: (m) => m.email },
		named('tags', (m) => m.tags),
		// The roles it has had: a role left out of a later version stays.
		texts('roles', (m) => m.rolesHad),
		{ name: 'agency_id', of: (m) => m.agencyId },
	],
	inspections: [
		{ name: 'status', of: (m) => m.status },
		{ name: 'reports.status', of: (m) => m.reportsStatus },
		{ name: 'deleted', of: (m) => m.facts.includes('deleted') },
		{ name: 'scheduled_for', of: (m) => iso(m.start) },
		{ name: 'price.payment_status', of: (m) => m.paymentStatus },
		{ name: 'price.amount_due', of: (m) => money(m.amountDueCents) },
		{ name: 'price.amount_paid', of: (m) => money(m.amountPaidCents) },
		named('inspectors', (m: InspectionMemory) => m.inspectors),
		{
			name: 'services',
			of: (m) => byKind(m.services.entries),
			list: { of: (m) => m.services, idOf: serviceId as never, show: byKind as never },
		},
		{ name: 'price.quote', of: (m) => money(m.quoteCents) },
	],
	events: [
		{ name: 'name', of: (m) => m.name },
		{ name: 'start_at', of: (m) => iso(m.startAt) },
		{ name: 'end_at', of: (m) => iso(m.endAt) },
		texts('inspector_ids', (m) => m.inspectorIds),
	],
	attachments: [],
};

const isEmpty = (value: unknown) =>
	value === null ||
	value === '' ||
	value === false ||
	(Array.isArray(value) && value.length === 0) ||
	(typeof value === 'object' &&
		value !== null &&
		Object.values(value).every((v) => Array.isArray(v) && v.length === 0));

/** One list field's change (`before` null: a new record), or undefined when it did not change. */
function listChange<M>(
	field: WatchedField<M>,
	before: M | null,
	after: M,
): IDataObject | undefined {
	const { of, idOf, show } = field.list!;
	const id = idOf as (entry: unknown) => string;
	const now = of(after);
	if (before === null) {
		if (now.entries.length === 0) return undefined;
		return {
			before: show([]),
			after: field.of(after),
			added: show(now.entries as never[]),
			removed: show([]),
		};
	}
	const was = of(before);
	const added = addedTo(now, was, false, id);
	const removed = removedFrom(now, was, id);
	const sameIds = was.complete
		? added.length === 0 && removed.length === 0
		: removed.length === 0 && !listChanged(now, was);
	// A renamed entry is another value; beyond the kept entries of a cut list, names are not known.
	const sameNames = JSON.stringify(field.of(before)) === JSON.stringify(field.of(after));
	if (sameIds && (sameNames || !was.complete)) return undefined;
	return {
		before: field.of(before),
		after: field.of(after),
		added: show(added as never[]),
		removed: show(removed as never[]),
		...(was.complete ? {} : { cut: true }),
	};
}

/**
 * `changes`: each watched field whose value differs, before and after.
 * `before` 'new': a new record, every watched field with a value counts as
 * changed from nothing. `before` null: nothing to compare with (a record not
 * held): null. A resource with no watched fields: null.
 */
export function changesBetween(
	resource: HeldResource,
	before: AnyMemory | null | 'new',
	after: AnyMemory,
): IDataObject | null {
	const fields = WATCHED_FIELDS[resource] as ReadonlyArray<WatchedField<AnyMemory>>;
	if (before === null || fields.length === 0) return null;
	const created = before === 'new';
	const changes: IDataObject = {};
	for (const field of fields) {
		if (field.list) {
			const change = listChange(field, created ? null : before, after);
			if (change) changes[field.name] = change;
			continue;
		}
		const now = field.of(after);
		const was = created ? null : field.of(before);
		if (created ? isEmpty(now) : was === now) continue;
		changes[field.name] = { before: was, after: now } as IDataObject;
	}
	return changes;
}
