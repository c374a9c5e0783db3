/**
 * The arithmetic of `npm run bench:trigger-state`: requests grouped into polls, which polls read
 * back (a baseline) and which only recent changes (idle), where the baseline ends, what an
 * emitting poll wrote beside the idle polls in its window, and issue 45's goals.
 */
import type { LogEntry } from '../../sandbox/requestlog';
import {
	baselineEnd,
	pollsIn,
	readsBack,
	startsOver,
	type Poll,
	walksBegun,
} from '../../bench/trigger-state-probes';
import {
	type AccountFigures,
	emitWrites,
	goals,
	MB,
	type StateFigures,
	type Window,
} from '../../bench/trigger-state-report';

const T0 = Date.parse('2027-03-01T12:00:00Z');
const DAY = 86_400_000;
const entry = (ms: number, path: string, query: Record<string, string> = {}): LogEntry => ({
	method: 'GET',
	path,
	query,
	status: 200,
	key: 'k',
	time: new Date(T0 + ms).toISOString(),
});
const recent = { updated_since: new Date(T0 - 3_600_000).toISOString() };
const poll = (...requests: LogEntry[]): Poll => ({
	start: Date.parse(requests[0].time),
	end: Date.parse(requests[requests.length - 1].time),
	requests,
});
const idle = (at: number) =>
	poll(entry(at, '/v1/contacts', recent), entry(at + 50, '/v1/inspections', recent));
const back = (at: number) =>
	poll(entry(at, '/v1/contacts'), entry(at + 500, '/v1/contacts', { cursor: 'c2' }));
const nextPage = { ...recent, cursor: 'c2' };

describe('trigger state bench: polls in the request log', () => {
	it('groups requests into polls by gaps of more than 3 s, in time order', () => {
		const polls = pollsIn([
			entry(10_000, '/v1/contacts'),
			entry(0, '/v1/contacts'),
			entry(2500, '/v1/inspections'),
			entry(5000, '/v1/events'),
		]);
		expect(polls.map((p) => p.requests.map((r) => r.path))).toEqual([
			['/v1/contacts', '/v1/inspections', '/v1/events'],
			['/v1/contacts'],
		]);
	});

	it('tells a poll that reads back from one that reads only recent changes', () => {
		expect(readsBack(idle(0))).toBe(false);
		expect(readsBack(poll(entry(0, '/v1/inspections', { ids: 'a,b' })))).toBe(false);
		expect(readsBack(back(0))).toBe(true);
		expect(readsBack(poll(entry(0, '/v1/contacts')))).toBe(true);
		const ninetyDaysAgo = new Date(T0 - 90 * DAY).toISOString();
		expect(readsBack(poll(entry(0, '/v1/contacts', { updated_since: ninetyDaysAgo })))).toBe(true);
		expect(
			readsBack(poll(entry(0, '/v1/inspections', recent), entry(10, '/v1/inspections', nextPage))),
		).toBe(false);
		expect(readsBack(poll(entry(0, '/v1/contacts', recent), entry(10, '/v1/events')))).toBe(true);
	});

	it('says a restart started the baseline over only when a list it had begun is read from its first page', () => {
		const stored = {
			staticData: JSON.stringify({
				'node:Trigger': {
					format: 3,
					contacts: { phase: 'live', highWaterMark: T0 },
					inspections: {
						phase: 'baseline',
						highWaterMark: T0 - 200 * DAY,
						unfinishedWalk: { nextPageCursor: 'c9' },
					},
					events: { phase: 'baseline', unfinishedWalk: { nextPageCursor: null } },
				},
			}),
			cursor: null,
		};
		const begun = walksBegun(stored, 'Trigger');
		expect([...begun.keys()].sort()).toEqual(['contacts', 'inspections']);
		const resumed = poll(
			entry(0, '/v1/contacts', recent),
			entry(10, '/v1/inspections', { cursor: 'c9' }),
			entry(20, '/v1/events'),
			entry(30, '/v1/attachments'),
		);
		expect(startsOver([resumed], begun)).toBe(false);
		expect(startsOver([resumed, poll(entry(40_000, '/v1/inspections'))], begun)).toBe(true);
		expect(startsOver([poll(entry(0, '/v1/contacts'))], begun)).toBe(true);
		// Its cursor refused, a walk starts again at its newest record: not over.
		const since = (ms: number) => ({ updated_since: new Date(ms).toISOString() });
		expect(startsOver([poll(entry(0, '/v1/inspections', since(T0 - 200 * DAY)))], begun)).toBe(
			false,
		);
		expect(startsOver([poll(entry(0, '/v1/inspections', since(T0 - 300 * DAY)))], begun)).toBe(
			true,
		);
		expect(
			startsOver(
				[poll(entry(0, '/v1/contacts'))],
				walksBegun({ staticData: null, cursor: null }, 'Trigger'),
			),
		).toBe(false);
	});

	it('ends the baseline at the first two idle polls in a row after one that read back', () => {
		expect(baselineEnd([back(0), back(45_000), idle(60_000), idle(70_000)])).toBe(2);
		expect(
			baselineEnd([idle(0), back(10_000), idle(20_000), back(30_000), idle(40_000), idle(50_000)]),
		).toBe(4);
		expect(baselineEnd([idle(0), idle(10_000)])).toBe(-1);
		expect(baselineEnd([back(0), idle(10_000)])).toBe(-1);
	});
});

