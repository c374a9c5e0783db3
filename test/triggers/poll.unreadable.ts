/**
 * One record the trigger cannot read never fails a poll (a failed poll saves
 * nothing, so the same record would fail every poll after it): it is reported
 * once, as `<resource>.unreadable` with the record as received and a
 * `problem`, every other change of that poll is reported as usual, and the
 * next polls, whose overlap lists it again, do not report it again unless it
 * changes. A record with a usable id is remembered by it: readable again, it
 * is judged against its last readable version; broken again, it is reported
 * again. An unreadable attachment stays known while it is listed. A lone
 * surrogate (text cut in the middle of an emoji) is readable: its record is
 * reported as the change it is.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import type { TriggerItem } from '../../nodes/InspectionBusinessTrigger/judge';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import type { ListSource } from '../../nodes/InspectionBusinessTrigger/poll';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { FakeApi, uuid } from './fake-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

export function unreadablePolls(): void {
	/** The node's defaults, one item per change (version 1's shape, which these tests read). */
	const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

	const MINUTE = 60_000;
	const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);

	/** Nested `depth` levels, built without recursion (deep enough to overflow any recursive walk). */
	function nested(depth: number): IDataObject {
		return JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as IDataObject;
	}

	/** The fake API with raw records added to the first page of a list, as a faulty API might serve them. */
	class WithRaw implements ListSource {
		readonly raw: Array<{ resource: Resource; record: unknown }> = [];
		constructor(private readonly api: FakeApi) {}
		async fetch(request: Parameters<ListSource['fetch']>[0]) {
			const page = await this.api.fetch(request);
			if (request.cursor !== null) return page;
			const extra = this.raw.filter((r) => r.resource === request.resource).map((r) => r.record);
			return { ...page, records: [...page.records, ...(extra as IDataObject[])] };
		}
	}

	function setup() {
		const api = new FakeApi(200, 0);
		const source = new WithRaw(api);
		let state: IDataObject = {};
		const poll = async (): Promise<TriggerItem[]> => {
			api.beginPoll({});
			api.advance(MINUTE);
			const result = await runPoll(state, source, {
				...PER_CHANGE,
				events: ALL_EVENTS,
				overlapMs: 5 * MINUTE,
				emitExisting: false,
				budgetMs: Number.MAX_SAFE_INTEGER,
				now: () => api.localNow,
			});
			// As n8n keeps it: JSON in its database.
			state = JSON.parse(JSON.stringify(result.state)) as IDataObject;
			return result.items;
		};
		const contact = (n: number, email: string) =>
			api.change('contacts', uuid(n), (previous, now) => ({
				id: uuid(n),
				email,
				created_at: previous?.created_at ?? now,
			}));
		return { api, source, poll, contact };
	}

	const summary = (items: TriggerItem[]) =>
		items.map((item) => ({
			event: item.event,
			id: (item.record as IDataObject | null)?.id ?? null,
			problem: item.problem ?? null,
		}));

	test('each unreadable record is reported once, and the changes around it as usual', async () => {
		const { api, source, poll, contact } = setup();
		contact(1, 'a@x.test');
		contact(2, 'b@x.test');
		api.change('inspections', uuid(10), (_p, now) => ({
			id: uuid(10),
			status: 'waiting',
			created_at: now,
		}));
		expect(await poll()).toEqual([]); // the baseline

		const now = new Date(api.serverNow).toISOString();
		source.raw.push(
			{ resource: 'contacts', record: null },
			{ resource: 'contacts', record: { email: 'no-id@x.test', updated_at: now } },
			{ resource: 'inspections', record: { id: uuid(11), updated_at: 'yesterday-ish' } },
			{ resource: 'inspections', record: { id: uuid(12), updated_at: now, deep: nested(20_000) } },
		);
		contact(1, 'a.changed@x.test');
		api.change('events', uuid(20), (_p, at) => ({
			id: uuid(20),
			inspection_id: uuid(10),
			name: 'Pick-up \ud83d',
			created_at: at,
		}));
		const items = await poll();
		expect(summary(items)).toEqual(
			expect.arrayContaining([
				{ event: 'contact.updated', id: uuid(1), problem: null },
				{ event: 'inspection_event.created', id: uuid(20), problem: null },
				{ event: 'contact.unreadable', id: null, problem: expect.stringMatching(/null/) },
				{ event: 'contact.unreadable', id: null, problem: expect.stringMatching(/no id/) },
				{
					event: 'inspection.unreadable',
					id: uuid(11),
					problem: expect.stringMatching(/updated_at/),
				},
				{ event: 'inspection.unreadable', id: uuid(12), problem: expect.stringMatching(/deeper/) },
			]),
		);
		expect(items).toHaveLength(6);
		for (const item of items) expect(item.events).toEqual([item.event]);
		const appointment = items.find((item) => item.event === 'inspection_event.created')!;
		expect((appointment.changes as IDataObject).name).toEqual({
			before: null,
			after: 'Pick-up \ud83d',
		});
		// The deep record comes cut, so n8n can save the item.
		expect(() => JSON.stringify(items)).not.toThrow();

		// The overlap lists them all again: nothing is reported twice; a change after them is.
		contact(2, 'b.changed@x.test');
		expect(summary(await poll())).toEqual([
			{ event: 'contact.updated', id: uuid(2), problem: null },
		]);
		api.change('events', uuid(20), (previous) => ({ ...previous!, name: 'Pick-up \udc00 again' }));
		const renamed = await poll();
		expect(summary(renamed)).toEqual([
			{ event: 'inspection_event.updated', id: uuid(20), problem: null },
		]);
		expect((renamed[0].changes as IDataObject).name).toEqual({
			before: 'Pick-up \ud83d',
			after: 'Pick-up \udc00 again',
		});

		// An unreadable record that changes is reported again, once.
		source.raw[2].record = { id: uuid(11), updated_at: 'still not a time', notes: 'changed' };
		expect(summary(await poll())).toEqual([
			{
				event: 'inspection.unreadable',
				id: uuid(11),
				problem: expect.stringMatching(/updated_at/),
			},
		]);
		expect(await poll()).toEqual([]);
	});

	test('an unreadable record in the first poll is reported too, and the baseline goes on', async () => {
		const { api, source, poll, contact } = setup();
		contact(1, 'a@x.test');
		source.raw.push({ resource: 'contacts', record: 'not a record' });
		expect(summary(await poll())).toEqual([
			{ event: 'contact.unreadable', id: null, problem: expect.stringMatching(/a string/) },
		]);
		api.advance(MINUTE);
		contact(1, 'a.changed@x.test');
		expect(summary(await poll())).toEqual([
			{ event: 'contact.updated', id: uuid(1), problem: null },
		]);
	});

	test('a record unreadable for a while is judged against its last readable version, and reported again if it breaks again', async () => {
		const { api, source, poll } = setup();
		const made = new Date(api.serverNow).toISOString();
		const readable = { id: uuid(30), email: 'a@x.test', created_at: made, updated_at: made };
		const broken = { id: uuid(30), email: 'a@x.test', created_at: made, updated_at: 'soon' };
		source.raw.push({ resource: 'contacts', record: readable });
		expect(await poll()).toEqual([]); // the baseline

		source.raw[0].record = broken;
		expect(summary(await poll())).toEqual([
			{ event: 'contact.unreadable', id: uuid(30), problem: expect.stringMatching(/updated_at/) },
		]);

		const fixed = {
			...readable,
			email: 'b@x.test',
			updated_at: new Date(api.serverNow).toISOString(),
		};
		source.raw[0].record = fixed;
		const items = await poll();
		expect(summary(items)).toEqual([{ event: 'contact.updated', id: uuid(30), problem: null }]);
		expect([items[0].previous, items[0].changes]).toEqual([
			{ updated_at: made },
			{ email: { before: 'a@x.test', after: 'b@x.test' } },
		]);

		// Broken again as it was before: a change from the readable version, reported once.
		source.raw[0].record = broken;
		expect(summary(await poll())).toEqual([
			{ event: 'contact.unreadable', id: uuid(30), problem: expect.stringMatching(/updated_at/) },
		]);
		expect(await poll()).toEqual([]);
	});

	test('an unreadable attachment listed poll after poll is reported once, also hours after it was first seen', async () => {
		const { api, source, poll } = setup();
		const attach = (n: number) =>
			api.change('attachments', `${uuid(10)}/f${n}`, (_p, now) => ({
				id: `f${n}`,
				inspection_id: uuid(10),
				created_at: now,
			}));
		attach(0);
		expect(await poll()).toEqual([]); // the baseline
		source.raw.push({
			resource: 'attachments',
			record: { id: 'f-bad', inspection_id: uuid(10), updated_at: 'soon' },
		});
		expect(summary(await poll())).toEqual([
			{ event: 'attachment.unreadable', id: 'f-bad', problem: expect.stringMatching(/updated_at/) },
		]);
		// New attachments move the window on an hour a poll, far past when it was first seen.
		for (let n = 1; n <= 6; n++) {
			api.advance(60 * MINUTE);
			attach(n);
			expect(summary(await poll())).toEqual([
				{ event: 'attachment.added', id: `f${n}`, problem: null },
			]);
		}
	});
}
