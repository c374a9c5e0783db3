/**
 * `npm run test:durable` (DURABLE_LARGE=1; skipped in `npm test`): the polling
 * trigger under n8n's durable scheduler with its defaults (a poll every 15
 * seconds, a 45 s poll timeout, so a 36 s budget) on the sandbox's large
 * account at the real 120 requests a minute: a baseline of about 17,600
 * inspections (DURABLE_LARGE_RESOURCE=contacts: 50,000 contacts) over many
 * polls, n8n restarted in the middle of it, then catch-ups of thousands of
 * changes made while n8n was down and while it polls. Every poll ends within
 * the timeout, none starts a list over, every change is reported once. It
 * prints the figures docs/polling-trigger.md quotes. About 6 minutes.
 */
import { waitFor } from '../../scripts/processes';
import {
	ABANDONED,
	DurableN8n,
	every15Seconds,
	type PollRun,
	pollRuns,
	pollWorkflow,
	Reports,
	SKIPPED,
	sqliteTime,
	startsWholeWalk,
	versionOf,
} from './support/durable';
import { SandboxApi } from './support/sandbox-api';

type Json = Record<string, unknown>;
type Rec = Json & { id: string; updated_at: string };

const MINUTE = 60_000;
const WORKFLOW = 'IbDurableLargeE2e';
const TIMEOUT_MS = 45_000;
const BUDGET_MS = 36_000;
const RESOURCE = process.env.DURABLE_LARGE_RESOURCE === 'contacts' ? 'contacts' : 'inspections';
const PATH = `/v1/${RESOURCE}`;
const EVENTS =
	RESOURCE === 'contacts'
		? ['contact.created', 'contact.updated']
		: ['inspection.created', 'inspection.updated', 'inspection.rescheduled'];
const EVENT = RESOURCE === 'contacts' ? 'contact.updated' : 'inspection.rescheduled';

const large = process.env.DURABLE_LARGE === '1' ? describe : describe.skip;

let n8n: DurableN8n;
let api: SandboxApi;
let records: Rec[] = [];
/**
 * The records the catch-ups change: for inspections only those with a
 * scheduled time, since giving an unscheduled one a time is no reschedule
 * (the trigger has no earlier time to compare; the seed leaves about 5% of
 * future inspections unscheduled), so it reports inspection.updated alone.
 */
let changeable: Rec[] = [];
let reports: Reports;
let changes = 0;

const log = (line: string) => process.stderr.write(`[durable-large] ${line}\n`);

/**
 * One change of `list[index]`: a new version the trigger must report once. An
 * inspection moves to another time: the hours from 2027-01-01 the changes
 * count through can be the time it has (the seed's times follow the day the
 * sandbox started), and moving it there would change nothing.
 */
async function change(list: Rec[], index: number): Promise<Rec> {
	const { id, scheduled_for: scheduledFor } = list[index];
	changes++;
	if (RESOURCE === 'contacts')
		return (list[index] = (await n8n.control.updateContact(id, {
			notes: `change ${changes}`,
		})) as Rec);
	let hour = Date.UTC(2027, 0, 1) + (changes % 3000) * 3_600_000;
	if (new Date(hour).toISOString() === scheduledFor) hour += 3_600_000;
	return (list[index] = (await n8n.control.rescheduleInspection(
		id,
		new Date(hour).toISOString(),
	)) as Rec);
}

/** Changes `count` changeable records from `first` on, 50 at a time; their new versions. */
async function changeMany(first: number, count: number): Promise<Map<string, string>> {
	const expected = new Map<string, string>();
	for (let at = first; at < first + count; at += 50) {
		const batch = Array.from({ length: Math.min(50, first + count - at) }, (_, i) => at + i);
		for (const record of await Promise.all(batch.map((index) => change(changeable, index))))
			expected.set(versionOf(record), EVENT);
	}
	return expected;
}

const describeRuns = (runs: PollRun[]) => {
	const working = runs.filter((run) => run.pages > 0);
	const ms = working.map((run) => run.ms);
	return (
		`${runs.length} polls, ${working.length} with requests; ms min/median/max ` +
		`${Math.min(...ms)}/${ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]}/${Math.max(...ms)}; ` +
		`pages per working poll ${working.map((run) => run.pages).join(' ')}`
	);
};

