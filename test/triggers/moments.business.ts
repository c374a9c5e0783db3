/**
 * An inspection business in memory, for the moments' model test (moments.model.test.ts): its
 * records change as the business tools would change them (a booking, a payment, a signature, a
 * report published, a tag…), each change stamped by the API's clock, and it answers the polling
 * trigger's list requests as the API does (../shared/spec/api-v1.md and the project's
 * assumptions): `updated_since` inclusive, contacts and inspections sorted by `updated_at` (ties
 * by id), canceled and deleted inspections only when asked for, appointments in id order,
 * attachments newest first without those of deleted inspections, `ids=` lookups, offset cursors.
 * Every change is listed at once (no commit lag: the walk's own lag is tested elsewhere).
 *
 * Times: the clock starts half a second past a whole second and moves in whole seconds, so a poll
 * or a change never falls exactly on a scheduled time, a quarter hour or a moment's time.
 */
import type { IDataObject } from 'n8n-workflow';

import type {
	ListPage,
	ListRequest,
	ListSource,
} from '../../nodes/InspectionBusinessTrigger/poll/types';
import { type Resource, recordId } from './moments.model';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
export const uuid = (prefix: number, n: number) =>
	`${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const INSPECTORS = ['Alex Rivera', 'Sam Lee', 'Jo Park', 'Kim Diaz'].map((name, i) => ({
	id: uuid(0x1, i + 1),
	name,
}));
export const SERVICES = ['Full Home Inspection', 'Pre-Listing', 'New Construction'].map(
	(name, i) => ({ id: uuid(0x2, i + 1), name }),
);
/** Add-ons and their prices: 25.1 and 0.1 make float sums like 425.09999999999997. */
export const ADD_ONS = [
	{ id: uuid(0x3, 1), name: 'Radon', price: 25.1 },
	{ id: uuid(0x3, 2), name: 'Sewer Scope', price: 150 },
	{ id: uuid(0x3, 3), name: 'Mold', price: 0.1 },
	{ id: uuid(0x3, 4), name: 'Pool', price: 75.55 },
];
/** Tags sorted by id and by name alike, so "the first 32" is the same whichever way it is read. */
export const TAGS = Array.from({ length: 48 }, (_, i) => ({
	id: uuid(0x4, i + 1),
	name: `Tag ${String(i + 1).padStart(2, '0')}`,
}));
export const ROLES = [
	'Customer',
	'Buyer Agent',
	'Listing Agent',
	'Lender',
	'Title Company',
	'Transaction Coordinator',
];

/** How a booking's price says it is paid: the API's boolean, or (older data) without it. */
export type PaidStyle = 'boolean' | 'status' | 'amounts';

export interface Booking {
	status: 'draft' | 'waiting' | 'review' | 'confirmed' | 'canceled';
	/** Hours from now to the scheduled time, null: no time. */
	inHours: number | null;
	/** The start is on a grid of this many minutes (15: any quarter hour; 180: a morning slot…). */
	slotMinutes: number;
	/** Minutes past the grid (a start off it). */
	offGrid: number;
	duration: number | null;
	/** An explicit ends_at, this many minutes past start plus duration. */
	endsAtExtra: number | null;
	quote: number;
	paid: 'no' | 'part' | 'full';
	paidStyle: PaidStyle;
	agreements: number;
	signed: 'none' | 'one' | 'all';
	reports: 'na' | 'status' | 'one' | 'two';
	published: 'none' | 'some' | 'all';
	inspectors: number;
	addOn: boolean;
	/** A canceled booking whose `confirmed` flag says it had been confirmed (the status decides). */
	flaggedConfirmed: boolean;
}

export interface NewContact {
	tags: number;
	roles: number;
}

/** A change to one existing record; `arg` picks among a change's variants. */
export const INSPECTION_CHANGES = [
	'confirm',
	'unconfirm',
	'move',
	'moveBack',
	'unschedule',
	'length',
	'cancel',
	'return',
	'delete',
	'restore',
	'payFull',
	'payPart',
	'refund',
	'addOn',
	'removeAddOn',
	'quantity',
	'service',
	'quoteCent',
	'quoteNoise',
	'quoteNull',
	'sign',
	'signAll',
	'addendum',
	'noAgreements',
	'syncAllSigned',
	'publish',
	'publishAll',
	'unpublish',
	'fixReport',
	'addReport',
	'assign',
	'unassign',
	'renameInspector',
	'touch',
	'reformatTime',
] as const;
export type InspectionChangeKind = (typeof INSPECTION_CHANGES)[number];

export const CONTACT_CHANGES = [
	'tagAdd',
	'tagRemove',
	'tagRename',
	'tagsMany',
	'tagsFew',
	'roleAdd',
	'roleDrop',
	'roleRegain',
	'touch',
] as const;
export type ContactChangeKind = (typeof CONTACT_CHANGES)[number];

export const APPOINTMENT_CHANGES = ['move', 'rename', 'assign', 'touch', 'remove'] as const;
export type AppointmentChangeKind = (typeof APPOINTMENT_CHANGES)[number];

type Records = Record<Resource, Map<string, IDataObject>>;

export class Business implements ListSource {
	now = Date.parse('2030-03-01T08:00:00.500Z');
	private readonly records: Records = {
		contacts: new Map(),
		inspections: new Map(),
		events: new Map(),
		attachments: new Map(),
	};
	/** The business's own notes: each inspection's earlier times, a quote taken away, roles left out. */
	private readonly earlierTimes = new Map<string, number[]>();
	private readonly quoteAway = new Map<string, number>();
	private readonly rolesLeftOut = new Map<string, string[]>();
	private next = 1;

	// --- the API ------------------------------------------------------------------------------

	async fetch(request: ListRequest): Promise<ListPage> {
		const { resource, query, cursor } = request;
		let records = this.listed(
			resource,
			query.include_canceled === true,
			query.include_deleted === true,
		);
		if (typeof query.ids === 'string') {
			const ids = new Set(query.ids.split(','));
			// ids= also returns canceled inspections (deleted ones with include_deleted).
			records = this.listed(resource, true, query.include_deleted === true).filter((r) =>
				ids.has(String(r.id)),
			);
		}
		if (typeof query.updated_since === 'string') {
			const since = Date.parse(query.updated_since);
			records = records.filter((r) => Date.parse(String(r.updated_at)) >= since);
		}
		const byId = (a: IDataObject, b: IDataObject) =>
			recordId(resource, a) < recordId(resource, b) ? -1 : 1;
		const changed = (r: IDataObject) => Date.parse(String(r.updated_at));
		if (resource === 'attachments') records.sort((a, b) => changed(b) - changed(a) || byId(a, b));
		else if (query.sort === 'updated_at')
			records.sort((a, b) => changed(a) - changed(b) || byId(a, b));
		else if (query.sort === '-updated_at')
			records.sort((a, b) => changed(b) - changed(a) || byId(a, b));
		else records.sort(byId);
		const start = cursor === null ? 0 : Number(cursor);
		const limit = Number(query.limit ?? 50);
		const page = records.slice(start, start + limit);
		const end = start + page.length;
		return {
			records: structuredClone(page),
			nextCursor: end < records.length ? String(end) : null,
			serverTime: this.now,
		};
	}

	/** What a list shows now; the model reads the trigger's lists (canceled and deleted included). */
	listed(resource: Resource, includeCanceled = true, includeDeleted = true): IDataObject[] {
		const all = [...this.records[resource].values()];
		if (resource === 'inspections')
			return all.filter(
				(r) =>
					(includeCanceled || r.status !== 'canceled') && (includeDeleted || r.deleted !== true),
			);
		if (resource === 'attachments')
			return all.filter(
				(r) => this.records.inspections.get(String(r.inspection_id))?.deleted !== true,
			);
		return all;
	}

	count(resource: Resource): number {
		return this.records[resource].size;
	}

	/** The id of the `pick`-th newest record of a resource (modulo the count), if any. */
	pick(resource: Resource, pick: number): string | undefined {
		const ids = [...this.records[resource].keys()];
		return ids.length === 0 ? undefined : ids[ids.length - 1 - (pick % ids.length)];
	}

	private change(resource: Resource, id: string, apply: (r: IDataObject) => void): void {
		const record = this.records[resource].get(id)!;
		apply(record);
		record.updated_at = iso(this.now);
	}

	// --- inspections ----------------------------------------------------------------------------

	book(b: Booking): string {
		const id = uuid(0x10, this.next++);
		const start =
			b.inHours === null
				? null
				: Math.floor((this.now + b.inHours * HOUR) / (b.slotMinutes * MINUTE)) *
						b.slotMinutes *
						MINUTE +
					b.offGrid * MINUTE;
		const items = Array.from({ length: b.agreements }, (_, i) => ({
			name: i === 0 ? 'Pre-Inspection Agreement' : 'Addendum',
			status: 'sent',
			signed_at: null as string | null,
		}));
		const record: IDataObject = {
			id,
			status: b.status,
			confirmed: b.status === 'confirmed' || (b.status === 'canceled' && b.flaggedConfirmed),
			scheduled_for: start === null ? null : iso(start),
			duration_hours: b.duration,
			ends_at:
				start === null || b.endsAtExtra === null
					? null
					: iso(start + (b.duration ?? 0) * HOUR + b.endsAtExtra * MINUTE),
			created_at: iso(this.now),
			updated_at: iso(this.now),
			canceled_at: b.status === 'canceled' ? iso(this.now) : null,
			services: [{ ...SERVICES[0] }],
			add_ons: [],
			inspectors: INSPECTORS.slice(0, b.inspectors).map((i) => ({ ...i })),
			price: {
				quote: b.quote,
				amount_paid: 0,
				amount_due: b.quote,
				payment_status: 'unpaid',
				paid: false,
			},
			agreements: { present: b.agreements > 0, all_signed: false, items },
			reports: {
				status: b.reports === 'na' ? 'na' : 'pending',
				items: Array.from(
					{ length: b.reports === 'one' ? 1 : b.reports === 'two' ? 2 : 0 },
					(_, i) => ({
						id: `report-${i + 1}`,
						name: i === 0 ? 'Home Inspection Report' : 'Radon Report',
						status: 'draft',
					}),
				),
			},
			notes: null,
			deleted: false,
			deleted_at: null,
		};
		if (b.paidStyle !== 'boolean') delete (record.price as IDataObject).paid;
		if (b.paidStyle === 'amounts') (record.price as IDataObject).payment_status = null;
		this.records.inspections.set(id, record);
		if (b.addOn) addAddOn(record, ADD_ONS[0]);
		if (b.paid !== 'no') pay(record, b.paid === 'full' ? 1 : 0.5);
		// A $0 booking the API calls paid: still nothing to pay, never Paid.
		if (b.quote === 0 && b.paid !== 'no' && b.paidStyle === 'boolean')
			Object.assign(record.price as IDataObject, { paid: true, payment_status: 'paid' });
		if (b.signed !== 'none') signAgreements(record, b.signed === 'all' ? 'all' : 0, 2);
		if (b.published !== 'none') publishReports(record, b.published === 'all' ? 'all' : 0);
		if (start !== null) this.earlierTimes.set(id, [start]);
		return id;
	}

	/** One change to an inspection; `arg` picks the variant. */
	changeInspection(id: string, kind: InspectionChangeKind, arg: number): void {
		const hasAttachments = [...this.records.attachments.values()].some(
			(a) => a.inspection_id === id,
		);
		this.change('inspections', id, (r) => {
			const price = r.price as IDataObject;
			// A quote taken away comes back with the next price change.
			if (price.quote === null && PRICE_CHANGES.has(kind)) this.giveQuoteBack(id, r, 0);
			switch (kind) {
				case 'confirm':
					// Confirmed already: back to waiting (a booking re-opened), so the fact comes and goes.
					if (r.status === 'confirmed') Object.assign(r, { status: 'waiting', confirmed: false });
					else if (r.status !== 'canceled')
						Object.assign(r, { status: 'confirmed', confirmed: true });
					return;
				case 'unconfirm':
					if (r.status !== 'canceled')
						Object.assign(r, { status: ['waiting', 'review', 'draft'][arg % 3], confirmed: false });
					return;
				case 'move':
					return this.move(id, r, arg);
				case 'moveBack':
					return this.moveBack(id, r, arg);
				case 'unschedule':
					return Object.assign(r, { scheduled_for: null, ends_at: null });
				case 'length':
					return setLength(r, [1.5, 2, 3, 4.25][arg % 4], arg % 3 === 0 ? 10 : null);
				case 'cancel':
					// The `confirmed` flag may keep saying the booking had been confirmed: the status decides.
					if (r.status !== 'canceled')
						Object.assign(r, {
							status: 'canceled',
							confirmed: arg % 2 === 1 && r.confirmed === true,
							canceled_at: iso(this.now),
						});
					return;
				case 'return':
					if (r.status === 'canceled')
						Object.assign(r, {
							status: arg % 2 === 0 ? 'confirmed' : 'waiting',
							confirmed: arg % 2 === 0,
							canceled_at: null,
						});
					return;
				case 'delete':
					if (r.deleted !== true) Object.assign(r, { deleted: true, deleted_at: iso(this.now) });
					return;
				case 'restore':
					// Restored attachments would come back with their old dates: not part of these histories.
					if (!hasAttachments) Object.assign(r, { deleted: false, deleted_at: null });
					return;
				case 'payFull':
					// Paid already: refunded, so the fact comes and goes.
					return (r.price as IDataObject).amount_due === 0
						? refund(r, 0)
						: pay(r, 1, arg % 4 === 3);
				case 'payPart':
					return pay(r, 0.5);
				case 'refund':
					return refund(r, arg % 2 === 0 ? 0 : 0.5);
				case 'addOn': {
					const onIt = (r.add_ons as IDataObject[]).map((a) => a.id);
					const addOn = ADD_ONS.filter((a) => !onIt.includes(a.id))[arg % ADD_ONS.length];
					if (addOn) addAddOn(r, addOn, arg % 3 === 2);
					return;
				}
				case 'removeAddOn':
					return removeAddOn(r, arg);
				case 'quantity':
					return changeQuantity(r, arg % 2 === 0);
				case 'service':
					return toggleService(r, arg);
				case 'quoteCent':
					return movePrice(r, arg % 2 === 0 ? 0.01 : -0.01);
				case 'quoteNoise':
					return reprice(r, sameCentsNoisy(price.quote as number | null, arg));
				case 'quoteNull':
					// A quote briefly null (not on a $0 booking: nothing to pay then reads the quote).
					if (typeof price.quote === 'number' && price.quote !== 0) {
						this.quoteAway.set(id, price.quote);
						price.quote = null;
					} else if (price.quote === null) this.giveQuoteBack(id, r, arg);
					return;
				case 'sign':
					return signAgreements(r, arg, arg);
				case 'signAll':
					// Signed already: an addendum comes, so the fact comes and goes.
					return (r.agreements as IDataObject).all_signed === true
						? addAddendum(r, false)
						: signAgreements(r, 'all', arg);
				case 'addendum':
					return addAddendum(r, arg % 4 === 3);
				case 'noAgreements':
					return Object.assign(r, { agreements: { present: false, all_signed: false, items: [] } });
				case 'syncAllSigned':
					return syncAllSigned(r);
				case 'publish':
					return publishReports(r, arg, arg % 5 === 4);
				case 'publishAll':
					// All out already: one is taken back, so the fact comes and goes.
					return (r.reports as IDataObject).status === 'published'
						? unpublishReport(r, arg)
						: publishReports(r, 'all', arg % 5 === 4);
				case 'unpublish':
					return unpublishReport(r, arg);
				case 'fixReport':
					return fixReport(r);
				case 'addReport':
					return addReport(r);
				case 'assign':
				case 'unassign':
				case 'renameInspector':
					return changeInspectors(r, kind, arg);
				case 'touch':
					return Object.assign(r, { notes: `note at ${iso(this.now)}` });
				case 'reformatTime':
					return reformatTime(r, arg);
			}
		});
	}

	/** To another day or time: later, earlier, or (from no time, or now and then) to the days ahead. */
	private move(id: string, r: IDataObject, arg: number): void {
		const from = apiTime(r.scheduled_for);
		const steps = [DAY, 2 * HOUR, 45 * MINUTE, 3 * DAY, -DAY, -3 * HOUR];
		const ahead = Math.ceil((this.now + (arg % 40) * HOUR) / (15 * MINUTE)) * 15 * MINUTE;
		this.setTime(id, r, from === null || arg % 8 === 7 ? ahead : from + steps[arg % steps.length]);
	}

	/** Back to an earlier time of this inspection: the last one, or one before it. */
	private moveBack(id: string, r: IDataObject, arg: number): void {
		const now = apiTime(r.scheduled_for);
		const earlier = (this.earlierTimes.get(id) ?? []).filter((t) => t !== now);
		if (earlier.length === 0) return;
		this.setTime(id, r, earlier[earlier.length - 1 - (arg % earlier.length)]);
	}

	private setTime(id: string, r: IDataObject, to: number): void {
		const from = apiTime(r.scheduled_for);
		const endsAt = apiTime(r.ends_at);
		r.scheduled_for = iso(to);
		r.ends_at = endsAt === null || from === null ? null : iso(to + (endsAt - from));
		const times = this.earlierTimes.get(id) ?? [];
		this.earlierTimes.set(id, [...times.filter((t) => t !== to), to]);
	}

	private giveQuoteBack(id: string, r: IDataObject, arg: number): void {
		const quote = this.quoteAway.get(id) ?? 100;
		reprice(r, arg % 2 === 0 ? quote : round2(quote + 10));
	}

	// --- contacts -------------------------------------------------------------------------------

	newContact(c: NewContact): string {
		const id = uuid(0x20, this.next++);
		this.records.contacts.set(id, {
			id,
			first_name: `Client ${this.next}`,
			email: `client${this.next}@example.com`,
			phone: null,
			tags: TAGS.slice(0, c.tags).map((t) => ({ ...t })),
			roles: ROLES.slice(0, c.roles),
			created_at: iso(this.now),
			updated_at: iso(this.now),
		});
		return id;
	}

	changeContact(id: string, kind: ContactChangeKind, arg: number): void {
		this.change('contacts', id, (r) => {
			const tags = r.tags as IDataObject[];
			const roles = r.roles as string[];
			const onIt = new Set(tags.map((t) => t.id));
			const sorted = (list: IDataObject[]) =>
				list.sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
			switch (kind) {
				case 'tagAdd': {
					const free = TAGS.filter((t) => !onIt.has(t.id));
					if (free.length > 0) r.tags = sorted([...tags, { ...free[arg % free.length] }]);
					return;
				}
				case 'tagRemove':
					if (tags.length > 0) tags.splice(arg % tags.length, 1);
					return;
				case 'tagRename':
					// A tag renamed (in the business tools): the same id, another name.
					if (tags.length > 0) tags[arg % tags.length].name += ' (renamed)';
					return;
				case 'tagsMany':
					// Past 32: the rest is held as a count and a hash.
					r.tags = sorted(
						[...tags, ...TAGS.filter((t) => !onIt.has(t.id))]
							.slice(0, 33 + (arg % 8))
							.map((t) => ({ ...t })),
					);
					return;
				case 'tagsFew':
					r.tags = tags.slice(0, arg % 3);
					return;
				case 'roleAdd': {
					const left = this.rolesLeftOut.get(id) ?? [];
					const free = ROLES.filter((role) => !roles.includes(role) && !left.includes(role));
					if (free.length > 0) roles.push(free[arg % free.length]);
					return;
				}
				case 'roleDrop':
					// The API lists the roles a contact has had; one may still be left out of a version.
					if (roles.length > 0) {
						const [role] = roles.splice(arg % roles.length, 1);
						this.rolesLeftOut.set(id, [...(this.rolesLeftOut.get(id) ?? []), role]);
					}
					return;
				case 'roleRegain': {
					const left = this.rolesLeftOut.get(id) ?? [];
					if (left.length > 0) {
						const [role] = left.splice(arg % left.length, 1);
						roles.push(role);
					}
					return;
				}
				case 'touch':
					r.phone = `555-01${String(arg % 100).padStart(2, '0')}`;
					return;
			}
		});
	}

	// --- appointments and attachments ---------------------------------------------------------

	newAppointment(inspectionPick: number, withCreatedAt: boolean): void {
		const inspection = this.pick('inspections', inspectionPick);
		if (inspection === undefined) return;
		const id = uuid(0x30, this.next++);
		this.records.events.set(id, {
			id,
			name: 'Drop-off',
			inspection_id: inspection,
			start_at: iso(this.now + 2 * DAY),
			end_at: null,
			inspector_ids: [],
			created_at: withCreatedAt ? iso(this.now) : null,
			updated_at: iso(this.now),
		});
	}

	changeAppointment(id: string, kind: AppointmentChangeKind, arg: number): void {
		if (kind === 'remove') {
			// The API does not list deleted appointments: a removal is not reported.
			this.records.events.delete(id);
			return;
		}
		this.change('events', id, (r) => {
			if (kind === 'move') r.start_at = iso((apiTime(r.start_at) ?? this.now) + DAY);
			else if (kind === 'rename') r.name = `Pick-up ${arg}`;
			else if (kind === 'assign') r.inspector_ids = [INSPECTORS[arg % INSPECTORS.length].id];
			else r.description = `note at ${iso(this.now)}`;
		});
	}

	newAttachment(inspectionPick: number, withCreatedAt: boolean): void {
		const inspection = this.pick('inspections', inspectionPick);
		if (inspection === undefined || this.records.inspections.get(inspection)?.deleted === true)
			return;
		const id = String(this.next++);
		this.records.attachments.set(`${inspection}/${id}`, {
			id,
			inspection_id: inspection,
			kind: 'document',
			name: `Document ${id}`,
			created_at: withCreatedAt ? iso(this.now) : null,
			updated_at: iso(this.now),
		});
	}

	/** A renamed attachment; one without created_at is never changed (it would be added again). */
	renameAttachment(key: string): void {
		if (this.records.attachments.get(key)?.created_at == null) return;
		this.change('attachments', key, (r) => {
			r.name = `${String(r.name)} (renamed)`;
		});
	}
}

// --- prices, agreements, reports, inspectors: as the business tools change them ---------------

const PRICE_CHANGES = new Set<InspectionChangeKind>([
	'payFull',
	'payPart',
	'refund',
	'addOn',
	'removeAddOn',
	'quantity',
	'quoteCent',
	'quoteNoise',
]);

const round2 = (n: number) => Math.round(n * 100) / 100;

function apiTime(value: unknown): number | null {
	return typeof value === 'string' ? Date.parse(value) : null;
}

/** The payment fields after `paid` of `quote`, written in the booking's style. */
function setPayment(r: IDataObject, paid: number): void {
	const price = r.price as IDataObject;
	const quote = price.quote as number;
	// Float sums as the API's would be: 400 + 25.1 - 425.1 need not be 0 exactly.
	const due = Math.max(0, quote - paid);
	const full = Math.round(due * 100) === 0;
	price.amount_paid = paid;
	price.amount_due = full ? 0 : due;
	if ('paid' in price) price.paid = full && paid > 0;
	if (price.payment_status !== null || 'paid' in price)
		price.payment_status = full && paid > 0 ? 'paid' : paid > 0 ? 'partial' : 'unpaid';
}

/** A payment; `statusLags`: the payment status still says what it said (see addAddOn). */
function pay(r: IDataObject, share: number, statusLags = false): void {
	const price = r.price as IDataObject;
	if (typeof price.quote !== 'number') return;
	const paid = price.amount_paid as number;
	const status = price.payment_status;
	setPayment(r, share === 1 ? price.quote : Math.min(price.quote, round2(paid + price.quote / 2)));
	if (statusLags) price.payment_status = status;
}

function refund(r: IDataObject, share: number): void {
	const price = r.price as IDataObject;
	setPayment(r, round2((price.amount_paid as number) * share));
	if (price.payment_status !== null && share === 0 && (price.amount_paid as number) === 0)
		price.payment_status = 'refunded';
}

/** A new quote, the amount paid kept (an add-on sold after the payment leaves something due). */
function reprice(r: IDataObject, quote: number | null): void {
	const price = r.price as IDataObject;
	if (quote === null) return;
	price.quote = quote;
	setPayment(r, price.amount_paid as number);
}

function movePrice(r: IDataObject, by: number): void {
	const quote = (r.price as IDataObject).quote;
	if (typeof quote === 'number' && quote + by >= 0) reprice(r, quote + by);
}

/** The same amount to the cent, written as float arithmetic may write it. */
function sameCentsNoisy(quote: number | null, arg: number): number | null {
	if (quote === null || quote === 0) return quote;
	const noise = quote * Number.EPSILON * (2 + (arg % 3));
	return arg % 2 === 0 ? quote - noise : quote + noise;
}

/**
 * An add-on sold; `statusLags`: the payment status still says what it said (the `paid` flag, or
 * the amounts, say otherwise: which decides is the contract's order).
 */
function addAddOn(r: IDataObject, addOn: (typeof ADD_ONS)[number], statusLags = false): void {
	const price = r.price as IDataObject;
	const status = price.payment_status;
	(r.add_ons as IDataObject[]).push({ id: addOn.id, name: addOn.name, quantity: 1 });
	movePrice(r, addOn.price);
	if (statusLags) price.payment_status = status;
}

function removeAddOn(r: IDataObject, arg: number): void {
	const addOns = r.add_ons as IDataObject[];
	if (addOns.length === 0) return;
	const [removed] = addOns.splice(arg % addOns.length, 1);
	const each = ADD_ONS.find((a) => a.id === removed.id)?.price ?? 0;
	movePrice(r, -each * (removed.quantity as number));
}

/** One more of an add-on; `quoteMoves` false: the quote stays (a free extra). */
function changeQuantity(r: IDataObject, quoteMoves: boolean): void {
	const addOns = r.add_ons as IDataObject[];
	if (addOns.length === 0) return;
	addOns[0].quantity = (addOns[0].quantity as number) + 1;
	if (quoteMoves) movePrice(r, ADD_ONS.find((a) => a.id === addOns[0].id)?.price ?? 0);
}

function toggleService(r: IDataObject, arg: number): void {
	const services = r.services as IDataObject[];
	const service = SERVICES[arg % SERVICES.length];
	const at = services.findIndex((s) => s.id === service.id);
	if (at >= 0) services.splice(at, 1);
	else services.push({ ...service });
	if (arg % 2 === 1) movePrice(r, at >= 0 ? -50 : 50);
}

function setLength(r: IDataObject, hours: number, extraMinutes: number | null): void {
	const start = apiTime(r.scheduled_for);
	r.duration_hours = hours;
	if (start !== null && (r.ends_at !== null || extraMinutes !== null))
		r.ends_at = new Date(start + hours * HOUR + (extraMinutes ?? 0) * MINUTE).toISOString();
}

/**
 * Signs agreement `which` (or all). `style` varies how the API shows a signature: a `signed_at`
 * with another status, status "signed" without a time, or both; and now and then `all_signed`
 * lags behind the items until the next agreement change.
 */
function signAgreements(r: IDataObject, which: number | 'all', style: number): void {
	const a = r.agreements as IDataObject;
	const items = a.items as IDataObject[];
	if (a.present === false || items.length === 0) return;
	const at = new Date(Date.parse(String(r.updated_at))).toISOString();
	items.forEach((item, i) => {
		if (which !== 'all' && i !== which % items.length) return;
		if (style % 3 === 0) Object.assign(item, { status: 'completed', signed_at: at });
		else if (style % 3 === 1) Object.assign(item, { status: 'signed', signed_at: null });
		else Object.assign(item, { status: 'signed', signed_at: at });
	});
	if (style % 5 !== 4 || which === 'all') syncAllSigned(r);
}

function syncAllSigned(r: IDataObject): void {
	const a = r.agreements as IDataObject;
	const items = a.items as IDataObject[];
	a.all_signed =
		a.present !== false &&
		items.length > 0 &&
		items.every((item) => item.signed_at != null || item.status === 'signed');
}

/** An addendum to sign; `lagging`: the API still says all signed until the next agreement change. */
function addAddendum(r: IDataObject, lagging: boolean): void {
	const a = r.agreements as IDataObject;
	const items = a.present === false ? [] : (a.items as IDataObject[]);
	r.agreements = {
		present: true,
		all_signed: lagging && a.all_signed === true,
		items: [...items, { name: 'Addendum', status: 'sent', signed_at: null }],
	};
}

/** The reports status as the items show it (partial: some published). */
function deriveReportsStatus(r: IDataObject): void {
	const rep = r.reports as IDataObject;
	const items = rep.items as IDataObject[];
	if (items.length === 0) return;
	const out = items.filter((i) => i.status === 'published').length;
	rep.status = out === 0 ? 'pending' : out === items.length ? 'published' : 'partial';
}

/** Publishes report `which` (or all); `statusLags`: the reports status is not updated yet. */
function publishReports(r: IDataObject, which: number | 'all', statusLags = false): void {
	const rep = r.reports as IDataObject;
	const items = rep.items as IDataObject[];
	if (items.length === 0) {
		// A report the API does not itemise: only the status says it.
		rep.status = which === 'all' || rep.status === 'partial' ? 'published' : 'partial';
		return;
	}
	items.forEach((item, i) => {
		if (which === 'all' || i === which % items.length) item.status = 'published';
	});
	if (!statusLags) deriveReportsStatus(r);
}

function unpublishReport(r: IDataObject, arg: number): void {
	const rep = r.reports as IDataObject;
	const items = rep.items as IDataObject[];
	if (items.length === 0) {
		if (rep.status !== 'na') rep.status = 'pending';
		return;
	}
	items[arg % items.length].status = 'draft';
	deriveReportsStatus(r);
}

/** A republished fix: a published report changes, its status does not. */
function fixReport(r: IDataObject): void {
	const items = (r.reports as IDataObject).items as IDataObject[];
	const published = items.find((i) => i.status === 'published');
	if (published) published.name = `${String(published.name)} (revised)`;
}

function addReport(r: IDataObject): void {
	const rep = r.reports as IDataObject;
	const items = rep.items as IDataObject[];
	if (items.length === 0 || items.length >= 3) return;
	items.push({ id: `report-${items.length + 1}`, name: 'Addendum Report', status: 'draft' });
	deriveReportsStatus(r);
}

function changeInspectors(r: IDataObject, kind: InspectionChangeKind, arg: number): void {
	const inspectors = r.inspectors as IDataObject[];
	if (kind === 'assign') {
		const free = INSPECTORS.filter((i) => !inspectors.some((on) => on.id === i.id));
		if (free.length > 0) inspectors.push({ ...free[arg % free.length] });
	} else if (inspectors.length > 0) {
		if (kind === 'unassign') inspectors.splice(arg % inspectors.length, 1);
		else inspectors[arg % inspectors.length].name += ' Jr.';
	}
}

/** The same scheduled time written another way ("Z" without milliseconds, or "+00:00"). */
function reformatTime(r: IDataObject, arg: number): void {
	const at = apiTime(r.scheduled_for);
	if (at === null) return;
	const plain = new Date(at).toISOString();
	r.scheduled_for = [plain.replace('.000Z', 'Z'), plain.replace('Z', '+00:00'), plain][arg % 3];
}
