/**
 * Property test of the polling trigger's core (runPoll) against the in-memory
 * API: over random change histories with overlapping polls, budget cut-offs,
 * faults in the middle of a walk, changes between pages, refused stored
 * cursors and restarts (state reloaded from JSON), the checks of
 * history-runner.ts hold. Counterexamples it found stay as regression tests in
 * poll.regression.test.ts.
 */
import fc from 'fast-check';

import { historyArbitrary } from './history';
import { MAX_LAG_MS, runHistory, type Totals } from './history-runner';

const NUM_RUNS = Number(process.env.TRIGGER_PROPERTY_RUNS ?? 1000);

test(`every change is emitted at least once and no (id, updated_at) pair twice (${NUM_RUNS} histories)`, async () => {
	let runs = 0;
	const totals: Totals = {
		polls: 0,
		cutShort: 0,
		restarts: 0,
		faults: 0,
		staleCursors: 0,
		changesBetweenPages: 0,
	};
	await fc.assert(
		fc.asyncProperty(historyArbitrary(MAX_LAG_MS), async (history) => {
			runs++;
			const run = await runHistory(history);
			for (const name of Object.keys(totals) as Array<keyof Totals>) totals[name] += run[name];
		}),
		{ numRuns: NUM_RUNS },
	);
	expect(runs).toBeGreaterThanOrEqual(NUM_RUNS);
	// The histories must actually exercise what the property is about.
	for (const name of [
		'cutShort',
		'restarts',
		'faults',
		'staleCursors',
		'changesBetweenPages',
	] as const) {
		expect(totals[name]).toBeGreaterThan(0);
	}
	process.stdout.write(
		`trigger property test: ${runs} random histories, ${JSON.stringify(totals)}\n`,
	);
});
