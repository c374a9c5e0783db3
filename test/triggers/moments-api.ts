/**
 * A small in-memory inspections and contacts API for the business-moment
 * tests: lists by updated_at ascending with an inclusive updated_since, offset
 * cursors, `ids=` lookups (which also return canceled inspections), canceled
 * and deleted inspections hidden unless asked for, and a settable server
 * clock that stamps every change. Counts requests per poll.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import type {
	ListPage,
	ListRequest,
	ListSource,
	PollOptions,
} from '../../nodes/InspectionBusinessTrigger/poll';
import { uuid } from './fake-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

/** The node's defaults, one item per change (version 1's shape, which these tests read). */
const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

export const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export class MomentsApi implements ListSource {
	now = Date.parse('2030-03-01T08:00:00.000Z');
	requests: ListRequest[] = [];
	private readonly lists: Record<string, Map<string, IDataObject>> = {
		inspections: new Map(),
		contacts: new Map(),
	};
	private next = 1;

	async fetch(request: ListRequest): Promise<ListPage> {
		this.requests.push(request);
		const { resource, query, cursor } = request;
		const all = [...(this.lists[resource] ?? new Map()).values()];
		let records = all;
		if (typeof query.ids === 'string') {
			const ids = new Set(query.ids.split(','));
			records = all.filter((r) => ids.has(String(r.id)));
			if (query.include_deleted !== true) records = records.filter((r) => r.deleted !== true);
		} else {
			const since = typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : 0;
			records = all
				.filter((r) => Date.parse(String(r.updated_at)) >= since)
				.filter((r) => query.include_canceled === true || r.status !== 'canceled')
				.filter((r) => query.include_deleted === true || r.deleted !== true)
				.sort(
					(a, b) =>
						Date.parse(String(a.updated_at)) - Date.parse(String(b.updated_at)) ||
						String(a.id).localeCompare(String(b.id)),
				);
		}
		const start = cursor === null ? 0 : Number(cursor);
		const limit = Number(query.limit ?? 200);
		const page = records.slice(start, start + limit).map((r) => structuredClone(r));
		const end = start + page.length;
		return {
			records: page,
			nextCursor: end < records.length ? String(end) : null,
			serverTime: this.now,
		};
	}

	/** A new inspection: unpaid, one inspector, one service, one unsigned agreement. */
	createInspection(fields: IDataObject = {}): IDataObject {
		const id = uuid(this.next++);
		const stamp = iso(this.tick());
		const record: IDataObject = {
			id,
			status: 'confirmed',
			scheduled_for: iso(this.now + 72 * HOUR),
			duration_hours: 3,
			ends_at: iso(this.now + 75 * HOUR),
			created_at: stamp,
			updated_at: stamp,
			canceled_at: null,
			deleted: false,
			deleted_at: null,
			services: [{ id: 'svc-1', name: 'Full Home Inspection' }],
			add_ons: [],
			inspectors: [{ id: 'insp-1', name: 'Alex Rivera' }],
			price: {
				quote: 425,
				amount_paid: 0,
				amount_due: 425,
				payment_status: 'unpaid',
				paid: false,
			},
			agreements: {
				present: true,
				all_signed: false,
				items: [{ name: 'Pre-Inspection Agreement', status: 'sent', signed_at: null }],
			},
			reports: { status: 'pending', items: [] },
			...fields,
		};
		this.lists.inspections.set(id, record);
		return record;
	}

	createContact(fields: IDataObject = {}): IDataObject {
		const id = uuid(this.next++);
		const stamp = iso(this.tick());
		const record: IDataObject = {
			id,
			email: `person${this.next}@example.com`,
			tags: [],
			roles: ['Customer'],
			agency_id: null,
			created_at: stamp,
			updated_at: stamp,
			...fields,
		};
		this.lists.contacts.set(id, record);
		return record;
	}

	/** Changes a record as the business tools would: the change bumps updated_at. */
	change(resource: 'inspections' | 'contacts', id: string, apply: (r: IDataObject) => void) {
		const record = this.lists[resource].get(id);
		if (!record) throw new Error(`no ${resource} ${id}`);
		apply(record);
		record.updated_at = iso(this.tick());
	}

	/** Removes a record for good: lists and `ids=` lookups no longer return it. */
	remove(resource: 'inspections' | 'contacts', id: string) {
		this.lists[resource].delete(id);
	}

	/** Moves the server clock on by at least a millisecond, so every change has its own time. */
	private tick(): number {
		this.now += 1000;
		return this.now;
	}
}

/** The `ids=` lookups among a poll's requests. */
export const lookups = (api: MomentsApi) =>
	api.requests.filter((r) => typeof r.query.ids === 'string');

export const pay = (r: IDataObject, amount?: number) => {
	const price = r.price as IDataObject;
	const paid = amount ?? Number(price.quote);
	price.amount_paid = paid;
	price.amount_due = Number(price.quote) - paid;
	price.paid = price.amount_due === 0;
	price.payment_status = price.amount_due === 0 ? 'paid' : 'partial';
};

/** Signs the agreement at `index`, or all of them. */
export const sign = (r: IDataObject, index?: number) => {
	const agreements = r.agreements as IDataObject;
	const items = agreements.items as IDataObject[];
	items.forEach((item, i) => {
		if (index === undefined || i === index) {
			item.status = 'signed';
			item.signed_at = '2030-03-01T09:00:00.000Z';
		}
	});
	agreements.all_signed = items.every((item) => item.status === 'signed');
};

type PollerOptions = Partial<
	Pick<
		PollOptions,
		| 'startingHours'
		| 'endedHours'
		| 'endedLateHours'
		| 'emitExisting'
		| 'momentStatuses'
		| 'onlyOnce'
		| 'oneItemPerMoment'
	>
>;

/** The settings given, without those left undefined (they keep the node's default). */
const given = (settings: object) =>
	Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));

/**
 * Polls like the node does, with the state kept between polls; returns the
 * items. A poll may be given other events or options (the user edited the node).
 */
export function poller(api: MomentsApi, events: PollEvent[], extra: PollerOptions = {}) {
	let state: IDataObject = {};
	return async (edited: PollerOptions & { events?: PollEvent[] } = {}) => {
		api.requests = [];
		const result = await runPoll(state, api, {
			...PER_CHANGE,
			overlapMs: 5 * 60_000,
			budgetMs: 60_000,
			// The server's clock is the API's: the offset the walks store makes the local clock agree.
			now: () => api.now,
			...given(extra),
			events,
			...given(edited),
		});
		state = JSON.parse(JSON.stringify(result.state)) as IDataObject;
		return result.items;
	};
}
