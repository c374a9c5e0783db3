/**
 * `npm run bench:queue`: the package in a real n8n in queue mode. One main,
 * N workers, Redis and Postgres (installed with apt-get if missing), the
 * sandbox with the `large` seed, and W published webhook workflows that each
 * Return All of the same ~12,500 contacts under one key owner, started at once
 * through main so that all of them go through the queue to the workers.
 *
 *   npm run bench:queue
 *   npm run bench:queue -- --workers 3 --concurrency 2 --rpm 60
 *
 * Prints surfaced errors, records lost and duplicated, the share of requests
 * answered 429 and the wall time against the floor (pages / rate limit), and a
 * markdown table row. Every process and temporary folder is removed on exit and
 * on Ctrl-C. Not part of `npm test`: it needs several minutes and about 2.5 GB of memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LIMITS } from '../nodes/shared/endpoints';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../sandbox/index';
import { SandboxControl } from '../sandbox/client';
import type { ExecutionOutput, N8nWorkflow } from '../scripts/n8n-instance';
import { LOCAL_OWNER } from '../scripts/n8n-rest';
import { ensureRuntime, N8N_VERSION } from '../scripts/n8n-runtime';
import type { N8nServer } from '../scripts/n8n-server';
import { buildPackage, declaredNodeTypes, packPackage } from '../scripts/package-tarball';
import { freePort } from '../scripts/ports';
import { killAllOnSignals, waitFor, type BackgroundProcess } from '../scripts/processes';
import { QueueUserFolder, queueSettings, startWorker } from './queue-cluster';
import { ensureServices, startPostgres, startRedis, type RunningService } from './queue-services';
import { sandboxCredential, SANDBOX_CREDENTIAL } from '../scripts/workflows';

const MINUTE = 60_000;
const PAGE = LIMITS.pageSizeMax;
const SYNC_NODE = 'Inspection Business';
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

const started = Date.now();
const log = (line: string) =>
	console.log(`[queue +${Math.round((Date.now() - started) / 1000)}s] ${line}`);

function options() {
	const { values } = parseArgs({
		options: {
			workers: { type: 'string', default: '2' },
			concurrency: { type: 'string', default: '2' },
			workflows: { type: 'string', default: '4' },
			contacts: { type: 'string', default: '12500' },
			rpm: { type: 'string', default: String(LIMITS.ratePerMinute) },
			'timeout-min': { type: 'string', default: '20' },
		},
	});
	const number = (name: keyof typeof values) => {
		const value = Number(values[name]);
		if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number`);
		return value;
	};
	return {
		workers: number('workers'),
		concurrency: number('concurrency'),
		workflows: number('workflows'),
		contacts: number('contacts'),
		rpm: number('rpm'),
		timeoutMs: number('timeout-min') * MINUTE,
	};
}

/**
 * The ids of the `count` most recently changed contacts (plus ties) and the
 * `updated_since` that selects them, read with a key of another owner.
 */
async function selectContacts(baseUrl: string, count: number) {
	const walk = async (query: Record<string, string>, max: number) => {
		const records: Array<{ id: string; updated_at: string }> = [];
		let cursor: string | null = null;
		do {
			const params = new URLSearchParams({ ...query, limit: String(PAGE) });
			if (cursor) params.set('cursor', cursor);
			const response = await fetch(`${baseUrl}/v1/contacts?${params}`, {
				headers: { authorization: `Bearer ${SANDBOX_KEYS.acmeStaff}` },
			});
			if (!response.ok) throw new Error(`Sandbox answered ${response.status} to the setup walk`);
			const page = (await response.json()) as {
				data: Array<{ id: string; updated_at: string }>;
				next_cursor: string | null;
			};
			records.push(...page.data);
			cursor = page.next_cursor;
		} while (cursor && records.length < max);
		return records;
	};
	const recent = await walk({ sort: '-updated_at' }, count);
	if (recent.length < count) throw new Error(`The sandbox has only ${recent.length} contacts`);
	const since = recent[count - 1].updated_at;
	const ids = new Set((await walk({ updated_since: since }, Infinity)).map((record) => record.id));
	return { since, ids };
}

