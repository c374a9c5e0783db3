/**
 * Runs one change history against the in-memory API and checks the polling
 * trigger's promises along the way (see poll.property.test.ts). The invariant:
 * every distinct version (a record's content; the fake API numbers them) is
 * emitted exactly once, whatever its updated_at says, unless a baseline took
 * it (attachments: each one is added exactly once). In detail:
 * - no version is emitted twice (attachments: none is added twice);
 * - after a poll that finished every walk, every version that was visible when
 *   it started and is still current has been emitted, unless the baseline took it;
 * - after the history settles, every current version has been emitted (same exemption);
 * - items are consistent: the version exists, `previous` is an earlier
 *   version of the same record, derived events match the record.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import type { TriggerItem } from '../../nodes/InspectionBusinessTrigger/judge';
import {
	changeTime,
	readState,
	type Resource,
	RESOURCES,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import { FakeApi, type Version } from './fake-api';
import { applyChange, type History } from './history';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

/** The node's defaults, one item per change (version 1's shape, which these tests read). */
const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

const MINUTE = 60_000;
const OVERLAP_MS = 5 * MINUTE;
export const MAX_LAG_MS = 3 * MINUTE; // below the overlap, with room for the polls' own duration
const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);

const PREFIXES: Array<[string, Resource]> = [
	['contact.', 'contacts'],
	['inspection.', 'inspections'],
	['inspection_event.', 'events'],
	['attachment.', 'attachments'],
];
const resourceOfEvent = (event: string): Resource =>
	PREFIXES.find(([prefix]) => event.startsWith(prefix))![1];

/** Attachments are reported once per (inspection_id, id); the others once per version (content). */
const versionKey = (resource: Resource, key: string, revision: unknown) =>
	resource === 'attachments' ? `${resource}|${key}` : `${resource}|${key}|${String(revision)}`;

export interface Totals {
	polls: number;
	cutShort: number;
	restarts: number;
	faults: number;
	staleCursors: number;
	changesBetweenPages: number;
	clockJumpsBack: number;
	datedAhead: number;
	olderThanPrevious: number;
}

/** A record's identity as the in-memory API keys it. */
const rawKey = (resource: Resource, record: IDataObject) =>
	resource === 'attachments'
		? `${String(record.inspection_id)}/${String(record.id)}`
		: String(record.id);

const tagIds = (tags: unknown) =>
	new Set((Array.isArray(tags) ? (tags as IDataObject[]) : []).map((t) => String(t.id)));

/**
 * `changes` agrees with the record: each field's `after` is the record's value
 * (times as ISO, tags as {id, name}); a tag reported added is on the record, one
 * removed is not; tag events come with the tags that moved.
 */
function checkChanges(item: TriggerItem): void {
	const { changes } = item;
	const onRecord = tagIds(item.record.tags);
	const tags = changes?.tags as IDataObject | undefined;
	const added = (tags?.added ?? []) as IDataObject[];
	const removed = (tags?.removed ?? []) as IDataObject[];
	if (item.events.includes('contact.tag_added') && added.length === 0)
		throw new Error('tag_added without an added tag');
	if (item.events.includes('contact.tag_removed') && removed.length === 0)
		throw new Error('tag_removed without a removed tag');
	if (
		added.some((t) => !onRecord.has(String(t.id))) ||
		removed.some((t) => onRecord.has(String(t.id)))
	)
		throw new Error('changes.tags disagrees with the record');
	if (changes === null) return;
	for (const [field, change] of Object.entries(changes)) {
		const after = (change as IDataObject).after;
		const expected = shownOnRecord(item.record, field);
		if (expected === SKIP) continue;
		const same =
			field === 'tags'
				? sameTags(after, expected)
				: JSON.stringify(after) === JSON.stringify(expected);
		if (!same)
			throw new Error(
				`changes.${field}.after ${JSON.stringify(after)} is not the record's ${JSON.stringify(expected)}`,
			);
	}
}

const SKIP = Symbol('not compared');

/** A watched field as the record shows it (times as ISO); SKIP where `after` is not the record's own value. */
function shownOnRecord(record: IDataObject, field: string): unknown {
	if (field === 'roles' || field === 'services' || field === 'inspectors') return SKIP;
	if (field === 'tags') return record.tags ?? [];
	if (field === 'deleted') return record.deleted === true;
	const path = field.split('.');
	let value: unknown = record;
	for (const part of path) value = (value as IDataObject | undefined)?.[part];
	if (/_at$|_for$/.test(field))
		return typeof value === 'string' ? new Date(Date.parse(value)).toISOString() : null;
	return value ?? null;
}

