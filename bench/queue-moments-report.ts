/**
 * The arithmetic of `npm run bench:queue-moments`: the trigger's items as one report per moment
 * (an item lists every moment of its change in `events`; inspector moments come one item per
 * inspector), each report held against what the scenario made happen, and the table and summary
 * line it prints. Tested in test/bench/queue-moments-report.test.ts.
 */
import type { PollEvent } from '../nodes/InspectionBusinessTrigger/catalog';

/** The events the bench's workflow selects: every business moment, and created as the companion. */
export const MOMENTS = [
	'inspection.created',
	'inspection.paid',
	'inspection.agreements_signed',
	'inspection.paid_and_signed',
	'inspection.paid_signed_published',
	'inspection.inspector_assigned',
	'inspection.inspector_removed',
	'inspection.fees_changed',
	'inspection.starting',
	'inspection.ended',
	'contact.new_role',
] as const satisfies readonly PollEvent[];

/** One moment the trigger reported, from the execution that carried it. */
export interface Report {
	moment: string;
	recordId: string;
	/** The inspector an inspector moment names. */
	inspectorId?: string;
	executionId: string;
}

/** One moment the scenario made happen: it must be reported exactly once. */
export interface Expected {
	moment: string;
	recordId: string;
	inspectorId?: string;
	/** The record in the scenario's words, for the list of what is missing. */
	what: string;
}

type Json = Record<string, unknown>;
const SELECTED = new Set<string>(MOMENTS);

/** The reports in one output item of the trigger: one per selected moment in its `events`. */
export function reportsOf(item: Json, executionId: string): Report[] {
	const record = item.record as Json | undefined;
	if (record?.id === undefined) return [];
	const events = Array.isArray(item.events) ? item.events.map(String) : [String(item.event)];
	const inspector = item.inspector as Json | undefined;
	return events
		.filter((moment) => SELECTED.has(moment))
		.map((moment) => ({
			moment,
			recordId: String(record.id),
			...(inspector?.id === undefined ? {} : { inspectorId: String(inspector.id) }),
			executionId,
		}));
}

/** A moment of a record (and inspector): what "exactly once" is counted by. */
export const keyOf = (moment: { moment: string; recordId: string; inspectorId?: string }) =>
	[moment.moment, moment.recordId, moment.inspectorId ?? ''].join(' ');

export interface MomentRow {
	moment: string;
	expected: number;
	/** Reports of this moment for the scenario's records. */
	reported: number;
	missing: number;
	/** Moments of a record (and inspector) reported more than once, any record. */
	twice: number;
	/** Reports for the scenario's records that the scenario did not make happen. */
	unexpected: number;
	/** Reports for records outside the scenario (the seed's time moments, the baseline's sentinels). */
	others: number;
	/** Reports of this moment (all records) per worker. */
	workers: Map<string, number>;
}

export interface Judgement {
	rows: MomentRow[];
	missing: Expected[];
	twice: Array<{ key: string; executions: string[] }>;
	unexpected: Report[];
}

/**
 * Holds the reports against the expected moments. `scenarioRecords`: the records the scenario
 * made (a report for one of them that is not expected is unexpected); `workerOf`: which worker
 * ran an execution.
 */
export function judge(
	expected: Expected[],
	reports: Report[],
	scenarioRecords: ReadonlySet<string>,
	workerOf: (executionId: string) => string,
): Judgement {
	const byKey = new Map<string, Report[]>();
	for (const report of reports)
		byKey.set(keyOf(report), [...(byKey.get(keyOf(report)) ?? []), report]);
	const expectedKeys = new Set(expected.map(keyOf));
	const missing = expected.filter((moment) => !byKey.has(keyOf(moment)));
	const twice = [...byKey]
		.filter(([, found]) => found.length > 1)
		.map(([key, found]) => ({ key, executions: found.map((report) => report.executionId) }));
	const unexpected = reports.filter(
		(report) => scenarioRecords.has(report.recordId) && !expectedKeys.has(keyOf(report)),
	);
	const rows = MOMENTS.map((moment): MomentRow => {
		const mine = reports.filter((report) => report.moment === moment);
		const workers = new Map<string, number>();
		for (const report of mine) {
			const worker = workerOf(report.executionId);
			workers.set(worker, (workers.get(worker) ?? 0) + 1);
		}
		return {
			moment,
			expected: expected.filter((item) => item.moment === moment).length,
			reported: mine.filter((report) => scenarioRecords.has(report.recordId)).length,
			missing: missing.filter((item) => item.moment === moment).length,
			twice: twice.filter(({ key }) => key.startsWith(`${moment} `)).length,
			unexpected: unexpected.filter((report) => report.moment === moment).length,
			others: mine.filter((report) => !scenarioRecords.has(report.recordId)).length,
			workers,
		};
	});
	return { rows, missing, twice, unexpected };
}

export const failed = (judgement: Judgement) =>
	judgement.missing.length + judgement.twice.length + judgement.unexpected.length > 0;

const workersText = (workers: Map<string, number>) =>
	[...workers]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([worker, count]) => `${worker} ×${count}`)
		.join(', ') || '–';

/** The table: a row per moment, then one per problem found. */
export function table(judgement: Judgement): string {
	const lines = [
		'| Moment | Expected | Reported | Missing | Twice | Unexpected | Other records | Ran on |',
		'| --- | --- | --- | --- | --- | --- | --- | --- |',
		...judgement.rows.map(
			(row) =>
				`| ${row.moment} | ${row.expected} | ${row.reported} | ${row.missing} | ${row.twice} | ${row.unexpected} | ${row.others} | ${workersText(row.workers)} |`,
		),
	];
	for (const moment of judgement.missing)
		lines.push(`  MISSING     ${moment.moment} for ${moment.what} (${moment.recordId})`);
	for (const { key, executions } of judgement.twice)
		lines.push(`  TWICE       ${key}: executions ${executions.join(', ')}`);
	for (const report of judgement.unexpected)
		lines.push(
			`  UNEXPECTED  ${keyOf(report)}: execution ${report.executionId} (the scenario did not make it happen)`,
		);
	return lines.join('\n');
}

/** The one-line summary. */
export function summary(
	judgement: Judgement,
	executions: number,
	failedExecutions: number,
): string {
	const expected = judgement.rows.reduce((sum, row) => sum + row.expected, 0);
	const others = judgement.rows.reduce((sum, row) => sum + row.others, 0);
	return `${failed(judgement) || failedExecutions ? 'FAIL' : 'PASS'}: ${expected} moments expected; ${judgement.missing.length} missing, ${judgement.twice.length} reported twice or more, ${judgement.unexpected.length} unexpected; ${others} moments of other records; ${executions} executions, ${failedExecutions} not successful`;
}
