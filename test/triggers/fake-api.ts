/**
 * Why not the sandbox: the polling trigger's property and clock tests need
 * what the sandbox cannot do, namely changes that become visible minutes after
 * their updated_at (commit lag), a record's updated_at going back (the sandbox
 * keeps it growing per record), an error or a change landing exactly after the
 * n-th request of a poll, and thousands of polls at in-memory speed; what the
 * sandbox can do is tested against it (poll.sandbox.test.ts,
 * poll.clocks.sandbox.test.ts).
 *
 * An in-memory stand-in for the lists the polling trigger reads, with the
 * spec's list semantics and a server clock (no HTTP):
 * - updated_since is inclusive on updated_at (updatedSinceInclusive);
 * - contacts and inspections sort by updated_at (or -updated_at), ties by id
 *   (cursorBoundToSort); the account-wide attachment list is newest change
 *   first, then inspection_id and id (orderOfUnsortedLists), and leaves out
 *   attachments of deleted inspections;
 * - inspections hide canceled and deleted ones unless include_canceled /
 *   include_deleted;
 * - keyset cursors bound to sort and filters (cursorBoundToFilters); pages may
 *   be shorter than `limit` while more follow.
 * A change gets updated_at from the server clock but becomes visible only at
 * its commit time, up to `maxLagMs` later (what the spec's "start a few minutes
 * early" guards against). Clocks: commits follow real time (`realNow`, never
 * going back); the server's clock, which stamps updated_at and answers each
 * page's serverTime (the Date header), is real time plus an offset that can
 * jump either way; and one change can be dated off the server's clock by a
 * skew of its own (a writer whose clock is ahead). Faults: an error on the
 * n-th request of a poll, and a stored cursor the API no longer accepts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ListPage, ListRequest, ListSource } from '../../nodes/InspectionBusinessTrigger/poll';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';

export interface Version {
	/** updated_at (ms): not monotonic per record once clocks jump or skew. */
	u: number;
	commitAt: number;
	data: IDataObject;
}

export interface FakeRecord {
	resource: Resource;
	/** What the trigger keys on: id, or inspection_id/id for attachments. */
	key: string;
	versions: Version[];
}