const sameTags = (a: unknown, b: unknown) =>
	[...tagIds(a)].sort().join() === [...tagIds(b)].sort().join();

class Checker {
	readonly emitted = new Map<string, number>();
	/** Moments that come as items of their own, each once (see record). */
	readonly ownMoments = new Set<string>();
	readonly exempt = new Set<string>();
	polls = 0;
	cutShort = 0;
	restarts = 0;

	constructor(private readonly api: FakeApi) {}

	record(items: TriggerItem[]): void {
		for (const polled of items) {
			// The in-memory API lists only readable records.
			if ('problem' in polled) throw new Error(`reported unreadable: ${String(polled.problem)}`);
			const item = polled as TriggerItem;
			const resource = resourceOfEvent(item.event);
			const key = rawKey(resource, item.record);
			const u = changeTime(item.record);
			const revision = item.record.revision;
			const stored = this.api.records.get(`${resource}:${key}`);
			if (!stored?.versions.some((v) => v.u === u && v.data.revision === revision))
				throw new Error(`emitted a version that never existed: ${key}@${u}#${String(revision)}`);
			if (!item.events.includes(item.event)) throw new Error('event is not among events');
			if (item.events.includes('inspection.confirmed') && item.record.status !== 'confirmed') {
				throw new Error('confirmed without status confirmed');
			}
			if (item.events.includes('inspection.deleted') && item.record.deleted !== true)
				throw new Error('deleted without deleted');
			checkChanges(item);
			const previous = item.previous as IDataObject | null;
			const before = previous === null ? null : Date.parse(String(previous.updated_at));
			if (
				before !== null &&
				!stored.versions.some((v) => v.u === before && Number(v.data.revision) < Number(revision))
			)
				throw new Error('previous is not an earlier version');
			const id = versionKey(resource, key, revision);
			// A moment with an item of its own (one per inspector, or a time-based moment) is counted
			// apart: once per version and inspector, or once per record and moment time, ever.
			const inspector = (item.inspector as IDataObject | undefined)?.id;
			const own =
				inspector !== undefined
					? `${id}|${item.event}|${String(inspector)}`
					: typeof item.moment_at === 'string'
						? `${resource}|${key}|${item.event}|${item.moment_at}`
						: null;
			if (own !== null) {
				if (this.ownMoments.has(own)) throw new Error(`moment emitted twice: ${own}`);
				this.ownMoments.add(own);
				continue;
			}
			const count = (this.emitted.get(id) ?? 0) + 1;
			if (count > 1) throw new Error(`emitted twice: ${id} (${item.event})`);
			this.emitted.set(id, count);
		}
	}

	/** Versions a baseline walk could see are not reported: that is what a baseline is. */
	exemptBaseline(baselineResources: Set<Resource>): void {
		for (const request of this.api.requests) {
			if (!baselineResources.has(request.resource)) continue;
			for (const v of request.visible) this.exempt.add(this.idOf(request.resource, v));
		}
	}

	idOf(resource: Resource, version: Version): string {
		return versionKey(resource, rawKey(resource, version.data), version.data.revision);
	}

	/** The versions listed now, each with what its emission is recorded as (a pair, for attachments). */
	current(): Map<string, string> {
		const ids = new Map<string, string>();
		for (const resource of RESOURCES) {
			for (const v of this.api.listed(resource)) {
				ids.set(
					`${resource}|${rawKey(resource, v.data)}|${String(v.data.revision)}`,
					this.idOf(resource, v),
				);
			}
		}
		return ids;
	}

	allEmitted(): boolean {
		return [...this.current().values()].every((id) => this.exempt.has(id) || this.emitted.has(id));
	}

	assertEmitted(ids: Iterable<string>, when: string): void {
		for (const id of ids) {
			if (!this.exempt.has(id) && !this.emitted.has(id))
				throw new Error(`${when}: never emitted ${id}`);
		}
	}
}

function modesAtStart(stored: IDataObject, emitExisting: boolean): Set<Resource> {
	const states = readState(stored).resources;
	const first = Object.keys(states).length === 0;
	const baseline = new Set<Resource>();
	for (const resource of RESOURCES) {
		const phase = states[resource]?.phase ?? (first && emitExisting ? 'existing' : 'baseline');
		if (phase === 'baseline') baseline.add(resource);
	}
	return baseline;
}

