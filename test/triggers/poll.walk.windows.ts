/**
 * Where each poll's windows start and what they judge by: the server's clock,
 * the baselines, change order, "created", the attachments' memory, a resource
 * selected later, and the time-based moments (the recording account:
 * walk-account.ts). The rules:
 * - the server's clock set back by more than the overlap (and no more than the
 *   jitter of 5 s counts as a move) re-opens the window that much earlier, at
 *   most 3 h; a window without a lower bound is re-asked only when a cursor
 *   stood in it;
 * - the attachments' baseline reads newest first and stops at one overlap
 *   before the newest; it ends, and the live windows follow, once its walk ends;
 * - a baseline cut short stays a baseline through the window after its leftover;
 * - items go out in change order (inspection events come in id order,
 *   attachments newest first);
 * - after a newest-first or id-order walk of several pages, the next window
 *   judges "created" from the earlier window's start (at most two overlaps
 *   back; none after the walk that emitted the existing records); after one
 *   page, or an ascending walk, from the mark minus the overlap;
 * - attachments remember only the versions the next window can list again,
 *   less the 3 h clock tolerance;
 * - the time-based moments are looked up only after a finished walk of the
 *   inspections, within the budget, on the server's clock.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import { readState } from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import type { ListSource } from '../../nodes/InspectionBusinessTrigger/poll';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { uuid } from './fake-api';
import { HOUR, lookups, MomentsApi } from './moments-api';
import {
	account,
	BOTH,
	EVENT_OF,
	idOf,
	iso,
	MINUTE,
	ONE_PAGE,
	OVERLAP,
	PAGE_MS,
	said,
	TWO_PAGES,
	UNLIMITED,
} from './walk-account';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

export function walkWindows(): void {
	/** The node's defaults, one item per change (version 1's shape, which these tests read). */
	const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

	describe("the server's clock", () => {
		/** Contacts live with their mark at T0, the clock 10 min on. */
		async function liveContact() {
			const acct = account(['contact.updated']);
			acct.put('contacts', 1, 0);
			await acct.poll();
			acct.api.advance(10 * MINUTE);
			return acct;
		}

		test.each([
			['1 min', MINUTE, 0],
			['exactly the overlap', OVERLAP, 0],
			['the overlap and 1 ms', OVERLAP + 1, OVERLAP + 1],
			['1 h', HOUR, HOUR],
			['5 h', 5 * HOUR, 3 * HOUR], // at most the clock jump tolerance
		])(
			'set back by %s (%i ms) re-opens the window %i ms earlier (0: not at all)',
			async (_, back, reopened) => {
				const { api, T0, poll } = await liveContact();
				api.setClockOffset(-back);
				const { asked: requests } = await poll();
				const window = T0 - OVERLAP;
				expect(requests.map((a) => a.since)).toEqual(
					reopened === 0 ? [window] : [window, window - reopened],
				);
			},
		);

		test.each([
			[2_000, 0],
			[5_000, 0],
			[5_001, 5_001],
		])('moved on by %i ms is stored as an offset of %i ms', async (drift, offset) => {
			const { api, poll } = await liveContact();
			const before = (await poll()).stored;
			api.setClockOffset(drift);
			const after = await poll();
			expect(after.state.contacts!.serverClockOffset).toBe(offset);
			if (offset === 0) expect(after.stored).toEqual(before);
		});

		test('set back while a window without a lower bound holds no cursor asks nothing again', async () => {
			// Inspections: their baseline reads every one, so an empty one leaves the window unbounded.
			const { api, poll } = account(['inspection.updated']);
			expect((await poll()).asked).toHaveLength(1);
			api.setClockOffset(-HOUR);
			expect((await poll()).asked).toEqual([
				{ resource: 'inspections', since: null, cursor: null },
			]);
		});

		test.each<{ resource: Resource; restart: 'before the newest' | 'from the start' }>([
			{ resource: 'contacts', restart: 'before the newest' },
			{ resource: 'events', restart: 'from the start' },
		])(
			'set back while a baseline of $resource waits at its cursor restarts it $restart',
			async ({ resource, restart }) => {
				const { api, T0, poll, put } = account([EVENT_OF[resource]]);
				for (const n of [1, 2, 3]) put(resource, n, (n - 1) * MINUTE);
				const cut = await poll({ budgetMs: ONE_PAGE });
				const { nextPageCursor: cursor, updatedSince: since } =
					cut.state[resource]!.unfinishedWalk!;
				expect(cursor).not.toBeNull();
				api.setClockOffset(-HOUR);
				api.advance(MINUTE);
				const next = await poll();
				const serverTime = next.exchanges[0].page.serverTime!;
				// A baseline reads back as far as the trigger remembers (`since`); set back, it restarts an hour earlier.
				expect(next.asked.slice(0, 2)).toEqual([
					{ resource, since, cursor },
					{
						resource,
						since: (restart === 'from the start' ? since! : Math.min(T0, serverTime)) - HOUR,
						cursor: null,
					},
				]);
				expect(next.items).toEqual([]);
			},
		);

		test('set back on the page before a cut still leaves a window after the leftover', async () => {
			const { api, T0, poll, put } = account(['contact.created']);
			put('contacts', 100, 0);
			await poll();
			for (const n of [1, 2, 3]) put('contacts', n, (19 + n) * MINUTE);
			const cut = await poll({
				budgetMs: TWO_PAGES,
				plan: { during: [{ after: 1, apply: () => api.setClockOffset(-HOUR) }] },
			});
			// The second answer shows the clock set back: the walk starts again an hour earlier, next poll.
			expect(cut.asked).toHaveLength(2);
			expect(cut.state.contacts!.unfinishedWalk!.nextPageCursor).toBeNull();
			const next = await poll();
			const reopened = T0 - OVERLAP - HOUR;
			expect(next.asked[0]).toEqual({ resource: 'contacts', since: reopened, cursor: null });
			// After the leftover, a window from the newest record when cut (lowered to the server's time).
			const firstCutAt = Math.min(T0, cut.exchanges[1].page.serverTime!);
			expect(next.asked.filter((a) => a.cursor === null).map((a) => a.since)).toEqual([
				reopened,
				firstCutAt - OVERLAP,
			]);
			expect(said([...cut.items, ...next.items])).toEqual([
				'contact.created 1',
				'contact.created 2',
				'contact.created 3',
			]);
		});
	});

	describe("the attachments' baseline", () => {
		// Newest at 7 min; its window starts at 2 min (one overlap before): the walk stops at the first record older.
		const TIMES = [-120, -60, 1, 2, 3, 6, 7];

		test('reads newest first back to one overlap before the newest, then the live windows follow', async () => {
			const { api, T0, poll, put } = account(['attachment.added']);
			TIMES.forEach((minutes, i) => put('attachments', i + 1, minutes * MINUTE));
			const baseline = await poll();
			// 7, 6, 3, 2 (exactly at the window's start), then 1 (before it): five pages of seven.
			expect(baseline.asked).toEqual(
				Array.from({ length: 5 }, (_, i) => ({
					resource: 'attachments',
					since: null,
					cursor: i === 0 ? null : baseline.exchanges[i - 1].page.nextCursor,
				})),
			);
			expect(baseline.state.attachments!.highWaterMark).toBe(T0 + 7 * MINUTE);
			api.advance(MINUTE);
			const live = await poll();
			expect(live.asked[0]).toEqual({
				resource: 'attachments',
				since: T0 + 7 * MINUTE - OVERLAP,
				cursor: null,
			});
			expect(live.items).toEqual([]);
		});

		test('cut short, moves no mark until done, then ends, and the live windows follow', async () => {
			const { api, T0, poll, put } = account(['attachment.added']);
			TIMES.forEach((minutes, i) => put('attachments', i + 1, minutes * MINUTE));
			const first = await poll({ budgetMs: ONE_PAGE });
			expect(first.complete).toBe(false);
			expect(first.state.attachments!.highWaterMark).toBeNull();
			let polls = 1;
			let last = first;
			while (!last.complete && polls < 10) {
				api.advance(MINUTE);
				last = await poll({ budgetMs: ONE_PAGE });
				polls++;
			}
			expect(polls).toBe(5);
			expect(last.state.attachments!.phase).toBe('live');
			api.advance(MINUTE);
			const live = await poll();
			expect(live.asked[0]).toEqual({
				resource: 'attachments',
				since: T0 + 7 * MINUTE - OVERLAP,
				cursor: null,
			});
		});
	});

	test('a baseline cut short stays a baseline through the window after its leftover', async () => {
		// Contact 9 is dated before the baseline began but becomes visible only after its first page.
		const { api, poll, put } = account(BOTH.contacts, { maxLagMs: 10 * MINUTE });
		put('contacts', 9, 0, {}, 10 * MINUTE);
		for (const n of [1, 2, 3]) put('contacts', n, n * MINUTE);
		const cut = await poll({ budgetMs: ONE_PAGE });
		expect(cut.exchanges[0].page.records.map((record) => record.id)).toEqual([uuid(1)]);
		api.settle();
		const next = await poll();
		// The leftover (contacts 2 and 3), then the window after it, which lists contact 9.
		expect(next.exchanges.flatMap((e) => e.page.records.map((r) => r.id))).toContain(uuid(9));
		expect(next.items).toEqual([]);
		expect(next.state.contacts!.phase).toBe('live');
	});

	describe('items go out in change order', () => {
		test('inspection events, listed in id order', async () => {
			const { poll, put } = account(['inspection_event.created'], { pageSize: 200 });
			await poll();
			put('events', 3, MINUTE);
			put('events', 1, 2 * MINUTE);
			put('events', 2, 3 * MINUTE);
			expect(said((await poll()).items)).toEqual([
				'inspection_event.created 3',
				'inspection_event.created 1',
				'inspection_event.created 2',
			]);
		});

		test('attachments, listed newest first', async () => {
			const { poll, put } = account(['attachment.added'], { pageSize: 200 });
			await poll();
			put('attachments', 2, MINUTE);
			put('attachments', 1, 2 * MINUTE);
			expect(said((await poll()).items)).toEqual(['attachment.added 2', 'attachment.added 1']);
		});
	});

	describe('the window after a walk judges "created" from', () => {
		// Each batch of records (minutes after T0) is followed by a poll; then record 50, first seen
		// at +4 min with the given created_at, is judged by the window that follows.
		test.each<{
			name: string;
			resource: Resource;
			pageSize: number;
			emitExisting?: boolean;
			batches: number[][];
			createdAt: number;
			event: string;
		}>([
			{
				name: "the earlier window's start after a walk of several pages",
				resource: 'events',
				pageSize: 1,
				batches: [[0], [2, 3]],
				createdAt: -4,
				event: 'inspection_event.created',
			},
			{
				name: 'no earlier than that start',
				resource: 'events',
				pageSize: 1,
				batches: [[0], [2, 3]],
				createdAt: -6,
				event: 'inspection_event.updated',
			},
			{
				name: 'the mark minus the overlap after a walk of one page',
				resource: 'events',
				pageSize: 200,
				batches: [[0], [2, 3]],
				createdAt: -4,
				event: 'inspection_event.updated',
			},
			{
				name: 'two overlaps before the mark after a baseline of several pages',
				resource: 'events',
				pageSize: 1,
				batches: [[0, 1]],
				createdAt: -10,
				event: 'inspection_event.updated',
			},
			{
				name: 'nothing after the walk that emitted the existing records',
				resource: 'events',
				pageSize: 1,
				emitExisting: true,
				batches: [[0, 1]],
				createdAt: -10,
				event: 'inspection_event.created',
			},
			{
				name: 'the mark minus the overlap after an ascending walk of several pages',
				resource: 'contacts',
				pageSize: 1,
				batches: [[0], [2, 3]],
				createdAt: -4,
				event: 'contact.updated',
			},
		])('$name', async ({ resource, pageSize, emitExisting, batches, createdAt, event }) => {
			const { T0, poll, put } = account(BOTH[resource], { pageSize, emitExisting });
			let n = 0;
			for (const batch of batches) {
				for (const minutes of batch) put(resource, ++n, minutes * MINUTE);
				await poll();
			}
			put(resource, 50, 4 * MINUTE, { created_at: iso(T0 + createdAt * MINUTE) });
			const items = (await poll()).items.filter((item) => idOf(item) === uuid(50));
			expect(items.map((item) => item.event)).toEqual([event]);
		});
	});

	test('attachments remember only what the next window can list again, less the 3 h clock tolerance', async () => {
		const { T0, poll, put } = account(['attachment.added'], { pageSize: 200 });
		put('attachments', 1, 0);
		put('attachments', 2, 3 * MINUTE);
		await poll();
		expect((await poll()).state.attachments!.records.size).toBe(2);
		// The mark moves to 3 h 7 min: the next window starts at 3 h 2 min, kept back to 2 min.
		put('attachments', 3, 3 * HOUR + 7 * MINUTE);
		const after = await poll();
		expect(said(after.items)).toEqual(['attachment.added 3']);
		expect(after.state.attachments!.highWaterMark).toBe(T0 + 3 * HOUR + 7 * MINUTE);
		expect(after.state.attachments!.records.size).toBe(2);
	});

	test('a resource selected after the first poll starts with a baseline, even with Emit Existing', async () => {
		const { poll, put } = account(['contact.updated'], { emitExisting: true });
		put('contacts', 1, 0);
		put('inspections', 2, 0);
		expect(said((await poll()).items)).toEqual(['contact.existing 1']);
		const both = await poll({ events: ['contact.updated', 'inspection.updated'] });
		expect(both.items).toEqual([]);
		expect(both.state.inspections!.phase).toBe('live');
	});

	test("a change between a baseline's pages, within the second its start is dated by, is reported", async () => {
		const { api, T0, poll, put } = account(['contact.updated']);
		put('contacts', 1, 0);
		put('contacts', 2, MINUTE);
		// The Date header counts whole seconds; the poll starts 100 ms into a second.
		api.advance(1_000 - (api.serverNow % 1_000) + 100);
		const { items } = await poll({
			plan: { during: [{ after: 1, apply: () => put('contacts', 2, api.serverNow - T0 + 1) }] },
			rewrite: (page) => ({ ...page, serverTime: Math.floor(page.serverTime! / 1_000) * 1_000 }),
		});
		expect(said(items)).toEqual(['contact.updated 2']);
	});

	describe('the time-based moments', () => {
		/** MomentsApi with list pages of one record, and a local clock that spends 10 ms a request. */
		function momentsAccount(events: PollEvent[]) {
			const api = new MomentsApi();
			let spent = 0;
			const source: ListSource = {
				async fetch(request) {
					spent += PAGE_MS;
					const query =
						request.query.ids === undefined ? { ...request.query, limit: 1 } : request.query;
					return await api.fetch({ ...request, query });
				},
			};
			let stored: IDataObject = {};
			const poll = async (budgetMs = UNLIMITED) => {
				api.requests = [];
				const result = await runPoll(stored, source, {
					...PER_CHANGE,
					events,
					overlapMs: OVERLAP,
					emitExisting: false,
					budgetMs,
					now: () => api.now + spent,
				});
				stored = JSON.parse(JSON.stringify(result.state)) as IDataObject;
				return result.items;
			};
			return { api, poll };
		}

		test("begin on the server's clock, not the local one", async () => {
			const api = new MomentsApi();
			api.createInspection();
			const { state } = await runPoll({}, api, {
				...PER_CHANGE,
				events: ['inspection.starting'],
				overlapMs: OVERLAP,
				emitExisting: false,
				budgetMs: UNLIMITED,
				now: () => api.now - HOUR, // the server is an hour ahead
			});
			expect(readState(state).resources.inspections!.startingFrom).toBe(api.now);
		});

		test('are looked up only when the budget allows it; a due moment waits for the next poll', async () => {
			const { api, poll } = momentsAccount(['inspection.starting']);
			const inspection = api.createInspection();
			await poll();
			api.now = Date.parse(String(inspection.scheduled_for)) - 24 * HOUR + 30_000;
			expect(await poll(ONE_PAGE)).toEqual([]);
			expect(api.requests).toHaveLength(1);
			expect(said(await poll())).toEqual(['inspection.starting 1']);
			expect(lookups(api)).toHaveLength(1);
		});

		test('wait while the walk of the inspections is cut short, even when a lookup would fit', async () => {
			const { api, poll } = momentsAccount(['inspection.starting', 'attachment.added']);
			const first = api.createInspection();
			api.createInspection();
			await poll();
			for (const id of [uuid(1), uuid(2)]) api.change('inspections', id, (r) => (r.notes = 'gate'));
			api.now = Date.parse(String(first.scheduled_for)) - 24 * HOUR + 30_000;
			// Inspections may run to 25 ms (one page of two), attachments to 50.
			expect(await poll(50)).toEqual([]);
			expect(api.requests.map((r) => [r.resource, typeof r.query.ids])).toEqual([
				['inspections', 'undefined'],
				['attachments', 'undefined'],
			]);
			expect(said(await poll()).sort()).toEqual(['inspection.starting 1', 'inspection.starting 2']);
			expect(lookups(api)).toHaveLength(1);
		});
	});
}