const state = (bytes: number): StateFigures => ({
	staticDataBytes: bytes,
	cursorBytes: 0,
	parts: {},
});
const window = (cpuMs: number, polls: number, wchar = 0): Window => ({
	ms: 60_000,
	cpuMs,
	wchar,
	writeBytes: wchar,
	polls,
	pollsReadingBack: 0,
	tasksStarted: 0,
	emitted: false,
});
function account(
	seed: string,
	idleCpuMs: number,
	storedBytes: number,
	emitBytes: number,
): AccountFigures {
	return {
		seed,
		loadAverage: [1, 1],
		baseline: {
			wallS: 1,
			polls: 1,
			requests: 1,
			requestsByList: {},
			pollSpans: [],
			n8nBootS: 1,
			cpuS: 1,
			peakMemoryBytes: 1,
			stored: state(storedBytes),
		},
		idle: [window(idleCpuMs * 6, 6, 6000), window(idleCpuMs * 6, 6, 6000)],
		restart: {
			storedBefore: state(storedBytes),
			startedOver: false,
			pollsReadingBack: 0,
			requests: 0,
			requestsByList: {},
			wallS: 0,
		},
		emits: [
			{
				ms: 11_000,
				cpuMs: 1,
				wchar: emitBytes,
				writeBytes: emitBytes,
				polls: 1,
				databaseGrowth: 0,
			},
		],
		storedAfterFirst: state(storedBytes),
		floor: window(500, 0),
	};
}

describe('trigger state bench: writes and goals', () => {
	beforeEach(() => jest.spyOn(console, 'log').mockImplementation(() => {}));
	afterEach(() => jest.restoreAllMocks());

	it("counts an emitting poll's writes less those of the idle polls in its window", () => {
		const figures = account('large', 100, MB, 50_000);
		figures.emits.push({ ...figures.emits[0], wchar: 52_000, polls: 3 });
		// Idle polls wrote 12,000 bytes in 12 polls: 1,000 each.
		expect(emitWrites(figures, 'wchar')).toEqual([50_000, 50_000]);
	});

	it('passes when the state, the writes and the idle CPU ratio are within the goals', () => {
		expect(goals([account('small', 100, 10_000, 1000), account('large', 200, MB, 2 * MB)])).toBe(
			true,
		);
	});

	it("holds an emitting poll's writes by their mean: one window may carry a checkpoint of earlier ones", () => {
		const checkpointed = account('large', 100, 1000, MB);
		checkpointed.emits.push({ ...checkpointed.emits[0], wchar: 3 * MB - 1 });
		expect(goals([account('small', 100, 1000, 1000), checkpointed])).toBe(true);
		checkpointed.emits.push({ ...checkpointed.emits[0], wchar: 3 * MB });
		expect(goals([account('small', 100, 1000, 1000), checkpointed])).toBe(false);
	});

	const startedOver = account('large', 100, 1000, 1000);
	startedOver.restart.startedOver = true;

	it.each([
		['the state on the large account', account('large', 100, MB + 1, 1000)],
		['the writes of an emitting poll', account('large', 100, 1000, 2 * MB + 1)],
		['the idle CPU ratio', account('large', 201, 1000, 1000)],
		['a restart that started the baseline over', startedOver],
	])('fails on %s', (_, large) => {
		expect(goals([account('small', 100, 1000, 1000), large])).toBe(false);
	});
});
