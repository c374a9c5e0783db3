/**
 * The polling trigger's core (runPoll) when clocks disagree, against the
 * in-memory API: a record dated ahead of the server's clock, a new version
 * dated before the one seen, and the server's clock set back between polls.
 * The property test (poll.property.test.ts) covers the same at random.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import { contentHashOf } from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import { FakeApi, uuid } from './fake-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

export function clocks(): void {
	/** The node's defaults, one item per change (version 1's shape, which these tests read). */
	const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

	const MINUTE = 60_000;
	const HOUR = 60 * MINUTE;
	const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);

	function account() {
		const api = new FakeApi(200, 0);
		let state: IDataObject = {};
		const poll = async () => {
			api.beginPoll({});
			const result = await runPoll(state, api, {
				...PER_CHANGE,
				events: ALL_EVENTS,
				overlapMs: 5 * MINUTE,
				emitExisting: false,
				budgetMs: Number.MAX_SAFE_INTEGER,
				now: () => api.localNow,
			});
			state = JSON.parse(JSON.stringify(result.state)) as IDataObject;
			return result.items.map((item) => {
				const record = item.record as IDataObject;
				return [item.event, record.id, record.updated_at];
			});
		};
		const contact = (n: number, skewMs = 0) =>
			api.change(
				'contacts',
				uuid(n),
				(previous, now) => ({
					...previous,
					id: uuid(n),
					name: `changed at ${now}`,
					created_at: now,
				}),
				0,
				skewMs,
			);
		const updatedAt = (n: number) =>
			api.records.get(`contacts:${uuid(n)}`)?.versions.at(-1)?.data.updated_at;
		return { api, poll, contact, updatedAt };
	}

	test('a record dated 3 h ahead of the server is emitted once and hides none of the changes after it', async () => {
		const { api, poll, contact, updatedAt } = account();
		contact(1);
		expect(await poll()).toEqual([]);

		contact(2, 3 * HOUR);
		expect(await poll()).toEqual([['contact.created', uuid(2), updatedAt(2)]]);
		api.advance(MINUTE);
		contact(3);
		expect(await poll()).toEqual([['contact.created', uuid(3), updatedAt(3)]]);
		api.advance(10 * MINUTE);
		contact(1);
		expect(await poll()).toEqual([['contact.updated', uuid(1), updatedAt(1)]]);
		expect(await poll()).toEqual([]);
	});

	test('a new version dated before the version already seen is emitted', async () => {
		const { poll, contact, updatedAt } = account();
		expect(await poll()).toEqual([]);
		contact(1, 2 * HOUR);
		const ahead = updatedAt(1);
		expect(await poll()).toEqual([['contact.created', uuid(1), ahead]]);

		contact(1); // the writer's clock is right again: updated_at goes back 2 h
		expect(Date.parse(String(updatedAt(1)))).toBeLessThan(Date.parse(String(ahead)));
		const items = await poll();
		expect(items).toEqual([['contact.updated', uuid(1), updatedAt(1)]]);
		expect(await poll()).toEqual([]);
	});

	test('after the server clock is set back 2 h, the changes it dates are found in the next poll, and none twice', async () => {
		const { api, poll, contact, updatedAt } = account();
		contact(1);
		expect(await poll()).toEqual([]);
		api.advance(20 * MINUTE);
		contact(2);
		expect(await poll()).toEqual([['contact.created', uuid(2), updatedAt(2)]]);

		api.setClockOffset(-2 * HOUR);
		api.advance(30 * MINUTE);
		contact(3);
		contact(1);
		expect(await poll()).toEqual([
			['contact.created', uuid(3), updatedAt(3)],
			['contact.updated', uuid(1), updatedAt(1)],
		]);
		expect(await poll()).toEqual([]);
	});

	test('a version is told by its content: key order and signed links (new on every read) do not count', () => {
		const record = {
			id: uuid(1),
			updated_at: '2030-01-01T00:00:00.000Z',
			notes: 'a',
			photo_url: 'x?sig=1',
		};
		const sameContent = {
			photo_url: 'x?sig=2',
			notes: 'a',
			updated_at: record.updated_at,
			id: uuid(1),
		};
		expect(contentHashOf(sameContent)).toBe(contentHashOf(record));
		expect(contentHashOf({ ...record, notes: 'b' })).not.toBe(contentHashOf(record));
		expect(contentHashOf({ ...record, cover_photo_url: 'y', url: 'z' })).toBe(
			contentHashOf(record),
		);
	});
}
