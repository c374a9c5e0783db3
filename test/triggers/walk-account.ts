/**
 * The harness of the poll.walk tests: an account on the in-memory API
 * (fake-api.ts) polled through a source that records every request and answer,
 * to check what each poll ASKS the API for and what it keeps for the next poll.
 * The items alone cannot show these rules: the state drops what an
 * overlap lists twice, so a window asked too wide, a cursor dropped or a mark
 * left behind would go unnoticed until it cost requests or lost a change.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../nodes/shared/endpoints';
import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import type { TriggerItem } from '../../nodes/InspectionBusinessTrigger/judge';
import { readState } from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import type { ListPage, ListRequest, ListSource } from '../../nodes/InspectionBusinessTrigger/poll';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { FakeApi, type PollPlan, uuid } from './fake-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

/** The node's defaults, one item per change (version 1's shape, which these tests read). */
const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

export const MINUTE = 60_000;
export const OVERLAP = 5 * MINUTE;
export const UNLIMITED = Number.MAX_SAFE_INTEGER;
/** FakeApi's local cost of one request (its localCostMs). */
export const PAGE_MS = 10;
/** A budget of one page: the first request is always allowed, a second needs 10 + 2 × 10 ms. */
export const ONE_PAGE = PAGE_MS;
/** Two pages: 20 + 2 × 10 ms does not fit. */
export const TWO_PAGES = 3 * PAGE_MS;
export const PAGE = LIMITS.pageSizeMax;
export const iso = (ms: number) => new Date(ms).toISOString();

export const EVENT_OF: Record<Resource, PollEvent> = {
	contacts: 'contact.updated',
	inspections: 'inspection.updated',
	events: 'inspection_event.updated',
	attachments: 'attachment.added',
};
/** Both events of a resource, so every first-seen record is reported one way or the other. */
export const BOTH: Record<Resource, PollEvent[]> = {
	contacts: ['contact.created', 'contact.updated'],
	inspections: ['inspection.created', 'inspection.updated'],
	events: ['inspection_event.created', 'inspection_event.updated'],
	attachments: ['attachment.added'],
};

export interface Asked {
	resource: Resource;
	/** updated_since (ms), null when the request has none. */
	since: number | null;
	cursor: string | null;
}

export const asked = ({ resource, query, cursor }: ListRequest): Asked => ({
	resource,
	since: typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : null,
	cursor,
});

export const idOf = (item: TriggerItem) => String((item.record as IDataObject | null)?.id);
/** Which record each item is about, by its number (uuid(n)), as "event n". */
export const said = (items: TriggerItem[]) =>
	items.map((item) => `${item.event} ${parseInt(idOf(item).slice(-12), 16)}`);

export interface PollArgs {
	budgetMs?: number;
	plan?: PollPlan;
	now?: () => number;
	events?: PollEvent[];
	/** Replaces the n-th answer (1-based) of this poll. */
	rewrite?: (page: ListPage, index: number) => ListPage;
}

/**
 * An account on the in-memory API and a trigger polling it, with the state kept
 * as n8n keeps it (JSON). Records are put at times relative to the start (T0).
 */
export function account(
	events: PollEvent[],
	{ pageSize = 1, emitExisting = false, maxLagMs = 0 } = {},
) {
	const api = new FakeApi(pageSize, maxLagMs);
	const T0 = api.serverNow;
	const exchanges: Array<{ request: ListRequest; page: ListPage }> = [];
	let rewrite: PollArgs['rewrite'];
	const source: ListSource = {
		async fetch(request) {
			const answer = await api.fetch(request);
			const page = rewrite ? rewrite(answer, exchanges.length + 1) : answer;
			exchanges.push({ request: structuredClone(request), page });
			return page;
		},
	};
	let stored: IDataObject = {};
	const poll = async (args: PollArgs = {}) => {
		api.beginPoll(args.plan ?? {});
		exchanges.length = 0;
		rewrite = args.rewrite;
		const result = await runPoll(stored, source, {
			...PER_CHANGE,
			events: args.events ?? events,
			overlapMs: OVERLAP,
			emitExisting,
			budgetMs: args.budgetMs ?? UNLIMITED,
			now: args.now ?? (() => api.localNow),
		});
		stored = JSON.parse(JSON.stringify(result.state)) as IDataObject;
		return {
			items: result.items,
			complete: result.complete,
			exchanges: [...exchanges],
			asked: exchanges.map((e) => asked(e.request)),
			state: readState(stored).resources,
			stored,
		};
	};
	/** A version of record n dated exactly T0 + at (the server's clock is moved on to it if behind). */
	const put = (resource: Resource, n: number, at: number, fields: IDataObject = {}, lagMs = 0) => {
		const when = T0 + at;
		if (when > api.serverNow) api.advance(when - api.serverNow);
		api.change(
			resource,
			uuid(n),
			(previous, now) => ({
				...previous,
				id: uuid(n),
				...(resource === 'inspections' ? { status: 'waiting', deleted: false } : {}),
				...(resource === 'events' || resource === 'attachments'
					? { inspection_id: uuid(999), name: `n${n}` }
					: {}),
				created_at: previous?.created_at ?? now,
				...fields,
			}),
			lagMs,
			when - (api.serverNow + 1),
		);
		return when;
	};
	return { api, T0, poll, put, stored: () => stored };
}
