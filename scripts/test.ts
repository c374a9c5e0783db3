/**
 * `npm test`: jest twice, side by side: the unit and heavy projects in one process, the e2e
 * project in the other. Each process's workers bound what runs at once, so no queue is needed:
 *
 * - unit and heavy: 2 workers, at a lower priority (nice 5): they only need CPU, and the e2e
 *   files' n8n instances and browsers keep time (polls, timeouts, page loads). Beside them a
 *   test may wait for the CPU, so each may take 3 minutes instead of jest's 30 s.
 * - e2e: 6 workers, each file with an n8n of its own (test/e2e/support/instance.ts); the e2e
 *   files mostly wait for n8n, so the unit files use the CPU meanwhile. On 2 cores sixteen at
 *   once made n8n miss its polls' and its 250 ms pattern checks' marks. IB_E2E_FILES_AT_ONCE
 *   sets another number.
 *
 * Arguments go to both; `--json --outputFile=<file>` writes one report of both, as .ci/run
 * reads it. SKIP_E2E=1 runs the unit and heavy projects alone, as `jest` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const JEST = path.join(ROOT, 'node_modules', '.bin', 'jest');
const E2E_FILES_AT_ONCE = Number(process.env.IB_E2E_FILES_AT_ONCE ?? 6);

interface Lane {
	name: string;
	args: string[];
	priority: number;
}

const withE2e = process.env.SKIP_E2E !== '1';
const lanes: Lane[] = withE2e
	? [
			{
				name: 'unit and heavy',
				args: ['--selectProjects', 'unit', 'heavy', '--maxWorkers=2', '--testTimeout=180000'],
				priority: 5,
			},
			{
				name: 'e2e',
				args: ['--selectProjects', 'e2e', `--maxWorkers=${E2E_FILES_AT_ONCE}`],
				priority: 0,
			},
		]
	: [{ name: 'unit and heavy', args: ['--selectProjects', 'unit', 'heavy'], priority: 0 }];

/** The caller's `--outputFile` (with `--json`), taken out of the arguments both lanes get. */
function splitOutputFile(args: string[]): { rest: string[]; outputFile?: string } {
	const rest: string[] = [];
	let outputFile: string | undefined;
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--outputFile') outputFile = args[++i];
		else if (args[i].startsWith('--outputFile='))
			outputFile = args[i].slice('--outputFile='.length);
		else rest.push(args[i]);
	}
	return { rest, outputFile };
}

const { rest, outputFile } = splitOutputFile(process.argv.slice(2));
const reportOf = (lane: Lane) => `${outputFile}.${lane.name.replace(/\W+/g, '-')}.json`;

/** Runs one lane; its output goes through this process, so neither jest draws a live status. */
function runLane(lane: Lane): { child: ChildProcess; done: Promise<number> } {
	const args = [...lane.args, '--passWithNoTests', ...rest];
	if (outputFile) args.push(`--outputFile=${reportOf(lane)}`);
	const child = spawn(JEST, args, {
		cwd: ROOT,
		env: { ...process.env, ...(process.stderr.isTTY ? { FORCE_COLOR: '1' } : {}) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	// Set as it starts, before jest forks its workers, which inherit it.
	if (lane.priority !== 0 && child.pid !== undefined) {
		try {
			setPriority(child.pid, lane.priority);
		} catch {
			// A system that refuses is left as it is.
		}
	}
	child.stdout?.pipe(process.stdout);
	child.stderr?.pipe(process.stderr);
	const done = new Promise<number>((resolve) => {
		child.on('error', () => resolve(1));
		child.on('close', (code) => resolve(code ?? 1));
	});
	return { child, done };
}

interface JestReport {
	success: boolean;
	startTime: number;
	testResults: unknown[];
	[count: string]: unknown;
}

/** Both lanes' reports as one; a lane that wrote none (it crashed, its setup failed) counts as an error. */
function mergedReport(reports: Array<JestReport | undefined>): JestReport {
	const written = reports.filter((report): report is JestReport => report !== undefined);
	const merged: JestReport = {
		...(written[0] ?? {}),
		success: false,
		startTime: 0,
		testResults: [],
	};
	for (const key of Object.keys(merged).filter((name) => /^num[A-Z]/.test(name)))
		merged[key] = written.reduce((sum, report) => sum + Number(report[key] ?? 0), 0);
	merged.numRuntimeErrorTestSuites =
		Number(merged.numRuntimeErrorTestSuites ?? 0) + (reports.length - written.length);
	merged.numFailedTests = Number(merged.numFailedTests ?? 0);
	merged.numPassedTests = Number(merged.numPassedTests ?? 0);
	merged.success = written.length === reports.length && written.every((report) => report.success);
	merged.startTime = Math.min(...written.map((report) => report.startTime));
	merged.testResults = written.flatMap((report) => report.testResults);
	return merged;
}

function readReport(file: string): JestReport | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as JestReport;
	} catch {
		return undefined;
	} finally {
		rmSync(file, { force: true });
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	const running = lanes.map((lane) => ({ lane, started: Date.now(), ...runLane(lane) }));
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => running.forEach(({ child }) => child.kill(signal)));
	const summary: string[] = [];
	const codes = await Promise.all(
		running.map(async ({ lane, done }) => {
			const code = await done;
			const seconds = Math.round((Date.now() - started) / 1000);
			summary.push(`${lane.name}: ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)`);
			return code;
		}),
	);
	if (outputFile)
		writeFileSync(
			outputFile,
			JSON.stringify(mergedReport(lanes.map((lane) => readReport(reportOf(lane))))),
		);
	process.stderr.write(`\nnpm test: ${summary.join('; ')}\n`);
	process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
}

void main();
