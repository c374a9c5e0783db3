/**
 * Runs one change history against the in-memory API and checks the polling
 * trigger's promises along the way (see poll.property.test.ts):
 * - no (id, updated_at) pair is emitted twice (attachments: no pair is added twice);
 * - after a poll that finished every walk, every version that was visible when
 *   it started and is still current has been emitted, unless the baseline took it;
 * - after the history settles, every current version has been emitted (same exemption);
 * - items are consistent: the version exists, derived events match the record.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	changeTime,
	POLL_EVENTS,
	type PollEvent,
	recordKey,
	type Resource,
} from '../../nodes/InspectionBusinessTrigger/core/events';
import { runPoll, type TriggerItem } from '../../nodes/InspectionBusinessTrigger/core/poll';
import { decodeState } from '../../nodes/InspectionBusinessTrigger/core/state';
import { FakeApi, type Version } from './fake-api';
import { applyChange, type History } from './history';

const MINUTE = 60_000;
const OVERLAP_MS = 5 * MINUTE;
export const MAX_LAG_MS = 3 * MINUTE; // below the overlap, with room for the polls' own duration
const ALL_EVENTS = Object.keys(POLL_EVENTS) as PollEvent[];

const resourceOfEvent = (event: string): Resource =>
	event.startsWith('contact.')
		? 'contacts'
		: event.startsWith('inspection.')
			? 'inspections'
			: 'attachments';

/** Attachments are reported once per (inspection_id, id); the others once per version. */
const versionKey = (resource: Resource, key: string, u: number) =>
	resource === 'attachments' ? `${resource}|${key}` : `${resource}|${key}|${u}`;

export interface Totals {
	polls: number;
	cutShort: number;
	restarts: number;
	faults: number;
	staleCursors: number;
	changesBetweenPages: number;
}

class Checker {
	readonly emitted = new Map<string, number>();
	readonly exempt = new Set<string>();
	polls = 0;
	cutShort = 0;
	restarts = 0;

	constructor(private readonly api: FakeApi) {}

	record(items: TriggerItem[]): void {
		for (const item of items) {
			const resource = resourceOfEvent(item.event);
			const key = recordKey(resource, item.record);
			if (key === null) throw new Error('item without a key');
			const u = changeTime(item.record);
			const stored = this.api.records.get(`${resource}:${key}`);
			if (!stored?.versions.some((v) => v.u === u))
				throw new Error(`emitted a version that never existed: ${key}@${u}`);
			if (!item.events.includes(item.event)) throw new Error('event is not among events');
			if (item.events.includes('inspection.confirmed') && item.record.status !== 'confirmed') {
				throw new Error('confirmed without status confirmed');
			}
			if (item.events.includes('inspection.deleted') && item.record.deleted !== true)
				throw new Error('deleted without deleted');
			const previous = item.previous as IDataObject | null;
			if (previous !== null && Date.parse(String(previous.updated_at)) >= u)
				throw new Error('previous is not older');
			const id = versionKey(resource, key, u);
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
		return versionKey(resource, String(recordKey(resource, version.data)), version.u);
	}

	/** The versions listed now, each with what its emission is recorded as (a pair, for attachments). */
	current(): Map<string, string> {
		const ids = new Map<string, string>();
		for (const resource of ['contacts', 'inspections', 'attachments'] as const) {
			for (const v of this.api.listed(resource)) {
				ids.set(
					`${resource}|${String(recordKey(resource, v.data))}|${v.u}`,
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
	const states = decodeState(stored).resources;
	const first = Object.keys(states).length === 0;
	const baseline = new Set<Resource>();
	for (const resource of ['contacts', 'inspections', 'attachments'] as const) {
		const mode = states[resource]?.mode ?? (first && emitExisting ? 'existing' : 'baseline');
		if (mode === 'baseline') baseline.add(resource);
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

export async function runHistory(history: History): Promise<Totals> {
	const api = new FakeApi(history.pageSize, MAX_LAG_MS);
	const checker = new Checker(api);
	for (const op of history.initial) applyChange(api, op);
	let stored: IDataObject = {};
	for (const step of history.steps) {
		if (step.step === 'mutate') applyChange(api, step);
		else if (step.step === 'advance') api.advance(step.ms);
		else if (step.step === 'restart') {
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
