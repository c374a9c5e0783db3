/**
 * The arithmetic of `npm run bench:queue-webhook`: which answers count as acknowledged or as an
 * ignored repeat, the percentiles, and how many replays started a second execution.
 */
import {
	executionsPerDelivery,
	isAccepted,
	isIgnoredRepeat,
	percentile,
	summarize,
	type Answer,
	type Execution,
} from '../../bench/queue-webhook-report';

const answer = (deliveryId: string, kind: Answer['kind'], body: string, ms = 10): Answer => ({
	deliveryId,
	kind,
	process: 1,
	status: 200,
	body,
	ms,
});
const ignored = (id: string) =>
	JSON.stringify({ received: true, ignored: `delivery ${id} was already received` });
const execution = (id: string, deliveryId: string, worker?: string): Execution => ({
	id,
	status: 'success',
	worker,
	deliveryId,
	recordId: `record-${deliveryId}`,
	refetchedId: `record-${deliveryId}`,
	reachedNextStep: true,
});

describe('queue webhook bench report', () => {
	it('counts only 200 {"received":true} as acknowledged, and only the exact ignored text as a repeat', () => {
		expect(isAccepted(answer('a', 'first', '{"received":true}'))).toBe(true);
		expect(isAccepted({ ...answer('a', 'first', '{"received":true}'), status: 500 })).toBe(false);
		expect(isAccepted(answer('a', 'first', ignored('a')))).toBe(false);
		expect(isIgnoredRepeat(answer('a', 'replay-now', ignored('a')))).toBe(true);
		expect(isIgnoredRepeat(answer('a', 'replay-now', ignored('b')))).toBe(false);
		expect(isIgnoredRepeat(answer('a', 'replay-now', 'Internal Server Error'))).toBe(false);
	});

	it('takes nearest-rank percentiles', () => {
		const values = Array.from({ length: 200 }, (_, i) => 200 - i);
		expect(percentile(values, 50)).toBe(100);
		expect(percentile(values, 99)).toBe(198);
		expect(percentile(values, 100)).toBe(200);
		expect(percentile([], 50)).toBe(0);
	});

	it('counts executions per delivery id, including ids that started none', () => {
		expect(
			executionsPerDelivery(
				['a', 'b', 'c'],
				[execution('1', 'a'), execution('2', 'b'), execution('3', 'b')],
			),
		).toEqual({ 0: 1, 1: 1, 2: 1 });
	});

	it('sums a scenario: replays that ran, executions on workers, re-fetches, 429s', () => {
		const answers = [
			answer('a', 'first', '{"received":true}', 5),
			answer('b', 'first', '{"received":true}', 15),
			answer('a', 'replay-now', ignored('a')),
			answer('b', 'replay-now', '{"received":true}'),
			answer('a', 'replay-later', ignored('a')),
			answer('b', 'replay-later', ignored('b')),
		];
		const executions = [
			execution('1', 'a', 'worker 1'),
			execution('2', 'b', 'worker 2'),
			{ ...execution('3', 'b'), refetchedId: undefined },
		];
		const summary = summarize(answers, executions, [
			{ status: 200, ids: 2 },
			{ status: 429, ids: 1 },
		]);
		expect(summary).toMatchObject({
			firstDeliveries: 2,
			acknowledged: 2,
			ackMs: { median: 5, p99: 15, max: 15 },
			replaysNow: { sent: 2, ignored: 1 },
			replaysLater: { sent: 2, ignored: 2 },
			executions: 3,
			executionsPerDelivery: { 1: 1, 2: 1 },
			replaysThatRan: 1,
			onWorkers: 2,
			withoutDelivery: 0,
			refetched: 2,
			apiRequests: 2,
			idsPerRequest: 1.5,
			throttled: 1,
		});
	});

	it('counts the repeats that reached the next step past a guard, and deliveries that never did', () => {
		const answers = [
			answer('a', 'first', '{"received":true}'),
			answer('b', 'first', '{"received":true}'),
			answer('c', 'first', '{"received":true}'),
			answer('a', 'replay-now', '{"received":true}'),
			answer('b', 'replay-now', '{"received":true}'),
			answer('c', 'replay-now', '{"received":true}'),
		];
		const stopped = (id: string, deliveryId: string) => ({
			...execution(id, deliveryId),
			reachedNextStep: false,
		});
		// a: its repeat ran but the guard stopped it; b: both went on; c: the guard stopped both.
		const executions = [
			execution('1', 'a'),
			stopped('2', 'a'),
			execution('3', 'b'),
			execution('4', 'b'),
			stopped('5', 'c'),
			stopped('6', 'c'),
		];
		expect(summarize(answers, executions, [])).toMatchObject({
			replaysThatRan: 3,
			nextStepPerDelivery: { 0: 1, 1: 1, 2: 1 },
			repeatsAtNextStep: 1,
			acceptedNeverAtNextStep: 1,
		});
	});
});
