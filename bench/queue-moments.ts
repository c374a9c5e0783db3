/**
 * `npm run bench:queue-moments`: the polling trigger's business moments in a real n8n in queue
 * mode. One main and two workers on Postgres and Redis (installed with apt-get if missing), the
 * package packed and installed as a community package, a sandbox of its own with the `demo` seed,
 * and one published workflow: the trigger polling every 15 seconds for every business moment, with
 * the default options. The main polls; each poll that finds something puts an execution on the
 * queue, which a worker runs. The sandbox's control API then makes every moment happen
 * (queue-moments-scenario.ts), the clock included for Starting and Ended, and every execution of the
 * workflow is read back through the main's REST API.
 *
 *   npm run bench:queue-moments
 *   npm run bench:queue-moments -- --scheduler durable --workers 2 --concurrency 2
 *
 * Prints a row per moment (expected, reported, missing, twice, unexpected, which worker ran it)
 * and a summary line; exits 1 when a moment is missing, reported twice, reported for a record the
 * scenario did not make it happen to, or an execution did not succeed. Every process and
 * temporary folder is removed on exit and on Ctrl-C (run it with `node --import tsx`, as the npm
 * script does: the `tsx` command kills a script that is still cleaning up after a Ctrl-C). Not
 * part of `npm test`: 6 to 11 minutes and about 2.3 GB of memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox, type RunningSandbox } from '../sandbox/index';
import { SandboxControl } from '../sandbox/client';
import type { ExecutionOutput } from '../scripts/n8n-instance';
import { LOCAL_OWNER, type N8nRestClient } from '../scripts/n8n-rest';
import { ensureRuntime, N8N_VERSION } from '../scripts/n8n-runtime';
import type { N8nServer } from '../scripts/n8n-server';
import { buildPackage, declaredNodeTypes, packPackage } from '../scripts/package-tarball';
import { freePort } from '../scripts/ports';
import { killAllOnSignals, waitFor, type BackgroundProcess } from '../scripts/processes';
import { sandboxCredential, SANDBOX_CREDENTIAL } from '../scripts/workflows';
import { DURABLE_SCHEDULER, every15Seconds, TRIGGER_NODE } from '../test/e2e/support/durable';
import { chain, NODE_TYPES } from '../test/e2e/workflows/build';
import { QueueUserFolder, queueSettings, startWorker } from './queue-cluster';
import { MomentsScenario } from './queue-moments-scenario';
import {
	failed,
	judge,
	MOMENTS,
	reportsOf,
	summary,
	table,
	type Report,
} from './queue-moments-report';
import { ensureServices, startPostgres, startRedis, type RunningService } from './queue-services';

const MINUTE = 60_000;
const WORKFLOW = 'IbQueueMoments01';
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
/** A marker is reported within a poll or two (15 s each) and a worker's run; a loaded machine gets room. */
const MARKER_TIMEOUT_MS = 4 * MINUTE;

const started = Date.now();
const log = (line: string) =>
	console.log(`[queue-moments +${Math.round((Date.now() - started) / 1000)}s] ${line}`);