async function poll(
	api: FakeApi,
	checker: Checker,
	stored: IDataObject,
	history: History,
	budgetPages: number | null,
) {
	const baseline = modesAtStart(stored, history.emitExisting);
	const result = await runPoll(stored, api, {
		...PER_CHANGE,
		events: ALL_EVENTS,
		overlapMs: OVERLAP_MS,
		emitExisting: history.emitExisting,
		budgetMs: budgetPages === null ? Number.MAX_SAFE_INTEGER : budgetPages * 10,
		now: () => api.localNow,
	});
	checker.polls++;
	if (!result.complete) checker.cutShort++;
	checker.exemptBaseline(baseline);
	checker.record(result.items);
	return result;
}

/** Polls without a budget limit until one finishes every walk; returns the state after it. */
async function pollUntilComplete(
	api: FakeApi,
	checker: Checker,
	stored: IDataObject,
	history: History,
): Promise<IDataObject> {
	let state = stored;
	for (let i = 0; i < 100; i++) {
		api.beginPoll({});
		const result = await poll(api, checker, state, history, null);
		state = JSON.parse(JSON.stringify(result.state)) as IDataObject;
		if (result.complete) return state;
	}
	throw new Error('the polls never finished their walks');
}

export async function runHistory(history: History): Promise<Totals> {
	const api = new FakeApi(history.pageSize, MAX_LAG_MS);
	const checker = new Checker(api);
	for (const op of history.initial) applyChange(api, op);
	let stored: IDataObject = {};
	for (const step of history.steps) {
		if (step.step === 'mutate') applyChange(api, step);
		else if (step.step === 'advance') api.advance(step.ms);
		else if (step.step === 'clock') {
			// Documented limits: a jump forward loses changes still in flight (as a lag beyond the overlap
			// would), and changes dated by a set-back clock that goes forward again before any poll
			// reads it are older than every window. So the poller reads the clock before it goes forward.
			if (step.offsetMs > api.clockOffset) {
				api.settle();
				stored = await pollUntilComplete(api, checker, stored, history);
			}
			api.setClockOffset(step.offsetMs);
		} else if (step.step === 'restart') {
			stored = JSON.parse(JSON.stringify(stored)) as IDataObject;
			checker.restarts++;
		} else {
			const before = checker.current();
			api.beginPoll({
				failAt: step.failAt ?? undefined,
				during: step.during.map((op) => ({
					after: step.duringAfter,
					apply: () => applyChange(api, op),
				})),
				refuseStoredCursors: step.refuseStoredCursors,
			});
			const snapshot = JSON.stringify(stored);
			let result;
			try {
				result = await poll(api, checker, stored, history, step.budgetPages);
			} catch (error) {
				if (!String(error).includes('injected fault')) throw error;
				if (JSON.stringify(stored) !== snapshot) throw new Error('a failed poll changed the state');
				continue;
			}
			stored = JSON.parse(JSON.stringify(result.state)) as IDataObject;
			if (result.complete) {
				const after = checker.current();
				const unchanged = [...before]
					.filter(([version]) => after.has(version))
					.map(([, emission]) => emission);
				checker.assertEmitted(unchanged, 'after a complete poll');
			}
		}
	}
	// Settle: every change visible. Polls that may fetch only one page each must still get everything out…
	api.settle();
	for (let i = 0; i < 400 && !checker.allEmitted(); i++) {
		api.beginPoll({});
		const result = await poll(api, checker, stored, history, 1);
		stored = JSON.parse(JSON.stringify(result.state)) as IDataObject;
	}
	checker.assertEmitted(checker.current().values(), 'after settling with one page per poll');
	// …and polls without limits then finish every walk, emitting nothing twice.
	let completeInARow = 0;
	for (let i = 0; i < 100 && completeInARow < 2; i++) {
		api.beginPoll({});
		const result = await poll(api, checker, stored, history, null);
		stored = JSON.parse(JSON.stringify(result.state)) as IDataObject;
		completeInARow = result.complete ? completeInARow + 1 : 0;
	}
	if (completeInARow < 2) throw new Error('the polls never finished their walks');
	checker.assertEmitted(checker.current().values(), 'after settling');
	return {
		polls: checker.polls,
		cutShort: checker.cutShort,
		restarts: checker.restarts,
		...api.stats,
	};
}