function syncWorkflow(index: number, since: string, credentialName: string): N8nWorkflow {
	const id = `IbQueueSync${String(index).padStart(5, '0')}`;
	return {
		id,
		name: `Queue mode: sync ${index}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: `0b7c4e2a-5d1f-4a8e-9c3b-00000000000${index}`,
				position: [0, 0],
				parameters: {
					httpMethod: 'POST',
					path: `ib-queue-sync-${index}`,
					responseMode: 'onReceived',
				},
			},
			{
				name: SYNC_NODE,
				type: 'n8n-nodes-inspection-business.inspectionBusiness',
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: true,
					filters: { updated_since: since },
				},
				credentials: { inspectionBusinessApi: { id: SANDBOX_CREDENTIAL.id, name: credentialName } },
			},
		],
		connections: { Webhook: { main: [[{ node: SYNC_NODE, type: 'main', index: 0 }]] } },
	};
}

interface ExecutionResult {
	workflowId: string;
	executionId: string;
	status: string;
	records: number;
	duplicates: number;
	lost: number;
	unexpected: number;
	error?: string;
	stoppedAt: number;
}

async function main(): Promise<void> {
	const settings = options();
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-queue-'));
	// Outside workDir (root-only): the postgres user must reach it.
	const pgDir = mkdtempSync(path.join(tmpdir(), 'ib-queue-pg-'));
	const removeFolders = () => {
		for (const dir of [workDir, pgDir]) rmSync(dir, { recursive: true, force: true });
	};
	killAllOnSignals(removeFolders);

	let sandbox: RunningSandbox | undefined;
	let server: N8nServer | undefined;
	const services: RunningService[] = [];
	const workers: BackgroundProcess[] = [];
	try {
		await ensureServices(log);
		const postgres = await startPostgres(pgDir, 'n8n');
		services.push(postgres);
		const redis = await startRedis(workDir);
		services.push(redis);
		log(`Postgres on ${postgres.port}, Redis on ${redis.port}`);

		log(`Preparing n8n ${N8N_VERSION}`);
		const runtime = await ensureRuntime(log);
		log('Building and packing the package');
		await buildPackage();
		const packed = await packPackage(workDir);
		const folder = new QueueUserFolder(runtime, path.join(workDir, 'n8n'));
		folder.queueSettings = queueSettings(postgres.port, redis.port);
		await folder.installPackage(packed.tarball, packed.name, packed.version);

		// No limit while selecting the contacts; the measured limit is set just before the run.
		sandbox = await startSandbox({ port: 0, seed: 'large', rateLimit: 1_000_000 });
		const control = new SandboxControl(sandbox.baseUrl);
		const selected = await selectContacts(sandbox.baseUrl, settings.contacts);
		const pagesEach = Math.ceil(selected.ids.size / PAGE);
		log(
			`Sandbox at ${sandbox.baseUrl}: ${selected.ids.size} contacts changed since ${selected.since}, ${pagesEach} pages each`,
		);

		const credential = sandboxCredential(sandbox.baseUrl);
		credential.data.requestsPerMinute = settings.rpm;
		await folder.importCredentials([credential]);
		const workflows = Array.from({ length: settings.workflows }, (_, i) =>
			syncWorkflow(i + 1, selected.since, credential.name),
		);
		await folder.importWorkflows(workflows);
		await folder.publishWorkflows(workflows.map((workflow) => workflow.id));

		log('Starting n8n main (queue mode)');
		const port = await freePort();
		server = await folder.startServer(port);
		await server.rest.setupOwner(LOCAL_OWNER);
		await server.assertPackageLoaded(packed.name, declaredNodeTypes());

		const ranBy = new Map<string, number>();
		for (let n = 1; n <= settings.workers; n++) {
			log(`Starting worker ${n} (concurrency ${settings.concurrency})`);
			workers.push(
				await startWorker(runtime, folder, {
					name: `worker ${n}`,
					concurrency: settings.concurrency,
					onExecution: (executionId) => ranBy.set(executionId, n),
				}),
			);
		}

		await control.setRateLimit(LIMITS.ratePerMinute);
		await control.clearRequests();
		log(`Triggering ${workflows.length} workflows at once through main`);
		const triggeredAt = Date.now();
		await Promise.all(
			workflows.map(async (_, i) => {
				const url = `${server?.baseUrl}/webhook/ib-queue-sync-${i + 1}`;
				const response = await fetch(url, { method: 'POST', body: '{}' });
				if (!response.ok) throw new Error(`${url} answered ${response.status}`);
			}),
		);

		const rest = server.rest;
		const results = await Promise.all(
			workflows.map(async (workflow): Promise<ExecutionResult> => {
				const summary = await waitFor(
					`the execution of ${workflow.id}`,
					async () =>
						(await rest.executions(workflow.id)).find((execution) =>
							FINISHED.has(execution.status),
						),
					{ timeoutMs: settings.timeoutMs, intervalMs: 2000 },
				);
				const stopped = (summary as { stoppedAt?: string }).stoppedAt;
				const output = await rest.executionData<ExecutionOutput['data']>(summary.id);
				const run = output.resultData.runData[SYNC_NODE]?.[0];
				const ids = (run?.data?.main[0] ?? []).map((item) => String(item.json.id));
				const unique = new Set(ids);
				return {
					workflowId: workflow.id,
					executionId: summary.id,
					status: summary.status,
					records: ids.length,
					duplicates: ids.length - unique.size,
					lost: [...selected.ids].filter((id) => !unique.has(id)).length,
					unexpected: [...unique].filter((id) => !selected.ids.has(id)).length,
					error: run?.error?.message ?? output.resultData.error?.message,
					stoppedAt: stopped ? Date.parse(stopped) : Date.now(),
				};
			}),
		);
		const wallMs = Math.max(...results.map((result) => result.stoppedAt)) - triggeredAt;

		const { data: requests } = await control.requests({ pathPrefix: '/v1/' });
		const limited = requests.filter((request) => request.status === 429).length;
		const pages = pagesEach * workflows.length;
		const floorMs = (pages / LIMITS.ratePerMinute) * MINUTE;
		const errors = results.filter((result) => result.error || result.status !== 'success');
		const lost = results.reduce((sum, result) => sum + result.lost, 0);
		const duplicates = results.reduce((sum, result) => sum + result.duplicates, 0);
		const share = requests.length ? limited / requests.length : 0;
		const ratio = wallMs / floorMs;

		for (const result of results)
			console.log(
				`  ${result.workflowId}: execution ${result.executionId} on worker ${ranBy.get(result.executionId) ?? '?'}, ${result.status}, ${result.records} records, ${result.duplicates} duplicated, ${result.lost} lost${result.error ? `, error: ${result.error}` : ''}`,
			);
		console.log(`
n8n ${N8N_VERSION} queue mode: 1 main, ${settings.workers} workers (concurrency ${settings.concurrency}), ${workflows.length} workflows × ${selected.ids.size} contacts, one key owner at ${LIMITS.ratePerMinute}/min, credential Requests per Minute ${settings.rpm}
  Surfaced errors      ${errors.length} (goal 0)
  Lost / duplicated    ${lost} / ${duplicates} (goal 0)
  429 answers          ${limited} of ${requests.length} requests = ${(share * 100).toFixed(1)}% (goal ≤ 5%)
  Wall time            ${(wallMs / 1000).toFixed(0)} s; floor ${pages} pages / ${LIMITS.ratePerMinute} per min = ${(floorMs / 1000).toFixed(0)} s; ${ratio.toFixed(2)}× (goal ≤ 1.1×)

| Workers × concurrency | Requests per Minute | Workflows × contacts | Errors | Lost | Duplicated | 429 share | Wall / floor |
| --- | --- | --- | --- | --- | --- | --- | --- |
| ${settings.workers} × ${settings.concurrency} | ${settings.rpm} | ${workflows.length} × ${selected.ids.size.toLocaleString('en-US')} | ${errors.length} | ${lost} | ${duplicates} | ${limited}/${requests.length} = ${(share * 100).toFixed(1)}% | ${(wallMs / 1000).toFixed(0)} s / ${(floorMs / 1000).toFixed(0)} s = ${ratio.toFixed(2)}× |
`);
		if (errors.length || lost || duplicates || share > 0.05 || ratio > 1.1) process.exitCode = 1;
	} finally {
		log('Stopping workers, n8n, the sandbox, Redis and Postgres');
		await Promise.all(workers.map((worker) => worker.stop()));
		await server?.stop();
		await sandbox?.stop();
		for (const service of services.reverse()) await service.process.stop();
		removeFolders();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
