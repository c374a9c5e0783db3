/**
 * The polling trigger when n8n runs two polls of one trigger node at once (the
 * durable scheduler starts every due occurrence, whether or not the previous
 * poll has ended): one of them reports the changes, the other returns nothing
 * and leaves the committed state alone. Also the poll that n8n started from
 * the state it read just before the previous poll's commit, and the budget the
 * trigger plans with when n8n offers none of its own.
 */
import type { IDataObject } from 'n8n-workflow';

import * as pollCore from '../../nodes/InspectionBusinessTrigger/poll';
import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { COMMIT_GRACE_MS, OverlapGuard } from '../../nodes/InspectionBusinessTrigger/pollGuards';
import { runPoll, withSandbox } from '../helpers/n8n';
import { waitFor } from '../../scripts/processes';
import { StagedPoller, type TickResult } from './staged-poll';

export function overlappingPolls(): void {
	const sandbox = withSandbox({}, { reset: true });
	const trigger = new InspectionBusinessTrigger();

	const reported = (tick: TickResult) =>
		(tick.items ?? []).map((item) => [item.json.event, (item.json.record as IDataObject).id]);

	async function baselined(): Promise<StagedPoller> {
		const poller = new StagedPoller(
			trigger,
			{ events: ['contact.created', 'contact.updated'], options: {} },
			sandbox.credentials(),
		);
		expect((await poller.tick()).items).toBeNull();
		expect(poller.commits).toBe(1);
		return poller;
	}

	afterEach(async () => await sandbox.control.settings({ latency_ms: 0 }));

	test('two overlapping polls of one trigger report a change once; the second commits nothing', async () => {
		const poller = await baselined();
		const contact = await sandbox.control.createContact('acme', {
			first_name: 'Ada',
			email: 'ada.overlap@example.com',
		});
		// Slow answers keep the first poll in flight while the next occurrence starts.
		await sandbox.control.settings({ latency_ms: 400 });
		await sandbox.control.clearRequests();
		const first = poller.tick();
		await waitFor(
			'the first poll to ask the API',
			async () => (await sandbox.control.requests({ pathPrefix: '/v1/' })).count > 0 || undefined,
			{ timeoutMs: 10_000, intervalMs: 20 },
		);
		const second = await poller.tick();
		expect(second.error).toBeUndefined();
		expect(second.items).toBeNull();
		expect(poller.commits).toBe(1);

		const firstResult = await first;
		expect(reported(firstResult)).toEqual([['contact.created', contact.id]]);
		expect(poller.commits).toBe(2);
		// Only the first poll asked the API.
		expect((await sandbox.control.requests({ pathPrefix: '/v1/' })).count).toBe(1);
	});

	test('a poll started from the state read before the last commit emits nothing again', async () => {
		const poller = await baselined();
		const before = structuredClone(poller.committed);
		const contact = await sandbox.control.createContact('acme', {
			first_name: 'Grace',
			email: 'grace.overlap@example.com',
		});
		expect(reported(await poller.tick())).toEqual([['contact.created', contact.id]]);
		expect(poller.commits).toBe(2);
		const after = structuredClone(poller.committed);

		// The next occurrence had read the cursor just before that commit.
		const stale = await poller.tick(undefined, before);
		expect(stale.error).toBeUndefined();
		expect(stale.items).toBeNull();
		expect(poller.committed).toEqual(after);
		expect(poller.commits).toBe(2);
		// From the committed state, polls go on as usual.
		expect((await poller.tick()).items).toBeNull();
	});

	test('a poll started from the state read before the last cursor-only commit does not walk the same pages again', async () => {
		const poller = new StagedPoller(
			trigger,
			// Inspection Updated reads every inspection in its baseline: it takes several pages.
			{ events: ['inspection.updated'], options: {} },
			sandbox.credentials(),
		);
		// A budget this small lets each poll fetch one page: the baseline's progress is committed without an emit.
		expect((await poller.tick(1)).items).toBeNull();
		expect(poller.commits).toBe(1);
		const before = structuredClone(poller.committed);
		expect((await poller.tick(1)).items).toBeNull();
		expect(poller.commits).toBe(2);
		const after = structuredClone(poller.committed);

		await sandbox.control.clearRequests();
		const stale = await poller.tick(1, before);
		expect(stale.error).toBeUndefined();
		expect((await sandbox.control.requests({ pathPrefix: '/v1/' })).count).toBe(0);
		expect(poller.committed).toEqual(after);
		expect(poller.commits).toBe(2);
	});

	describe('OverlapGuard', () => {
		const node = 'workflow/node';

		it('lets one poll of a node run at a time, and any node beside it', () => {
			const guard = new OverlapGuard();
			expect(guard.start(node, 'a', 0)).toBe(true);
			expect(guard.start(node, 'a', 1)).toBe(false);
			expect(guard.start(node, 'b', 1)).toBe(false);
			expect(guard.start('workflow/other', 'a', 1)).toBe(true);
			guard.end(node, 'a', false, 2);
			expect(guard.start(node, 'a', 3)).toBe(true);
		});

		it('skips the state a poll that changed it started from while n8n commits it, and runs it again after', () => {
			const guard = new OverlapGuard();
			expect(guard.start(node, 'a', 0)).toBe(true);
			guard.end(node, 'a', true, 1_000);
			expect(guard.start(node, 'a', 1_000 + COMMIT_GRACE_MS - 1)).toBe(false);
			// The committed state: the poll runs.
			expect(guard.start(node, 'b', 2_000)).toBe(true);
			guard.end(node, 'b', false, 3_000);
			expect(guard.start(node, 'a', 3_000)).toBe(false);
			// Still the old state after the grace: n8n did not keep that result, so it is polled again.
			expect(guard.start(node, 'a', 1_000 + COMMIT_GRACE_MS)).toBe(true);
		});

		it('remembers nothing of a poll that changed nothing, or threw', () => {
			const guard = new OverlapGuard();
			expect(guard.start(node, 'a', 0)).toBe(true);
			guard.end(node, 'a', false, 1);
			expect(guard.start(node, 'a', 2)).toBe(true);
		});
	});

	describe('the budget a poll plans with', () => {
		const budgetsOf = async (pollBudgetMs: number | undefined) => {
			const runs = jest.spyOn(pollCore, 'runPoll');
			try {
				await runPoll({
					node: trigger,
					parameters: { events: ['contact.created'], options: {} },
					credentials: sandbox.credentials(),
					pollBudgetMs,
				});
				return runs.mock.calls.map(([, , options]) => options.budgetMs);
			} finally {
				runs.mockRestore();
			}
		};

		it("is n8n's when n8n offers less than 45 s (the durable scheduler's)", async () => {
			expect(await budgetsOf(36_000)).toEqual([36_000]);
		});

		it('is at most 45 s when n8n offers 5 minutes (no durable scheduler, or the test poll at publication)', async () => {
			expect(await budgetsOf(undefined)).toEqual([45_000]);
			expect(await budgetsOf(5 * 60_000)).toEqual([45_000]);
		});
	});
}