large(`a ${RESOURCE} baseline and catch-ups on the large account`, () => {
	beforeAll(async () => {
		n8n = await DurableN8n.prepare(
			'durable-large',
			() => [pollWorkflow(WORKFLOW, EVENTS, every15Seconds())],
			'large',
		);
		api = new SandboxApi(n8n.sandbox.baseUrl);
		reports = new Reports(n8n, WORKFLOW);
		records = await api.all<Rec>(PATH);
		changeable = records.filter((record) => RESOURCE === 'contacts' || record.scheduled_for);
		log(`${records.length} ${RESOURCE}, ${changeable.length} of them changeable`);
		await n8n.start();
	}, 15 * MINUTE);

	afterAll(async () => await n8n?.dispose());

	it(
		'takes the baseline over many polls, each within the timeout, resumes it after a restart, and starts no list over',
		async () => {
			const started = Date.now();
			// Restart once n8n has committed a poll of the baseline. Until then a restart can only
			// make the next poll start over: the test poll at publication commits nothing, and the
			// poll a restart stops commits nothing either.
			const committedState = async () =>
				((await n8n.committedState(WORKFLOW))?.[RESOURCE] as Json | undefined) ?? undefined;
			await waitFor('n8n to commit a poll of the baseline', committedState, {
				timeoutMs: 5 * MINUTE,
				intervalMs: 2000,
			});
			const beforeRestart = await n8n.triggerRequests();
			await n8n.stop();
			// Read once n8n is down: a poll may have committed since. The stored form (state.ts):
			// `unfinishedWalk` is a walk the budget cut short, `nextPageCursor` its next page.
			const committed = (await committedState()) as Json;
			const cutCursor = (committed.unfinishedWalk as Json | undefined)?.nextPageCursor;
			log(
				`restarted n8n ${Math.round((Date.now() - started) / 1000)} s in, after ${beforeRestart.length} requests; ` +
					(typeof cutCursor === 'string'
						? 'the committed baseline was cut short'
						: `the committed state was ${String(committed.phase)} (a poll took the whole baseline)`),
			);
			const restartedAt = Date.now();
			await n8n.start();

			let touches = 0;
			let lastTouch = 0;
			const sentinel = records.length - 1;
			await waitFor(
				'the baseline to end and a change after it to be reported',
				async () => {
					if (Date.now() - lastTouch > 30_000) {
						touches++;
						await change(records, sentinel);
						lastTouch = Date.now();
					}
					await reports.collect();
					// Changes made while the baseline runs are reported too: it ends when the state says so.
					const live = (await committedState())?.phase === 'live';
					return (live && reports.items.length > 0) || undefined;
				},
				{ timeoutMs: 30 * MINUTE, intervalMs: 5000 },
			);
			const requests = await n8n.triggerRequests();
			const runs = pollRuns(await n8n.tasks(), requests, n8n.skippedTaskIds());
			log(
				`baseline of ${records.length} ${RESOURCE} done ${Math.round((Date.now() - started) / 1000)} s after n8n started ` +
					`(one restart of ${Math.round((Date.now() - restartedAt) / 1000)} s ago), ${requests.length} requests, ${touches} sentinel changes; ${describeRuns(runs)}`,
			);
			expect(n8n.count(ABANDONED)).toBe(0);
			expect(Math.max(...runs.map((run) => run.ms))).toBeLessThan(TIMEOUT_MS);
			// The test poll at publication and the first scheduled poll walk the list from its start; no other.
			expect(
				requests.filter((entry) => entry.path === PATH && startsWholeWalk(entry)).length,
			).toBeLessThanOrEqual(2);
			expect(
				requests.filter((entry) => startsWholeWalk(entry) && Date.parse(entry.time) >= restartedAt),
			).toEqual([]);
			const afterRestart = runs.filter(
				(run) => run.task.startedAt && sqliteTime(run.task.startedAt) >= restartedAt,
			);
			expect(afterRestart.some((run) => run.pages > 0)).toBe(true);
			// A baseline cut short before the restart goes on from the cursor n8n committed.
			if (typeof cutCursor === 'string') {
				const first = requests.find(
					(entry) => entry.path === PATH && Date.parse(entry.time) >= restartedAt,
				);
				expect(first?.query.cursor).toBe(cutCursor);
			}
			log(`budget ${BUDGET_MS} ms; polls at most ${Math.max(...runs.map((run) => run.ms))} ms`);
		},
		40 * MINUTE,
	);

	it(
		'catches up with changes made while n8n was down and while it polls: each once, no poll past the timeout',
		async () => {
			await reports.collect();
			await n8n.stop();
			const whileDown = await changeMany(0, 2000);
			const downAt = Date.now();
			await n8n.start();
			const skippedBefore = n8n.count(SKIPPED);
			const whilePolling = await changeMany(2000, 3000);
			await reports.until(new Map([...whileDown, ...whilePolling]), 20 * MINUTE, 5000);
			log(
				`5,000 changes (2,000 while down) reported ${Math.round((Date.now() - downAt) / 1000)} s after the restart`,
			);
			expect(reports.notOnce(new Map([...whileDown, ...whilePolling]))).toEqual([]);

			const runs = pollRuns(await n8n.tasks(), await n8n.triggerRequests(), n8n.skippedTaskIds());
			log(
				`all polls: ${describeRuns(runs)}; ${n8n.count(SKIPPED) - skippedBefore} skipped as overlapping`,
			);
			expect(n8n.count(ABANDONED)).toBe(0);
			expect(Math.max(...runs.map((run) => run.ms))).toBeLessThan(TIMEOUT_MS);
			const versions = reports.versions();
			expect(versions.length - new Set(versions).size).toBe(0);
		},
		40 * MINUTE,
	);
});
