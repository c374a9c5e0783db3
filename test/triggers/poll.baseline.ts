/**
 * A baseline that takes several polls: every change dated after the moment it
 * began (the API's time of its first answer) is reported exactly once, a
 * record the baseline had already read with `previous` and `changes`; nothing
 * made before it began is reported, nor what is dated on the very second it
 * began (the Date header's whole second). The stored state keeps that moment under
 * `began`, and a baseline stored without it (an earlier version) is dated by
 * its next poll.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import type { TriggerItem } from '../../nodes/InspectionBusinessTrigger/judge';
import { recordKey } from '../../nodes/InspectionBusinessTrigger/memory';
import { readState, writeState } from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import {
	BaselineStarts,
	MAX_REMEMBERED_MS,
} from '../../nodes/InspectionBusinessTrigger/pollGuards';
import { FakeApi, uuid } from './fake-api';
import { MomentsApi, poller } from './moments-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

export function baselines(): void {
	/** The node's defaults, one item per change (version 1's shape, which these tests read). */
	const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

	const MINUTE = 60_000;
	const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);
	/** FakeApi's cost of one request (its localCostMs): a budget of this much allows one page a poll. */
	const ONE_PAGE_MS = 10;

	function setup(pageSize: number) {
		const api = new FakeApi(pageSize, 0);
		let state: IDataObject = {};
		const poll = async (budgetMs = ONE_PAGE_MS) => {
			api.beginPoll({});
			const result = await runPoll(state, api, {
				...PER_CHANGE,
				events: ALL_EVENTS,
				overlapMs: 5 * MINUTE,
				emitExisting: false,
				budgetMs,
				now: () => api.localNow,
			});
			state = JSON.parse(JSON.stringify(result.state)) as IDataObject;
			api.advance(15_000);
			return result;
		};
		const contact = (n: number, email: string) =>
			api.change('contacts', uuid(n), (previous, now) => ({
				id: uuid(n),
				email,
				created_at: previous?.created_at ?? now,
			}));
		const inspection = (n: number, status: string) =>
			api.change('inspections', uuid(n), (previous, now) => ({
				id: uuid(n),
				status,
				reports: { status: 'na' },
				deleted: false,
				created_at: previous?.created_at ?? now,
			}));
		return { api, poll, contact, inspection, state: () => state };
	}

	const ids = (items: TriggerItem[]) =>
		items.map((item) => `${item.event} ${String((item.record as IDataObject).id)}`).sort();

	test('changes made while a baseline of several polls runs are each reported once; none made before it', async () => {
		const { api, poll, contact, inspection, state } = setup(3);
		for (let n = 1; n <= 9; n++) contact(n, `c${n}@x.test`);
		for (let n = 101; n <= 109; n++) inspection(n, 'waiting');
		contact(1, 'c1.before@x.test'); // changed before the baseline: part of it
		api.advance(5_000);

		const items: TriggerItem[] = [];
		const before = api.serverNow;
		const first = await poll();
		expect(first.items).toEqual([]);
		expect(first.complete).toBe(false);
		const began = readState(state()).resources.contacts!.baselineBegan!;
		expect(began).toBeGreaterThan(before);
		expect(began).toBeLessThanOrEqual(before + ONE_PAGE_MS);
		// Every resource's baseline began with that first answer, also those reached in later polls.
		expect(readState(state()).resources.inspections!.baselineBegan).toBe(began);

		// The first page (contacts 1–3) has been read; the rest, and every inspection, has not.
		contact(2, 'c2.during@x.test'); // read by the baseline, then changed
		contact(8, 'c8.during@x.test'); // not read yet
		contact(10, 'c10@x.test'); // created
		inspection(109, 'confirmed'); // not read yet: what it was before is unknown
		let polls = 1;
		let changedAgain = false;
		let inspectionsRead = false;
		for (; polls < 60; polls++) {
			const result = await poll();
			items.push(...result.items);
			const c2Reported = items.some((item) => (item.record as IDataObject).id === uuid(2));
			if (c2Reported && !changedAgain) {
				contact(2, 'c2.again@x.test'); // changed once more while the baseline still runs
				changedAgain = true;
			}
			const seen = readState(state()).resources.inspections!.records;
			if (
				!inspectionsRead &&
				seen.get(recordKey('inspections', { id: uuid(101) })!) !== undefined
			) {
				inspection(101, 'confirmed'); // read by the baseline, then confirmed
				inspectionsRead = true;
			}
			if (result.complete && readState(state()).resources.inspections!.phase === 'live') break;
		}
		expect(changedAgain && inspectionsRead).toBe(true);
		expect(polls).toBeGreaterThan(4); // the baseline did take several polls
		for (let i = 0; i < 3; i++) items.push(...(await poll(Number.MAX_SAFE_INTEGER)).items);

		expect(ids(items)).toEqual(
			[
				`contact.updated ${uuid(2)}`,
				`contact.updated ${uuid(2)}`,
				`contact.updated ${uuid(8)}`,
				`contact.created ${uuid(10)}`,
				`inspection.confirmed ${uuid(101)}`,
				`inspection.updated ${uuid(109)}`,
			].sort(),
		);
		const c2 = items.filter((item) => (item.record as IDataObject).id === uuid(2));
		expect(c2.map((item) => item.changes)).toEqual([
			{ email: { before: 'c2@x.test', after: 'c2.during@x.test' } },
			{ email: { before: 'c2.during@x.test', after: 'c2.again@x.test' } },
		]);
		expect(c2[0].previous).toEqual({ updated_at: expect.any(String) });
		const confirmed = items.find((item) => item.event === 'inspection.confirmed')!;
		expect(confirmed.changes).toEqual({ status: { before: 'waiting', after: 'confirmed' } });
		// Not read before it changed: reported, as updated, with nothing to compare.
		const unread = items.find((item) => (item.record as IDataObject).id === uuid(109))!;
		expect([unread.previous, unread.changes]).toEqual([null, null]);
		// Once live, the baseline's start is no longer kept.
		expect(readState(state()).resources.contacts!.baselineBegan).toBeUndefined();
	});

	/** The Date header counts whole seconds: each answer's time is dated back to the second. */
	function datedInWholeSeconds(api: FakeApi) {
		const fetch = api.fetch.bind(api);
		api.fetch = async (request) => {
			const page = await fetch(request);
			return { ...page, serverTime: Math.floor(page.serverTime! / 1_000) * 1_000 };
		};
	}

	test('what the first answer lists existed when the baseline began, even dated within its second', async () => {
		const { api, poll, contact } = setup(200);
		contact(1, 'a@x.test');
		datedInWholeSeconds(api);
		// The contact above is dated within the second of the answer, before the answer.
		api.advance(1_000 - (api.serverNow % 1_000) - 600);
		expect((await poll(Number.MAX_SAFE_INTEGER)).items).toEqual([]);
		contact(1, 'b@x.test');
		expect(ids((await poll(Number.MAX_SAFE_INTEGER)).items)).toEqual([
			`contact.updated ${uuid(1)}`,
		]);
	});

	test('what a later page lists dated on the very second the baseline began existed too', async () => {
		const { api, poll, contact } = setup(3);
		for (let n = 1; n <= 5; n++) contact(n, `c${n}@x.test`);
		datedInWholeSeconds(api);
		// Contact 6 is dated on a whole second, the one the first answer is dated back to; it lists last.
		api.advance(1_000 - (api.serverNow % 1_000) - 1);
		contact(6, 'c6@x.test');
		expect(api.serverNow % 1_000).toBe(0);
		expect((await poll(Number.MAX_SAFE_INTEGER)).items).toEqual([]);
		contact(6, 'c6.changed@x.test');
		expect(ids((await poll(Number.MAX_SAFE_INTEGER)).items)).toEqual([
			`contact.updated ${uuid(6)}`,
		]);
	});

	test('a baseline stored without its start (an earlier version) is dated by its next poll, and keeps it', async () => {
		const { poll, contact, state } = setup(2);
		for (let n = 1; n <= 6; n++) contact(n, `c${n}@x.test`);
		await poll();
		const stored = state();
		delete (stored.contacts as IDataObject).baselineBegan; // as an earlier version stored it
		const decoded = readState(stored);
		expect(decoded.resources.contacts!.baselineBegan).toBeUndefined();
		expect(JSON.stringify(writeState(decoded))).toBe(JSON.stringify(stored));

		const { items } = await poll();
		expect(items).toEqual([]);
		const dated = readState(state()).resources.contacts!.baselineBegan!;
		expect(dated).toBeGreaterThan(0);
		expect((state().contacts as IDataObject).baselineBegan).toBe(dated);
		contact(1, 'c1.during@x.test');
		const after: TriggerItem[] = [];
		for (let i = 0; i < 40; i++) after.push(...(await poll()).items);
		expect(ids(after)).toEqual([`contact.updated ${uuid(1)}`]);
	});

	test('a baseline dated from an earlier moment (the discarded test poll at publication) reports the changes since', async () => {
		const { api, contact } = setup(200);
		for (let n = 1; n <= 3; n++) contact(n, `c${n}@x.test`);
		api.advance(5_000);
		const options = {
			...PER_CHANGE,
			events: ALL_EVENTS,
			overlapMs: 5 * MINUTE,
			emitExisting: false,
			budgetMs: Number.MAX_SAFE_INTEGER,
			now: () => api.localNow,
		};
		// The test poll n8n runs at publication: its state is not kept.
		api.beginPoll({});
		const testPoll = await runPoll({}, api, options);
		const starts = new BaselineStarts();
		starts.ended('wf/node', true, testPoll.baselineBegan, api.localNow);
		api.advance(30_000);
		contact(2, 'c2.between@x.test');
		contact(4, 'c4@x.test');
		api.advance(30_000);
		// The first scheduled poll starts from no state again, and dates its baseline from the test poll.
		api.beginPoll({});
		const baselineBegan = starts.startOf('wf/node', api.localNow);
		expect(baselineBegan).toBe(testPoll.baselineBegan);
		const first = await runPoll({}, api, { ...options, baselineBegan });
		expect(ids(first.items)).toEqual(
			[`contact.updated ${uuid(2)}`, `contact.created ${uuid(4)}`].sort(),
		);
		// Once a poll starts from a kept state, the moment is forgotten.
		starts.ended('wf/node', false, undefined, api.localNow);
		expect(starts.startOf('wf/node', api.localNow)).toBeUndefined();
	});

	test('a remembered baseline start is kept from the first poll, and not used once a day old', () => {
		const starts = new BaselineStarts();
		starts.ended('n', true, 1_000, 0);
		starts.ended('n', true, 5_000, 10); // a later poll from no state keeps the earlier start
		expect(starts.startOf('n', 20)).toBe(1_000);
		expect(starts.startOf('n', MAX_REMEMBERED_MS + 1)).toBeUndefined();
		starts.ended('n', true, 9_000, MAX_REMEMBERED_MS + 1);
		expect(starts.startOf('n', MAX_REMEMBERED_MS + 2)).toBe(9_000);
		expect(starts.startOf('other', 0)).toBeUndefined();
	});

	const idOf = (item: TriggerItem) => (item.record as IDataObject).id;

	test('with Emit Existing, the first walk reports each record once as existing, and then only changes', async () => {
		const api = new MomentsApi();
		const first = api.createInspection();
		const second = api.createInspection();
		const poll = poller(api, ['inspection.updated', 'inspection.created'], { emitExisting: true });
		const existing = await poll();
		expect(existing.map((item) => [item.event, item.events, idOf(item)])).toEqual([
			['inspection.existing', ['inspection.existing'], first.id],
			['inspection.existing', ['inspection.existing'], second.id],
		]);
		expect(await poll()).toEqual([]);
		api.change('inspections', String(first.id), (r) => {
			r.notes = 'gate code 4411';
		});
		expect((await poll()).map((item) => [item.event, idOf(item)])).toEqual([
			['inspection.updated', first.id],
		]);
	});
}