export interface PollPlan {
	/** 1-based index of the request that fails, if any. */
	failAt?: number;
	/** Changes applied right after the n-th request (1-based). */
	during?: Array<{ after: number; apply: () => void }>;
	/** Stored cursors (from earlier polls) are refused. */
	refuseStoredCursors?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
export const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

type SortKey = Array<string | number>;

function compare(a: SortKey, b: SortKey): number {
	for (let i = 0; i < a.length; i++) {
		if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

export class FakeApi implements ListSource {
	/** Real time: what commits follow. */
	realNow = Date.parse('2030-01-01T00:00:00.000Z');
	/** The server's clock minus real time. */
	clockOffset = 0;
	readonly records = new Map<string, FakeRecord>();
	/** Per request of the current poll: the resource and the versions it could see. */
	requests: Array<{ resource: Resource; visible: Version[] }> = [];
	/** What the run exercised, so the test can show its histories were not trivial. */
	readonly stats = {
		faults: 0,
		staleCursors: 0,
		changesBetweenPages: 0,
		clockJumpsBack: 0,
		datedAhead: 0,
		olderThanPrevious: 0,
	};
	private plan: PollPlan = {};
	private issued = new Set<string>();
	private counter = 0;

	constructor(
		private readonly pageSize: number,
		private readonly maxLagMs: number,
		private readonly localCostMs = 10,
	) {}

	beginPoll(plan: PollPlan): void {
		this.plan = plan;
		this.requests = [];
		this.issued = new Set();
	}

	get serverNow(): number {
		return this.realNow + this.clockOffset;
	}

	/** The poller's clock: real time, read in whole milliseconds (the budget's and the clock check's). */
	get localNow(): number {
		return this.realNow;
	}

	advance(ms: number): void {
		this.realNow += ms;
	}

	/** The server's clock is set to real time plus `offsetMs` (a jump back when it is lower than before). */
	setClockOffset(offsetMs: number): void {
		if (offsetMs < this.clockOffset) this.stats.clockJumpsBack++;
		this.clockOffset = offsetMs;
	}

	/** Every change made later waits at most `maxLagMs`: advancing past it makes everything visible. */
	settle(): void {
		this.realNow += this.maxLagMs + 1;
	}

	nextId(): number {
		return ++this.counter;
	}

	/**
	 * A new version dated by the server's clock plus `skewMs`; it becomes
	 * visible after its lag, never before an earlier one. `revision` counts the
	 * record's versions, so two versions never have the same content.
	 */
	change(
		resource: Resource,
		key: string,
		patch: (previous: IDataObject | null, now: string) => IDataObject,
		lagMs = 0,
		skewMs = 0,
	): void {
		this.realNow += 1; // every change gets its own millisecond
		const record = this.records.get(`${resource}:${key}`) ?? { resource, key, versions: [] };
		this.records.set(`${resource}:${key}`, record);
		const last = record.versions.at(-1);
		const commitAt = Math.max(this.realNow + Math.min(lagMs, this.maxLagMs), last?.commitAt ?? 0);
		const u = this.serverNow + skewMs;
		if (skewMs > this.maxLagMs) this.stats.datedAhead++;
		if (last !== undefined && u < last.u) this.stats.olderThanPrevious++;
		const data = {
			...patch(last?.data ?? null, iso(u)),
			revision: record.versions.length + 1,
			updated_at: iso(u),
		};
		record.versions.push({ u, commitAt, data });
	}

	/** The version a reader sees now: the latest committed one. */
	visibleVersion(record: FakeRecord): Version | undefined {
		for (let i = record.versions.length - 1; i >= 0; i--) {
			if (record.versions[i].commitAt <= this.realNow) return record.versions[i];
		}
		return undefined;
	}

	/** Visible in the lists a watcher reads (deleted inspections included, as the trigger asks for them). */
	listed(resource: Resource): Version[] {
		const out: Version[] = [];
		for (const record of this.records.values()) {
			if (record.resource !== resource) continue;
			const version = this.visibleVersion(record);
			if (!version) continue;
			if (resource === 'attachments' && this.inspectionDeleted(String(version.data.inspection_id)))
				continue;
			out.push(version);
		}
		return out;
	}

	private inspectionDeleted(id: string): boolean {
		const record = this.records.get(`inspections:${id}`);
		const version = record && this.visibleVersion(record);
		return version?.data.deleted === true;
	}

	async fetch(request: ListRequest): Promise<ListPage> {
		const index = this.requests.length + 1;
		// A walk that never ends would hang the test instead of failing it.
		if (index > 5000) throw new Error(`runaway walk: ${JSON.stringify(request.query)}`);
		this.realNow += this.localCostMs;
		const { resource, query, cursor } = request;
		this.requests.push({ resource, visible: this.listed(resource) });
		if (this.plan.failAt === index) {
			this.stats.faults++;
			throw new Error(`injected fault on request ${index}`);
		}
		if (cursor !== null && !this.issued.has(cursor) && this.plan.refuseStoredCursors) {
			this.stats.staleCursors++;
			return { records: [], nextCursor: null, staleCursor: true };
		}
		const page = this.page(resource, query, cursor);
		for (const during of this.plan.during ?? []) {
			if (during.after !== index) continue;
			during.apply();
			this.stats.changesBetweenPages++;
		}
		return page;
	}

	private page(resource: Resource, query: IDataObject, cursor: string | null): ListPage {
		const since = typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : null;
		const sort = typeof query.sort === 'string' ? query.sort : '';
		if (resource === 'attachments' && sort !== '')
			throw new Error('the attachments list takes no sort');
		if (
			resource === 'inspections' &&
			(query.include_deleted !== true || query.include_canceled !== true)
		) {
			throw new Error('the trigger must ask for deleted and canceled inspections');
		}
		const keyOf = (v: Version): SortKey => {
			const id = String(v.data.id);
			if (resource === 'attachments') return [-v.u, String(v.data.inspection_id), id.length, id];
			if (sort === 'updated_at') return [v.u, id];
			if (sort === '-updated_at') return [-v.u, id];
			return [id];
		};
		const rows = this.listed(resource)
			.filter((v) => since === null || v.u >= since)
			.map((v) => ({ v, key: keyOf(v) }))
			.sort((a, b) => compare(a.key, b.key));
		const binding = JSON.stringify({ resource, since, sort });
		let start = 0;
		if (cursor !== null) {
			const decoded = JSON.parse(cursor) as { binding: string; key: SortKey };
			if (decoded.binding !== binding) throw new Error('400: cursor made with other filters');
			start = rows.findIndex((row) => compare(row.key, decoded.key) > 0);
			if (start === -1) start = rows.length;
		}
		const limit = Math.min(Number(query.limit), this.pageSize);
		const slice = rows.slice(start, start + limit);
		const more = start + slice.length < rows.length;
		const next = more ? JSON.stringify({ binding, key: slice.at(-1)?.key ?? [] }) : null;
		if (next !== null) this.issued.add(next);
		return {
			records: slice.map((row) => ({ ...row.v.data })),
			nextCursor: next,
			serverTime: this.serverNow,
		};
	}
}
