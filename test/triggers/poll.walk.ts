/**
 * What each poll asks the API for, and keeps for the next poll, as it walks
 * within its budget (the recording account: walk-account.ts). The rules:
 * - an idle poll asks each watched resource once, from its newest record minus
 *   the overlap, contacts and inspections sorted by updated_at, inspection
 *   events and attachments with no sort; it leaves the stored state unchanged;
 * - the budget always allows a poll's first request, and stops before a page
 *   it cannot afford (twice the slowest page must still fit);
 * - a walk the budget cut short resumes at its cursor next poll instead of
 *   restarting, then a window from where it was first cut, minus the overlap,
 *   follows it; a walk cut before its first page has nothing behind a cursor,
 *   so none follows; the resource a poll could not finish, or never reached,
 *   goes first next poll; a page the poll ran out of time for is asked again;
 * - a refused (stale) cursor restarts the window: an ascending walk at its
 *   newest record, a newest-first or id-order walk at its own start.
 */
import { REMEMBER_MS } from '../../nodes/InspectionBusinessTrigger/memory';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import {
	account,
	BOTH,
	EVENT_OF,
	iso,
	MINUTE,
	ONE_PAGE,
	OVERLAP,
	PAGE,
	said,
	TWO_PAGES,
} from './walk-account';

