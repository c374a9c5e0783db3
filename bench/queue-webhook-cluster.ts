/**
 * The queue-mode n8n that `npm run bench:queue-webhook` measures: Postgres, Redis, the sandbox, one
 * main and two workers, and pairs of `n8n webhook` processes started per variant of settings. Every
 * n8n process gets a user folder of its own with its own copy of the package, as separate
 * containers would: the main's copy alone would not let a worker or a webhook process run the nodes.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../nodes/shared/endpoints';
import { SandboxControl } from '../sandbox/client';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../sandbox/index';
import { LOCAL_OWNER } from '../scripts/n8n-rest';
import { ensureRuntime, type N8nRuntime } from '../scripts/n8n-runtime';
import type { N8nServer } from '../scripts/n8n-server';
import {
	buildPackage,
	declaredNodeTypes,
	packPackage,
	type PackResult,
} from '../scripts/package-tarball';
import { freePort } from '../scripts/ports';
import type { BackgroundProcess } from '../scripts/processes';
import {
	QueueUserFolder,
	queueSettings,
	startWebhookProcess,
	startWorker,
	type WebhookProcess,
} from './queue-cluster';
import { ensureServices, startPostgres, startRedis, type RunningService } from './queue-services';
import { redisCredential } from './queue-webhook-guards';
import {
	triggerWorkflow,
	WEBHOOK_SECRET_CREDENTIAL,
	type DeliveredRecord,
	type Scenario,
	type Variant,
} from './queue-webhook-scenarios';
import { sandboxCredential } from '../scripts/workflows';

export interface Cluster {
	runtime: N8nRuntime;
	packed: PackResult;
	/** The queue-mode settings every n8n process shares. */
	settings: Record<string, string>;
	postgres: RunningService;
	sandbox: RunningSandbox;
	main: N8nServer;
	workers: BackgroundProcess[];
	/** Execution id → the worker whose log says it started it. */
	ranBy: Map<string, string>;
	records: DeliveredRecord[];
}

export interface ClusterOptions {
	workDir: string;
	pgDir: string;
	/** Every scenario of every variant: their workflows are imported and published up front. */
	scenarios: Scenario[];
	concurrency: number;
	/** A folder for the processes' logs, if any. */
	logDir?: string;
	log: (line: string) => void;
	/** Registers how to stop what was started, in start order. */
	keep: (stop: () => Promise<void>) => void;
}

const logFile = (options: ClusterOptions, name: string) =>
	options.logDir ? path.join(options.logDir, `${name}.log`) : undefined;

/** A user folder of its own with the package installed, as each container of a deployment needs. */
async function processFolder(
	cluster: Pick<Cluster, 'runtime' | 'settings'>,
	workDir: string,
	name: string,
	packed: PackResult,
): Promise<QueueUserFolder> {
	const folder = new QueueUserFolder(cluster.runtime, path.join(workDir, name));
	folder.queueSettings = cluster.settings;
	await folder.installPackage(packed.tarball, packed.name, packed.version);
	return folder;
}

/** Inspections and contacts of Acme to deliver events about, read with a key of another owner. */
async function pickRecords(baseUrl: string): Promise<DeliveredRecord[]> {
	const list = async (endpoint: string) => {
		const response = await fetch(`${baseUrl}/v1/${endpoint}?limit=${LIMITS.pageSizeMax}`, {
			headers: { authorization: `Bearer ${SANDBOX_KEYS.acmeStaff}` },
		});
		if (!response.ok) throw new Error(`Sandbox answered ${response.status} to ${endpoint}`);
		return ((await response.json()) as { data: Array<{ id: string }> }).data.map(({ id }) => id);
	};
	const inspections = await list('inspections');
	const contacts = await list('contacts');
	const count = Math.min(inspections.length, contacts.length);
	return Array.from({ length: 2 * count }, (_, i) =>
		i % 2 === 0
			? { event: 'inspection.confirmed' as const, id: inspections[i / 2] }
			: { event: 'contact.changed' as const, id: contacts[(i - 1) / 2] },
	);
}

async function startWorkers(cluster: Omit<Cluster, 'workers'>, options: ClusterOptions) {
	return await Promise.all(
		[1, 2].map(async (n) => {
			const folder = await processFolder(cluster, options.workDir, `worker-${n}`, cluster.packed);
			const name = `worker ${n}`;
			options.log(`Starting ${name} (concurrency ${options.concurrency}), own folder and package`);
			const worker = await startWorker(cluster.runtime, folder, {
				name,
				concurrency: options.concurrency,
				onExecution: (executionId) => cluster.ranBy.set(executionId, name),
				logFile: logFile(options, `worker-${n}`),
			});
			options.keep(() => worker.stop());
			return worker;
		}),
	);
}

/** Postgres, Redis, the sandbox, the main (production webhooks off) and two workers. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
	const { log, keep } = options;
	await ensureServices(log);
	const postgres = await startPostgres(options.pgDir, 'n8n');
	keep(() => postgres.process.stop());
	const redis = await startRedis(options.workDir);
	keep(() => redis.process.stop());
	log(`Postgres on ${postgres.port}, Redis on ${redis.port}`);
	const runtime = await ensureRuntime(log);
	log('Building and packing the package');
	await buildPackage();
	const packed = await packPackage(options.workDir);
	const settings = queueSettings(postgres.port, redis.port);
	const mainFolder = await processFolder({ runtime, settings }, options.workDir, 'main', packed);

	const sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
	keep(() => sandbox.stop());
	const records = await pickRecords(sandbox.baseUrl);
	const apiCredential = sandboxCredential(sandbox.baseUrl);
	const redisForGuards = redisCredential(redis.port);
	await mainFolder.importCredentials([apiCredential, WEBHOOK_SECRET_CREDENTIAL, redisForGuards]);
	const workflows = options.scenarios.map((scenario) =>
		triggerWorkflow(scenario, apiCredential, redisForGuards),
	);
	await mainFolder.importWorkflows(workflows);

	log('Starting n8n main (queue mode, production webhooks off on main)');
	const mainLog = logFile(options, 'main');
	const main = await mainFolder.startServer(await freePort(), {
		env: { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		onOutput: (chunk) => mainLog && appendFileSync(mainLog, chunk),
	});
	keep(() => main.stop());
	await main.rest.setupOwner(LOCAL_OWNER);
	await main.assertPackageLoaded(packed.name, declaredNodeTypes());
	for (const workflow of workflows) await main.rest.publishWorkflow(workflow.id);

	const partial = { runtime, packed, settings, postgres, sandbox, main, records };
	const ranBy = new Map<string, string>();
	const workers = await startWorkers({ ...partial, ranBy }, options);
	await new SandboxControl(sandbox.baseUrl).setRateLimit(LIMITS.ratePerMinute);
	return { ...partial, ranBy, workers };
}

/** Two `n8n webhook` processes with the variant's settings, each with its own folder and package. */
export async function startWebhookPair(
	cluster: Cluster,
	variant: Variant,
	options: ClusterOptions,
): Promise<WebhookProcess[]> {
	return await Promise.all(
		[1, 2].map(async (n) => {
			const name = `${variant.name}-webhook-${n}`;
			const folder = await processFolder(cluster, options.workDir, name, cluster.packed);
			options.log(`Starting webhook process ${n} (${variant.title}), own folder and package`);
			const webhook = await startWebhookProcess(cluster.runtime, folder, `webhook process ${n}`, {
				env: variant.env,
				logFile: logFile(options, name),
			});
			options.keep(() => webhook.process.stop());
			return webhook;
		}),
	);
}
