/**
 * `npm test`: jest twice, side by side: the unit and heavy projects in one process, the e2e
 * project in the other. Each process's own workers bound what runs at once:
 *
 * - unit and heavy: 2 workers at nice 5. They only need CPU, and the e2e files' n8n instances and
 *   browsers keep time (polls, timeouts, page loads). Beside them a test may wait for the CPU,
 *   so each may take 3 minutes instead of jest's 30 s.
 * - e2e: 6 workers, each file with an n8n of its own (test/e2e/support/instance.ts). The files
 *   mostly wait for n8n, so the unit files use the CPU meanwhile; on 2 cores sixteen at once
 *   made n8n miss its polls' and its 250 ms pattern checks' marks. IB_E2E_FILES_AT_ONCE sets
 *   another number.
 *
 * Arguments go to both; with `--json --outputFile=<file>` the file holds both reports' counts
 * and results, as .ci/run reads them. SKIP_E2E=1 runs the unit and heavy projects alone.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const JEST = path.join(ROOT, 'node_modules', '.bin', 'jest');

const LANES =
	process.env.SKIP_E2E === '1'
		? [{ name: 'unit and heavy', args: ['--selectProjects', 'unit', 'heavy'], nice: 0 }]
		: [
				{
					name: 'unit and heavy',
					args: ['--selectProjects', 'unit', 'heavy', '--maxWorkers=2', '--testTimeout=180000'],
					nice: 5,
				},
				{
					name: 'e2e',
					args: [
						'--selectProjects',
						'e2e',
						`--maxWorkers=${Number(process.env.IB_E2E_FILES_AT_ONCE ?? 6)}`,
					],
					nice: 0,
				},
			];

const given = process.argv.slice(2);
const at = given.findIndex((arg) => arg === '--outputFile' || arg.startsWith('--outputFile='));
const joined = at >= 0 && given[at].includes('=');
const outputFile = at < 0 ? undefined : joined ? given[at].split('=')[1] : given[at + 1];
/** What both lanes get: the arguments but the output file, which each lane writes apart. */
const passed = given.filter((_, i) => at < 0 || (i !== at && (joined || i !== at + 1)));
const reportOf = (lane: number) => `${outputFile}.${lane}.json`;

/** Runs one lane; its output comes through this process, so neither jest draws a live status. */
function runLane(lane: (typeof LANES)[number], index: number): Promise<number> {
	const args = [...lane.args, '--passWithNoTests', ...passed];
	if (outputFile) args.push(`--outputFile=${reportOf(index)}`);
	const child = spawn(JEST, args, {
		cwd: ROOT,
		env: { ...process.env, ...(process.stderr.isTTY ? { FORCE_COLOR: '1' } : {}) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	// Before jest forks its workers, which inherit it.
	if (lane.nice !== 0 && child.pid !== undefined) {
		try {
			setPriority(child.pid, lane.nice);
		} catch {
			// A system that refuses keeps the normal priority.
		}
	}
	child.stdout.pipe(process.stdout);
	child.stderr.pipe(process.stderr);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => child.kill(signal));
	return new Promise((resolve) => {
		child.on('error', () => resolve(1));
		child.on('close', (code) => resolve(code ?? 1));
	});
}

/** The lanes' jest reports as one: counts summed, results joined; a lane without one is an error. */
function mergeReports(): void {
	const reports = LANES.map((_, index) => {
		try {
			return JSON.parse(readFileSync(reportOf(index), 'utf8')) as Record<string, unknown>;
		} catch {
			return { numRuntimeErrorTestSuites: 1, success: false, testResults: [] };
		} finally {
			rmSync(reportOf(index), { force: true });
		}
	});
	const merged: Record<string, unknown> = { ...reports[0] };
	for (const key of new Set(reports.flatMap(Object.keys)))
		if (key.startsWith('num'))
			merged[key] = reports.reduce((sum, report) => sum + Number(report[key] ?? 0), 0);
	merged.success = reports.every((report) => report.success === true);
	merged.testResults = reports.flatMap((report) => report.testResults as unknown[]);
	writeFileSync(outputFile as string, JSON.stringify(merged));
}

async function main(): Promise<void> {
	const started = Date.now();
	const outcomes = await Promise.all(
		LANES.map(async (lane, index) => {
			const code = await runLane(lane, index);
			const seconds = Math.round((Date.now() - started) / 1000);
			return { code, line: `${lane.name}: ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)` };
		}),
	);
	if (outputFile) mergeReports();
	process.stderr.write(`\nnpm test: ${outcomes.map((outcome) => outcome.line).join('; ')}\n`);
	process.exitCode = outcomes.every((outcome) => outcome.code === 0) ? 0 : 1;
}

void main();
