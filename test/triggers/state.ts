/**
 * The trigger's state (memory/state.ts): stored under the fields' own names
 * (one vocabulary) and read back as it was; anything else is no state; what
 * the trigger lets go (docs/moments.md): memories 90 days past their
 * activity, every memory when no selected event reads one, versions the next
 * window no longer lists, and, past a cap or the total budget, the oldest
 * activity first. And `changes`, the watched fields as an item shows them.
 */
import type { IDataObject } from 'n8n-workflow';

import { WATCHED_FIELDS } from '../../nodes/InspectionBusinessTrigger/judge';
import { changesBetween } from '../../nodes/InspectionBusinessTrigger/judge/changes';
import {
	freshState,
	keepWithinBudget,
	letGo,
	memoryOf,
	readState,
	REMEMBER_MS,
	type ResourceState,
	writeState,
} from '../../nodes/InspectionBusinessTrigger/memory';

export function state(): void {
	const NOW = Date.parse('2030-06-01T00:00:00Z');
	const DAY = 86_400_000;

	/** A state of inspections held at the given ages (days before NOW). */
	function inspectionsAged(days: number[]): ResourceState {
		const state = freshState('inspections', 'live');
		days.forEach((age, i) =>
			state.records.set(`k${i}`, {
				updatedAt: NOW - age * DAY,
				hash: 'h',
				memory: memoryOf('inspections', { status: 'confirmed' }),
			}),
		);
		return state;
	}
	const keys = (state: ResourceState, withMemory: boolean) =>
		[...state.records.keys()].filter(
			(key) => (state.records.get(key)!.memory !== undefined) === withMemory,
		);

	test('every field is stored under its own name, and a state read and written again is the same text', () => {
		const state: ResourceState = {
			...inspectionsAged([1]),
			highWaterMark: NOW,
			serverClockOffset: -1_200,
			unfinishedWalk: {
				windowStart: NOW - 300_000,
				updatedSince: NOW - 300_000,
				nextPageCursor: 'next',
				newestProcessed: NOW - 1_000,
				firstCutAt: NOW,
			},
			inheritedWindowStart: NOW - 600_000,
			baselineBegan: NOW - 60_000,
			startingFrom: NOW - DAY,
			endedFrom: NOW - DAY,
			timeMomentsDue: NOW + DAY,
			timeMomentsFor: '[24]',
			sweptAt: NOW,
		};
		const stored = writeState({ resources: { inspections: state }, goesFirst: 'inspections' });
		const { records, ...fields } = state;
		expect(Object.keys(stored.inspections as IDataObject).sort()).toEqual(
			[...Object.keys(fields), 'records'].sort(),
		);
		const text = JSON.stringify(stored);
		expect(JSON.stringify(writeState(readState(JSON.parse(text) as IDataObject)))).toBe(text);
		expect(records.size).toBe(1);
	});

	test.each<[string, IDataObject]>([
		['nothing kept yet', {}],
		['another format', { format: 3, contacts: { phase: 'live', highWaterMark: 1, records: '' } }],
		['a hand edit', { format: 2, contacts: { phase: 'sleeping', highWaterMark: 1, records: '' } }],
	])('%s is no state: the trigger takes a baseline', (_case, data) => {
		expect(readState(data).resources).toEqual({});
	});

	describe('what the trigger lets go', () => {
		const byAge = {
			now: NOW,
			activity: (updatedAt: number) => updatedAt,
			keepVersionsFrom: NOW - 300_000,
		};

		test('a memory 90 days past its activity; its version only while the next window may list it', () => {
			const state = inspectionsAged([10, 89, 91, 400]);
			letGo(state.records, { ...byAge, needsMemory: true });
			expect(keys(state, true)).toEqual(['k0', 'k1']);
			expect(state.records.size).toBe(2);
			const recent = inspectionsAged([91]);
			letGo(recent.records, { ...byAge, needsMemory: true, keepVersionsFrom: NOW - 100 * DAY });
			expect(keys(recent, false)).toEqual(['k0']);
			expect(REMEMBER_MS).toBe(90 * DAY);
		});

		test('an inspection counts from its end, when that is later than its last change', () => {
			const state = inspectionsAged([120]);
			letGo(state.records, { ...byAge, needsMemory: true, activity: () => NOW - 5 * DAY });
			expect(keys(state, true)).toEqual(['k0']);
		});

		test('every memory, when no selected event reads one', () => {
			const state = inspectionsAged([0, 1]);
			letGo(state.records, { ...byAge, needsMemory: false, keepVersionsFrom: NOW - 2 * DAY });
			expect(keys(state, true)).toEqual([]);
			expect(state.records.size).toBe(2);
		});

		test('past the cap, the oldest activity first (ties by key)', () => {
			const state = inspectionsAged([5, 1, 3, 3, 2]);
			letGo(state.records, { ...byAge, needsMemory: true, cap: 3 });
			expect(keys(state, true).sort()).toEqual(['k1', 'k3', 'k4']);
		});

		test('past the budget, memories with the oldest activity first, then the oldest versions', () => {
			const a = inspectionsAged([1, 2, 3]);
			const b = freshState('contacts', 'live');
			b.records.set('c0', {
				updatedAt: NOW - 4 * DAY,
				hash: 'h',
				memory: memoryOf('contacts', { email: 'a@b.c' }),
			});
			const size = (states: ResourceState[]) =>
				states.reduce(
					(sum, s) => sum + [...s.records.keys()].reduce((n, k) => n + s.records.sizeOf(k), 0),
					0,
				);
			const full = size([a, b]);
			// Two characters over: the contact's memory (the oldest activity) is enough to let go.
			keepWithinBudget([a, b], () => (updatedAt) => updatedAt, full - 2);
			expect(keys(b, true)).toEqual([]);
			expect(keys(a, true)).toEqual(['k0', 'k1', 'k2']);
			keepWithinBudget([a, b], () => (updatedAt) => updatedAt, 0);
			expect(a.records.size + b.records.size).toBe(0);
		});
	});

	describe('changes: the watched fields as an item shows them', () => {
		const contact = (over: IDataObject) =>
			memoryOf('contacts', { email: 'ada@x.test', tags: [], roles: [], ...over });

		test('a new record: every watched field with a value, from nothing; a record not held: null', () => {
			expect(
				changesBetween('contacts', 'new', contact({ tags: [{ id: 't', name: 'VIP' }] })),
			).toEqual({
				email: { before: null, after: 'ada@x.test' },
				tags: {
					before: [],
					after: [{ id: 't', name: 'VIP' }],
					added: [{ id: 't', name: 'VIP' }],
					removed: [],
				},
			});
			expect(changesBetween('contacts', null, contact({}))).toBeNull();
			expect(changesBetween('attachments', 'new', {} as never)).toBeNull();
		});

		test('only what differs; a renamed tag is another value, neither added nor removed', () => {
			const before = contact({ tags: [{ id: 't', name: 'Lead' }] });
			expect(
				changesBetween('contacts', before, contact({ tags: [{ id: 't', name: 'Hot lead' }] })),
			).toEqual({
				tags: {
					before: [{ id: 't', name: 'Lead' }],
					after: [{ id: 't', name: 'Hot lead' }],
					added: [],
					removed: [],
				},
			});
			expect(changesBetween('contacts', before, before)).toEqual({});
		});

		test('money in the currency, times as ISO, services and add-ons apart', () => {
			const before = memoryOf('inspections', {
				price: { quote: 425.1 },
				scheduled_for: '2030-03-01T09:00:00Z',
				services: [{ id: 's', name: 'Home' }],
			});
			const after = memoryOf('inspections', {
				price: { quote: 600 },
				scheduled_for: '2030-03-02T09:00:00Z',
				services: [{ id: 's', name: 'Home' }],
				add_ons: [{ id: 'a', name: 'Radon' }],
			});
			expect(changesBetween('inspections', before, after)).toEqual({
				scheduled_for: { before: '2030-03-01T09:00:00.000Z', after: '2030-03-02T09:00:00.000Z' },
				services: {
					before: { services: [{ id: 's', name: 'Home' }], add_ons: [] },
					after: { services: [{ id: 's', name: 'Home' }], add_ons: [{ id: 'a', name: 'Radon' }] },
					added: { services: [], add_ons: [{ id: 'a', name: 'Radon' }] },
					removed: { services: [], add_ons: [] },
				},
				'price.quote': { before: 425.1, after: 600 },
			});
		});

		test('a list held cut says so, and adds nothing it cannot see', () => {
			const tags = Array.from({ length: 40 }, (_, i) => ({
				id: `t${String(i).padStart(2, '0')}`,
				name: null,
			}));
			const held = contact({ tags });
			const stored = {
				...held,
				tags: { ...held.tags, entries: held.tags.entries.slice(0, 32), complete: false },
			};
			const change = changesBetween(
				'contacts',
				stored,
				contact({ tags: [...tags.slice(1), { id: 'zz', name: null }] }),
			);
			expect(change!.tags).toMatchObject({
				cut: true,
				added: [],
				removed: [{ id: 't00', name: null }],
			});
		});

		test('the docs name every watched field (scripts/events-doc.ts makes their table from WATCHED_FIELDS)', () => {
			expect(WATCHED_FIELDS.inspections.map((field) => field.name)).toContain('price.amount_paid');
		});
	});
}
