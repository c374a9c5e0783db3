/**
 * The arithmetic of `npm run bench:queue-moments`: an item's moments are the selected events it
 * lists, inspector moments count per inspector, and a moment is missing, twice or unexpected by
 * record (and inspector).
 */
import {
	failed,
	judge,
	reportsOf,
	type Expected,
	type Report,
} from '../../bench/queue-moments-report';

const item = (events: string[], id: string, inspector?: string) => ({
	event: events[events.length - 1],
	events,
	record: { id },
	...(inspector ? { inspector: { id: inspector, name: 'X' } } : {}),
});
const expected = (moment: string, recordId: string, inspectorId?: string): Expected => ({
	moment,
	recordId,
	inspectorId,
	what: recordId,
});
const workerOf = (executionId: string) => (Number(executionId) % 2 ? 'worker 1' : 'worker 2');

describe('queue moments bench report', () => {
	it('reads one report per selected moment of an item, with the inspector it names', () => {
		expect(
			reportsOf(
				item(['inspection.paid', 'inspection.paid_and_signed', 'inspection.updated'], 'a'),
				'7',
			),
		).toEqual([
			{ moment: 'inspection.paid', recordId: 'a', executionId: '7' },
			{ moment: 'inspection.paid_and_signed', recordId: 'a', executionId: '7' },
		]);
		expect(reportsOf(item(['inspection.inspector_assigned'], 'a', 'insp-9'), '8')).toEqual([
			{
				moment: 'inspection.inspector_assigned',
				recordId: 'a',
				inspectorId: 'insp-9',
				executionId: '8',
			},
		]);
		expect(reportsOf({ event: 'inspection.unreadable', record: 'text' }, '9')).toEqual([]);
	});

	it('passes when each expected moment is reported once, whatever else other records report', () => {
		const reports: Report[] = [
			...reportsOf(item(['inspection.created'], 'a'), '1'),
			...reportsOf(item(['inspection.inspector_assigned'], 'a', 'insp-1'), '1'),
			...reportsOf(item(['inspection.inspector_assigned'], 'a', 'insp-9'), '2'),
			...reportsOf(item(['inspection.starting'], 'seed'), '2'),
		];
		const judgement = judge(
			[
				expected('inspection.created', 'a'),
				expected('inspection.inspector_assigned', 'a', 'insp-1'),
				expected('inspection.inspector_assigned', 'a', 'insp-9'),
			],
			reports,
			new Set(['a']),
			workerOf,
		);
		expect(failed(judgement)).toBe(false);
		const row = (moment: string) => judgement.rows.find((r) => r.moment === moment);
		expect(row('inspection.inspector_assigned')).toMatchObject({
			expected: 2,
			reported: 2,
			missing: 0,
			twice: 0,
			workers: new Map([
				['worker 1', 1],
				['worker 2', 1],
			]),
		});
		expect(row('inspection.starting')).toMatchObject({ expected: 0, reported: 0, others: 1 });
	});

	it('finds a moment missing, one reported twice (also for another record) and one not made to happen', () => {
		const reports: Report[] = [
			...reportsOf(item(['inspection.paid'], 'a'), '1'),
			...reportsOf(item(['inspection.paid'], 'a'), '2'),
			...reportsOf(item(['inspection.agreements_signed'], 'a'), '2'),
			...reportsOf(item(['inspection.ended'], 'seed'), '3'),
			...reportsOf(item(['inspection.ended'], 'seed'), '4'),
		];
		const judgement = judge(
			[expected('inspection.paid', 'a'), expected('inspection.fees_changed', 'a')],
			reports,
			new Set(['a']),
			workerOf,
		);
		expect(failed(judgement)).toBe(true);
		expect(judgement.missing.map((m) => m.moment)).toEqual(['inspection.fees_changed']);
		expect(judgement.twice).toEqual([
			{ key: 'inspection.paid a ', executions: ['1', '2'] },
			{ key: 'inspection.ended seed ', executions: ['3', '4'] },
		]);
		expect(judgement.unexpected.map((r) => r.moment)).toEqual(['inspection.agreements_signed']);
		expect(judgement.rows.find((r) => r.moment === 'inspection.paid')).toMatchObject({
			expected: 1,
			reported: 2,
			twice: 1,
		});
	});
});