export function walk(): void {
	describe('an idle poll', () => {
		test('asks each watched resource once, from its newest record minus the overlap, and changes no state', async () => {
			const { api, T0, poll, put } = account(Object.values(EVENT_OF));
			// Two records each, ten minutes apart: the baseline pages; the window after it lists only the newest.
			const resources: Resource[] = ['contacts', 'inspections', 'events', 'attachments'];
			resources.forEach((resource, i) => {
				put(resource, 10 * i + 1, i * MINUTE);
				put(resource, 10 * i + 2, (10 + i) * MINUTE);
			});
			expect((await poll()).items).toEqual([]);
			api.advance(10 * MINUTE);

			const idle = await poll();
			const since = (i: number) => iso(T0 + (10 + i) * MINUTE - OVERLAP);
			expect(idle.exchanges.map((e) => e.request)).toStrictEqual([
				{
					resource: 'contacts',
					query: { limit: PAGE, sort: 'updated_at', updated_since: since(0) },
					cursor: null,
				},
				{
					resource: 'inspections',
					query: {
						limit: PAGE,
						sort: 'updated_at',
						updated_since: since(1),
						include_deleted: true,
						include_canceled: true,
					},
					cursor: null,
				},
				{ resource: 'events', query: { limit: PAGE, updated_since: since(2) }, cursor: null },
				{ resource: 'attachments', query: { limit: PAGE, updated_since: since(3) }, cursor: null },
			]);
			expect(idle.items).toEqual([]);
			expect(idle.complete).toBe(true);
			api.advance(10 * MINUTE);
			const again = await poll();
			expect(again.asked).toEqual(idle.asked);
			expect(again.stored).toEqual(idle.stored);
		});
	});

	describe('the budget', () => {
		test.each([
			[29, 1],
			[30, 2],
			[39, 2],
			[40, 3],
		])('of %i ms, with pages of 10 ms, allows %i page(s)', async (budgetMs, pages) => {
			const { poll, put } = account(['contact.updated']);
			for (let n = 1; n <= 10; n++) put('contacts', n, n * MINUTE);
			const { asked: requests, complete } = await poll({ budgetMs });
			expect(requests).toHaveLength(pages);
			expect(complete).toBe(false);
		});

		test('spent before the first request still allows it, so every poll makes progress', async () => {
			const { api, poll, put } = account(['contact.updated']);
			put('contacts', 1, 0);
			// The local clock moves on between the poll's start and its first request.
			let reads = 0;
			const start = api.localNow;
			const now = () => (reads++ === 0 ? start - 1 : start);
			const first = await poll({ budgetMs: 0, now });
			// A baseline of contacts reads what changed in the time the trigger remembers, and a day.
			const since = start - REMEMBER_MS - 24 * 3_600_000;
			expect(first.asked).toEqual([{ resource: 'contacts', since, cursor: null }]);
			expect(first.complete).toBe(true);
		});
	});

	describe('a walk the budget cuts short', () => {
		/** A live account with c0 at 0 and three contacts made 20 min later. */
		async function liveContacts() {
			const acct = account(BOTH.contacts);
			acct.put('contacts', 100, 0);
			await acct.poll();
			for (const n of [1, 2, 3]) acct.put('contacts', n, (19 + n) * MINUTE);
			return acct;
		}

		test('resumes at its cursor next poll, then a window from where it was first cut, minus the overlap', async () => {
			const { T0, poll } = await liveContacts();
			const cut = await poll({ budgetMs: TWO_PAGES });
			expect(cut.asked).toHaveLength(2);
			expect(cut.complete).toBe(false);
			const cursor = cut.state.contacts!.unfinishedWalk!.nextPageCursor;
			expect(cursor).toBe(cut.exchanges[1].page.nextCursor);

			const next = await poll();
			const window = T0 - OVERLAP;
			const afterCut = T0 + 20 * MINUTE - OVERLAP; // contact 1, the newest record when cut
			expect(next.asked.map((a) => [a.cursor === null, a.since])).toEqual([
				[false, window],
				[false, window],
				[true, afterCut],
				[false, afterCut],
				[false, afterCut],
			]);
			expect(next.asked[0].cursor).toBe(cursor);
			expect(next.state.contacts!.unfinishedWalk).toBeUndefined();
			expect([...said(cut.items), ...said(next.items)]).toEqual([
				'contact.created 1',
				'contact.created 2',
				'contact.created 3',
			]);
		});

		test('asks a page again next poll when the poll ran out of time while asking it', async () => {
			const { poll } = await liveContacts();
			const cut = await poll({
				rewrite: (page, index) =>
					index === 2 ? { records: [], nextCursor: null, outOfTime: true } : page,
			});
			expect(cut.asked).toHaveLength(2);
			expect(cut.complete).toBe(false);
			const next = await poll();
			expect(next.asked[0].cursor).toBe(cut.exchanges[0].page.nextCursor);
			expect(said([...cut.items, ...next.items])).toEqual([
				'contact.created 1',
				'contact.created 2',
				'contact.created 3',
			]);
		});

		// Contacts take several pages, the one inspection one page: a one-page budget never reaches it.
		test.each(['live', 'baseline'])(
			'in a %s poll: the resource it never reached goes first next poll, in one request, and ends its baseline',
			async (phase) => {
				const { poll, put } = account(['contact.updated', 'inspection.updated']);
				// One inspection: its walk takes one page.
				put('inspections', 11, 0);
				if (phase === 'live') {
					put('contacts', 100, 0);
					await poll();
				}
				for (const n of [1, 2, 3]) put('contacts', n, (19 + n) * MINUTE);
				const cut = await poll({ budgetMs: ONE_PAGE });
				expect(cut.asked.map((a) => a.resource)).toEqual(['contacts']);
				expect(cut.complete).toBe(false);

				const next = await poll();
				const resources = next.asked.map((a) => a.resource);
				expect(resources[0]).toBe('inspections');
				expect(resources.filter((r) => r === 'inspections')).toHaveLength(1);
				expect(next.asked[1]).toMatchObject({
					resource: 'contacts',
					cursor: cut.exchanges[0].page.nextCursor,
				});
				expect(next.complete).toBe(true);
				expect(next.state.inspections!.phase).toBe('live');
				expect(next.state.inspections!.baselineBegan).toBeUndefined();
			},
		);

		test('that it could not finish, after others it did, goes first next poll', async () => {
			const { poll, put } = account(['contact.updated', 'inspection.updated']);
			put('contacts', 1, 0);
			for (let n = 11; n <= 15; n++) put('inspections', n, n * MINUTE);
			// Contacts may run to 25 ms, inspections to 50: one contact page, then three inspection pages.
			const cut = await poll({ budgetMs: 50 });
			expect(cut.asked.map((a) => a.resource)).toEqual([
				'contacts',
				'inspections',
				'inspections',
				'inspections',
			]);
			expect(cut.complete).toBe(false);
			const next = await poll();
			expect(next.asked[0]).toMatchObject({
				resource: 'inspections',
				cursor: cut.exchanges[3].page.nextCursor,
			});
		});
	});

	describe('a refused (stale) cursor', () => {
		// A walk cut after its first page; the next poll's API refuses the stored cursor.
		test.each<{
			name: string;
			resource: Resource;
			live: boolean;
			restartAt: (T0: number) => number | null;
		}>([
			{
				name: 'an ascending walk restarts at the newest record it processed',
				resource: 'contacts',
				live: true,
				restartAt: (T0) => T0,
			},
			{
				name: 'a newest-first walk restarts its window',
				resource: 'attachments',
				live: true,
				restartAt: (T0) => T0 - OVERLAP,
			},
			{
				name: "the attachments' newest-first baseline restarts from the newest",
				resource: 'attachments',
				live: false,
				restartAt: () => null,
			},
		])('$name', async ({ resource, live, restartAt }) => {
			const { T0, poll, put } = account(BOTH[resource]);
			put(resource, 100, 0);
			if (live) await poll();
			for (const n of [1, 2, 3]) put(resource, n, (19 + n) * MINUTE);
			const cut = await poll({ budgetMs: ONE_PAGE });
			expect(cut.complete).toBe(false);
			const cursor = cut.state[resource]!.unfinishedWalk!.nextPageCursor;
			expect(cursor).not.toBeNull();

			const next = await poll({ plan: { refuseStoredCursors: true } });
			expect(next.asked[0].cursor).toBe(cursor);
			expect(next.asked[1]).toEqual({ resource, since: restartAt(T0), cursor: null });
			const items = [...cut.items, ...next.items, ...(await poll()).items];
			expect(said(items).sort()).toEqual(
				live ? [1, 2, 3].map((n) => `${BOTH[resource][0]} ${n}`) : [],
			);
		});

		test('after a first page of only an unreadable record, restarts where the walk began', async () => {
			const { T0, poll, put } = account(BOTH.contacts);
			put('contacts', 100, 0);
			await poll();
			for (const n of [1, 2]) put('contacts', n, (19 + n) * MINUTE);
			const cut = await poll({
				budgetMs: ONE_PAGE,
				rewrite: (page) => ({ ...page, records: [{ email: 'no id' }] }),
			});
			expect(cut.items.map((item) => item.event)).toEqual(['contact.unreadable']);
			const next = await poll({ plan: { refuseStoredCursors: true } });
			// Stale, restart, two more pages; then the window from where it was cut (the mark).
			expect(next.asked.map((a) => [a.cursor === null, a.since])).toEqual([
				[false, T0 - OVERLAP],
				[true, T0 - OVERLAP],
				[false, T0 - OVERLAP],
				[false, T0 - OVERLAP],
				[true, T0 - OVERLAP],
				[false, T0 - OVERLAP],
				[false, T0 - OVERLAP],
			]);
			expect(said(next.items)).toEqual(['contact.created 1', 'contact.created 2']);
		});
	});
}