function options() {
	const { values } = parseArgs({
		options: {
			workers: { type: 'string', default: '2' },
			concurrency: { type: 'string', default: '2' },
			scheduler: { type: 'string', default: 'poller' },
		},
	});
	const number = (name: 'workers' | 'concurrency') => {
		const value = Number(values[name]);
		if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number`);
		return value;
	};
	if (values.scheduler !== 'poller' && values.scheduler !== 'durable')
		throw new Error('--scheduler must be poller (n8n 2.41 default) or durable (n8n 2.45 default)');
	return {
		workers: number('workers'),
		concurrency: number('concurrency'),
		scheduler: values.scheduler,
	};
}

/** Every execution of the workflow, read once each when it has finished, and the moments it reported. */
class Executions {
	readonly status = new Map<string, string>();
	readonly reports: Report[] = [];

	constructor(private readonly rest: N8nRestClient) {}

	/** Reads the executions that finished since the last call (the newest 100 are listed). */
	async collect(): Promise<void> {
		for (const execution of (await this.rest.executions(WORKFLOW)).reverse()) {
			if (this.status.has(execution.id) || !FINISHED.has(execution.status)) continue;
			const data = await this.rest.executionData<ExecutionOutput['data']>(execution.id);
			this.status.set(execution.id, execution.status);
			for (const run of data.resultData.runData[TRIGGER_NODE] ?? [])
				for (const item of run.data?.main[0] ?? [])
					this.reports.push(...reportsOf(item.json, execution.id));
		}
	}

	/** Waits until `inspection.created` is reported for the record; false after `timeoutMs`. */
	async createdReported(recordId: string, timeoutMs = MARKER_TIMEOUT_MS): Promise<boolean> {
		const found = () =>
			this.reports.some(
				(report) => report.moment === 'inspection.created' && report.recordId === recordId,
			);
		try {
			await waitFor(
				`inspection.created for ${recordId}`,
				async () => {
					await this.collect();
					return found() || undefined;
				},
				{ timeoutMs, intervalMs: 2000 },
			);
			return true;
		} catch {
			return false;
		}
	}

	/** Waits until no execution of the workflow is still queued or running. */
	async settled(): Promise<void> {
		await waitFor(
			'every execution to finish',
			async () =>
				(await this.rest.executions(WORKFLOW)).every((execution) =>
					FINISHED.has(execution.status),
				) || undefined,
			{ timeoutMs: 5 * MINUTE, intervalMs: 2000 },
		);
		await this.collect();
	}
}

/** The trigger's baseline reports nothing: waits until an inspection created after it is reported. */
async function pastBaseline(control: SandboxControl, executions: Executions): Promise<void> {
	let touched = 0;
	let sentinel = '';
	await waitFor(
		'the baseline to end and an inspection created after it to be reported',
		async () => {
			if (Date.now() - touched > 20_000) {
				sentinel = String((await control.createInspection({ org: 'acme' })).id);
				touched = Date.now();
			}
			await executions.collect();
			return executions.reports.some((report) => report.recordId === sentinel) || undefined;
		},
		{ timeoutMs: 8 * MINUTE, intervalMs: 2000 },
	);
}

const momentsWorkflow = () =>
	chain(WORKFLOW, 'Queue mode: business moments', [
		{
			name: TRIGGER_NODE,
			type: NODE_TYPES.poll,
			typeVersion: 1,
			parameters: { pollTimes: every15Seconds(), events: [...MOMENTS], options: {} },
			credentials: { inspectionBusinessApi: SANDBOX_CREDENTIAL },
		},
	]);

/** What is running, so that it can all be stopped whatever failed half-way. */
interface Running {
	sandbox?: RunningSandbox;
	server?: N8nServer;
	services: RunningService[];
	workers: BackgroundProcess[];
	/** Execution id → the worker whose log says it started it. */
	ranBy: Map<string, string>;
}

type Settings = ReturnType<typeof options>;

/** Postgres, Redis, the package, the sandbox, the published workflow, the main and the workers. */
async function startCluster(settings: Settings, workDir: string, pgDir: string, running: Running) {
	await ensureServices(log);
	const postgres = await startPostgres(pgDir, 'n8n');
	running.services.push(postgres);
	const redis = await startRedis(workDir);
	running.services.push(redis);
	log(`Postgres on ${postgres.port}, Redis on ${redis.port}`);

	log(`Preparing n8n ${N8N_VERSION}`);
	const runtime = await ensureRuntime(log);
	log('Building and packing the package');
	await buildPackage();
	const packed = await packPackage(workDir);
	const folder = new QueueUserFolder(runtime, path.join(workDir, 'n8n'));
	folder.queueSettings = {
		...queueSettings(postgres.port, redis.port),
		...(settings.scheduler === 'durable' ? DURABLE_SCHEDULER : {}),
	};
	await folder.installPackage(packed.tarball, packed.name, packed.version);

	running.sandbox = await startSandbox({ port: 0, seed: 'demo' });
	log(`Sandbox at ${running.sandbox.baseUrl} (demo seed)`);
	await folder.importCredentials([sandboxCredential(running.sandbox.baseUrl)]);
	await folder.importWorkflows([momentsWorkflow()]);
	await folder.publishWorkflows([WORKFLOW]);

	log(`Starting n8n main (queue mode, ${settings.scheduler} scheduler)`);
	const server = await folder.startServer(await freePort());
	running.server = server;
	await server.rest.setupOwner(LOCAL_OWNER);
	await server.assertPackageLoaded(packed.name, declaredNodeTypes());

	for (let n = 1; n <= settings.workers; n++) {
		log(`Starting worker ${n} (concurrency ${settings.concurrency})`);
		running.workers.push(
			await startWorker(runtime, folder, {
				name: `worker ${n}`,
				concurrency: settings.concurrency,
				onExecution: (executionId) => running.ranBy.set(executionId, `worker ${n}`),
			}),
		);
	}
	return { control: new SandboxControl(running.sandbox.baseUrl), rest: server.rest };
}

async function stopCluster(running: Running): Promise<void> {
	log('Stopping workers, n8n, the sandbox, Redis and Postgres');
	await Promise.all(running.workers.map((worker) => worker.stop()));
	await running.server?.stop();
	await running.sandbox?.stop();
	for (const service of running.services.reverse()) await service.process.stop();
}

/** Prints the table and the summary; true when nothing is missing, doubled or unexpected. */
function printResult(
	settings: Settings,
	scenario: MomentsScenario,
	executions: Executions,
	ranBy: ReadonlyMap<string, string>,
): boolean {
	const workerOf = (executionId: string) => ranBy.get(executionId) ?? 'not a worker';
	const judgement = judge(scenario.expected, executions.reports, scenario.records, workerOf);
	const perWorker = new Map<string, number>();
	for (const id of executions.status.keys())
		perWorker.set(workerOf(id), (perWorker.get(workerOf(id)) ?? 0) + 1);
	const unsuccessful = [...executions.status.values()].filter((status) => status !== 'success');
	const ran = [...perWorker].sort(([a], [b]) => a.localeCompare(b));
	console.log(`
n8n ${N8N_VERSION} queue mode, ${settings.scheduler} scheduler: 1 main (polls), ${settings.workers} workers × concurrency ${settings.concurrency} (executions); a poll every 15 s, default options
Executions: ${ran.map(([worker, count]) => `${worker} ran ${count}`).join(', ') || 'none'}

${table(judgement)}

${summary(judgement, executions.status.size, unsuccessful.length)}
`);
	return !failed(judgement) && unsuccessful.length === 0;
}

async function main(): Promise<void> {
	const settings = options();
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-queue-moments-'));
	// Outside workDir (root-only): the postgres user must reach it.
	const pgDir = mkdtempSync(path.join(tmpdir(), 'ib-queue-moments-pg-'));
	const removeFolders = () => {
		for (const dir of [workDir, pgDir]) rmSync(dir, { recursive: true, force: true });
	};
	killAllOnSignals(removeFolders);

	const running: Running = { services: [], workers: [], ranBy: new Map() };
	try {
		const { control, rest } = await startCluster(settings, workDir, pgDir, running);
		const executions = new Executions(rest);
		log('Waiting for the trigger to pass its baseline');
		// The baseline's sentinels stay in the reports as other records: checked for repeats only.
		await pastBaseline(control, executions);
		const scenario = new MomentsScenario(control, (id) => executions.createdReported(id), log);
		log('Making every moment happen');
		await scenario.run();
		log('Waiting two more polls for late repeats');
		await new Promise((resolve) => setTimeout(resolve, 35_000));
		await executions.settled();
		if (!printResult(settings, scenario, executions, running.ranBy)) process.exitCode = 1;
	} finally {
		await stopCluster(running);
		removeFolders();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
