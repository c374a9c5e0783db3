/**
 * Property test of the polling trigger's core (runPoll) against the in-memory
 * API: over random change histories with overlapping polls, budget cut-offs,
 * faults in the middle of a walk, changes between pages, refused stored
 * cursors, restarts (state reloaded from JSON), changes dated up to 3 h ahead
 * of the server's clock, non-monotonic updated_at and the server's clock
 * jumping back by up to 3 h, the invariant of history-runner.ts holds: every
 * distinct version is emitted exactly once (unless a baseline took it), and
 * each, at the latest, by the first complete poll after it became visible.
 * Counterexamples it found stay as regression tests in poll.regression.ts.
 * 250 histories by default keep it well inside the test timeout on a busy
 * machine; TRIGGER_PROPERTY_RUNS asks for more.
 */
import fc from 'fast-check';

import { historyArbitrary } from './history';
import { MAX_LAG_MS, runHistory, type Totals } from './history-runner';

const NUM_RUNS = Number(process.env.TRIGGER_PROPERTY_RUNS ?? 250);
/**
 * A fixed seed by default, so every CI run checks the same histories and a failure replays
 * exactly. Random seeds found the clock counterexamples now kept in poll.regression.ts; set
 * TRIGGER_PROPERTY_SEED=random (with TRIGGER_PROPERTY_RUNS) to explore, or to a printed seed.
 */
const SEED_SETTING = process.env.TRIGGER_PROPERTY_SEED ?? '1';
const SEED = SEED_SETTING === 'random' ? undefined : Number(SEED_SETTING);

test(`every distinct version is emitted exactly once, under clock skew and jumps (${NUM_RUNS} histories)`, async () => {
	let runs = 0;
	const totals: Totals = {
		polls: 0,
		cutShort: 0,
		restarts: 0,
		faults: 0,
		staleCursors: 0,
		changesBetweenPages: 0,
		clockJumpsBack: 0,
		datedAhead: 0,
		olderThanPrevious: 0,
	};
	await fc.assert(
		fc.asyncProperty(historyArbitrary(MAX_LAG_MS), async (history) => {
			runs++;
			const run = await runHistory(history);
			for (const name of Object.keys(totals) as Array<keyof Totals>) totals[name] += run[name];
		}),
		{ numRuns: NUM_RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
	);
	expect(runs).toBeGreaterThanOrEqual(NUM_RUNS);
	// The histories must actually exercise what the property is about.
	for (const name of [
		'cutShort',
		'restarts',
		'faults',
		'staleCursors',
		'changesBetweenPages',
		'clockJumpsBack',
		'datedAhead',
		'olderThanPrevious',
	] as const) {
		expect(totals[name]).toBeGreaterThan(0);
	}
	process.stdout.write(
		`trigger property test: ${runs} random histories, ${JSON.stringify(totals)}\n`,
	);
});
