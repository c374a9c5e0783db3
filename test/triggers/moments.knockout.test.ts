/**
 * Each rule of the catalog carries weight: with any one rule broken, the moments' model test
 * (moments.model.test.ts) finds a history where the trigger and the contract disagree. A rule is
 * broken by taking it away: an event's `happened` never holds, its `time` is gone (the reminder
 * or review request never comes due), its Only Trigger Once is gone, or the fact whose holding
 * counts as its having happened is gone. The same fixed-seed histories as the model test; each
 * knockout stops at the first disagreement, unshrunk.
 */
import fc from 'fast-check';

import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import { FIXED_SEED, historyArbitrary, MODEL_RUNS, runHistory } from './moments.history';

type MutableRow = Record<string, unknown> & { value: string; once?: Record<string, unknown> };
const rows = EVENT_ROWS as unknown as MutableRow[];

interface Knockout {
	name: string;
	/** Breaks the rule; returns what puts it back. */
	apply: () => () => void;
}

/** Sets `key` of `target` to `value` (undefined: deletes it) until the returned function runs. */
function replace(target: Record<string, unknown>, key: string, value: unknown): () => void {
	const had = Object.prototype.hasOwnProperty.call(target, key);
	const before = target[key];
	if (value === undefined) delete target[key];
	else target[key] = value;
	return () => {
		if (had) target[key] = before;
		else delete target[key];
	};
}

const KNOCKOUTS: Knockout[] = rows.flatMap((row) => [
	...(row.happened
		? [{ name: `${row.value}: never happens`, apply: () => replace(row, 'happened', () => false) }]
		: []),
	...(row.time
		? [{ name: `${row.value}: never comes due`, apply: () => replace(row, 'time', undefined) }]
		: []),
	...(row.once && !row.once.always
		? [
				{
					name: `${row.value}: not held by Only Trigger Once`,
					apply: () => replace(row, 'once', undefined),
				},
			]
		: []),
	...(row.once?.fact
		? [
				{
					name: `${row.value}: its fact holding is not its having happened`,
					apply: () => replace(row.once!, 'fact', undefined),
				},
			]
		: []),
]);

/** Whether some history, of the model test's, shows the trigger off its contract. */
async function disagreementFound(): Promise<boolean> {
	const result = await fc.check(
		fc.asyncProperty(historyArbitrary, async (history) => {
			await runHistory(history);
		}),
		{ numRuns: MODEL_RUNS, seed: FIXED_SEED, endOnFailure: true },
	);
	return result.failed;
}

test('the knockouts cover every event of the catalog', () => {
	const named = new Set(KNOCKOUTS.map((knockout) => knockout.name.split(':')[0]));
	expect(rows.filter((row) => !named.has(row.value)).map((row) => row.value)).toEqual([]);
	expect(KNOCKOUTS.length).toBeGreaterThan(rows.length);
});

test(
	'with any one rule of the catalog broken, the model test finds a disagreement',
	async () => {
		// The rules as they are agree with the contract on these histories.
		expect(await disagreementFound()).toBe(false);
		const undetected: string[] = [];
		for (const knockout of KNOCKOUTS) {
			const restore = knockout.apply();
			try {
				if (!(await disagreementFound())) undetected.push(knockout.name);
			} finally {
				restore();
			}
		}
		expect(undetected).toEqual([]);
	},
	30 * 60_000,
);
