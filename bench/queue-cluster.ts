/**
 * The n8n side of queue mode for the benchmarks (`npm run bench:queue`, `npm run bench:queue-webhook`):
 * the settings every process shares, and the worker and webhook processes. Postgres and Redis come
 * from queue-services.ts.
 *
 * Every process type loads community packages from its own user folder
 * (`<N8N_USER_FOLDER>/.n8n/nodes/node_modules`), scanned once when it starts. A process whose folder
 * lacks the package cannot run the package's nodes, so in a real deployment the package must be in
 * the main's, every worker's and every webhook process's folder (image or volume).
 */
import { appendFileSync } from 'node:fs';
import type { N8nRuntime } from '../scripts/n8n-runtime';
import { N8nUserFolder } from '../scripts/n8n-instance';
import { freePort } from '../scripts/ports';
import { BackgroundProcess, waitFor } from '../scripts/processes';

const MINUTE = 60_000;
const READY_TIMEOUT_MS = 3 * MINUTE;

/** n8n's queue-mode settings, shared by main, workers, webhook processes and every CLI command. */
export class QueueUserFolder extends N8nUserFolder {
	queueSettings: Record<string, string> = {};

	override env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
		return super.env({ ...this.queueSettings, ...extra });
	}
}

/** Queue mode on the given Postgres database and Redis, both on loopback. */
export function queueSettings(postgresPort: number, redisPort: number): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgresPort),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
	};
}

/** Appends a process's output to `file`, when one is given. */
const keepLog = (file: string | undefined) => (chunk: string) => {
	if (file) appendFileSync(file, chunk);
};

async function waitUntilReady(what: string, url: string, child: BackgroundProcess): Promise<void> {
	await waitFor(
		`${what} to be ready`,
		async () => {
			const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
			await response.arrayBuffer();
			return response.status === 200 || undefined;
		},
		{
			timeoutMs: READY_TIMEOUT_MS,
			intervalMs: 500,
			abort: () => (child.running ? undefined : `${what} exited:\n${child.log}`),
		},
	);
}

/**
 * `n8n worker` on `folder`, resolved when its health check answers. `onExecution` is called with
 * the id of every execution the worker starts (from its log line "Worker started execution <id>").
 */
export async function startWorker(
	runtime: N8nRuntime,
	folder: QueueUserFolder,
	options: {
		name: string;
		concurrency: number;
		onExecution: (executionId: string) => void;
		logFile?: string;
	},
): Promise<BackgroundProcess> {
	const healthPort = await freePort();
	const worker = new BackgroundProcess(
		runtime.node,
		[runtime.n8nScript, 'worker', `--concurrency=${options.concurrency}`],
		{
			env: folder.env({
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			}),
			onOutput: (chunk) => {
				keepLog(options.logFile)(chunk);
				for (const match of chunk.matchAll(/Worker started execution (\d+)/g))
					options.onExecution(match[1]);
			},
		},
	);
	try {
		await waitUntilReady(options.name, `http://127.0.0.1:${healthPort}/healthz/readiness`, worker);
	} catch (error) {
		await worker.stop();
		throw error;
	}
	return worker;
}

/** A running `n8n webhook`: it answers production webhook URLs and puts their executions on the queue. */
export interface WebhookProcess {
	name: string;
	baseUrl: string;
	process: BackgroundProcess;
}

/**
 * `n8n webhook` on `folder` and a free port, resolved when it is ready to take requests. `env`
 * adds settings (for instance the expression engine's).
 */
export async function startWebhookProcess(
	runtime: N8nRuntime,
	folder: QueueUserFolder,
	name: string,
	options: { env?: Record<string, string>; logFile?: string } = {},
): Promise<WebhookProcess> {
	const port = await freePort();
	const child = new BackgroundProcess(runtime.node, [runtime.n8nScript, 'webhook'], {
		env: folder.env({
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			...options.env,
		}),
		onOutput: keepLog(options.logFile),
	});
	const baseUrl = `http://127.0.0.1:${port}`;
	try {
		await waitUntilReady(name, `${baseUrl}/healthz/readiness`, child);
	} catch (error) {
		await child.stop();
		throw error;
	}
	return { name, baseUrl, process: child };
}
