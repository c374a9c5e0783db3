/**
 * For `npm run bench:queue-webhook`: what a webhook process and a worker whose user folder lacks
 * the package do with a delivery, so the docs can name the symptoms of a process installed without it.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { BackgroundProcess } from '../scripts/processes';
import { waitFor } from '../scripts/processes';
import type { N8nRuntime } from '../scripts/n8n-runtime';
import { parseFlatted } from '../scripts/n8n-rest';
import {
	QueueUserFolder,
	startWebhookProcess,
	startWorker,
	type WebhookProcess,
} from './queue-cluster';
import { queryPostgres, type RunningService } from './queue-services';
import {
	deliveryBody,
	post,
	webhookPath,
	workflowId,
	WEBHOOK_SECRET_CREDENTIAL,
	type DeliveredRecord,
	type Scenario,
} from './queue-webhook-scenarios';

const MINUTE = 60_000;

/** What the checks need of the running cluster. */
export interface MissingPackageCluster {
	runtime: N8nRuntime;
	settings: Record<string, string>;
	postgres: RunningService;
	workers: BackgroundProcess[];
	webhooks: WebhookProcess[];
	records: DeliveredRecord[];
}

function bareFolder(cluster: MissingPackageCluster, workDir: string, name: string) {
	const folder = new QueueUserFolder(cluster.runtime, path.join(workDir, name));
	folder.queueSettings = cluster.settings;
	return folder;
}

const secret = () => String(WEBHOOK_SECRET_CREDENTIAL.data.secret);

async function webhookWithoutPackage(
	cluster: MissingPackageCluster,
	workDir: string,
	scenario: Scenario,
): Promise<string> {
	let webhook: WebhookProcess | undefined;
	try {
		webhook = await startWebhookProcess(
			cluster.runtime,
			bareFolder(cluster, workDir, 'webhook-bare'),
			'webhook process without the package',
		);
		const body = deliveryBody(randomUUID(), cluster.records[0]);
		const answer = await post(`${webhook.baseUrl}${webhookPath(scenario)}`, body, secret());
		return `${answer.status} ${answer.body.trim().slice(0, 200)}`;
	} catch (error) {
		return `did not start: ${(error as Error).message.split('\n')[0]}`;
	} finally {
		await webhook?.process.stop();
	}
}

/** The newest execution of the scenario's workflow after `afterId`: its status and error. */
async function executionAfter(
	cluster: MissingPackageCluster,
	scenario: Scenario,
	afterId: number,
): Promise<string> {
	const row = await waitFor(
		'the execution on the worker without the package',
		async () => {
			const [found] = await queryPostgres(
				cluster.postgres.port,
				'n8n',
				`select json_build_object('id', e.id, 'status', e.status, 'data', d.data)::text
				 from execution_entity e left join execution_data d on d."executionId" = e.id
				 where e."workflowId" = '${workflowId(scenario)}' and e.id > ${afterId}
				   and e.status in ('success', 'error', 'crashed', 'canceled')
				 order by e.id desc limit 1`,
			);
			return found;
		},
		{ timeoutMs: 3 * MINUTE, intervalMs: 1000 },
	);
	const execution = JSON.parse(row) as { id: number; status: string; data: string | null };
	const data = execution.data
		? (parseFlatted(execution.data) as { resultData: { error?: { message?: string } } })
		: undefined;
	return `execution ${execution.id}: ${execution.status}${data?.resultData.error?.message ? `, "${data.resultData.error.message}"` : ''}`;
}

async function workerWithoutPackage(
	cluster: MissingPackageCluster,
	workDir: string,
	scenario: Scenario,
): Promise<string> {
	for (const worker of cluster.workers) await worker.stop();
	let worker: BackgroundProcess | undefined;
	try {
		worker = await startWorker(cluster.runtime, bareFolder(cluster, workDir, 'worker-bare'), {
			name: 'worker without the package',
			concurrency: 1,
			onExecution: () => {},
		});
		const [last] = await queryPostgres(
			cluster.postgres.port,
			'n8n',
			`select coalesce(max(id), 0) from execution_entity`,
		);
		const body = deliveryBody(randomUUID(), cluster.records[0]);
		const answer = await post(
			`${cluster.webhooks[0].baseUrl}${webhookPath(scenario)}`,
			body,
			secret(),
		);
		return `webhook process answered ${answer.status} ${answer.body.trim()}; ${await executionAfter(cluster, scenario, Number(last))}`;
	} catch (error) {
		return `failed: ${(error as Error).message.split('\n')[0]}`;
	} finally {
		await worker?.stop();
	}
}

/** Runs both checks (the workers are stopped by the second) and describes what happened. */
export async function missingPackageChecks(
	cluster: MissingPackageCluster,
	workDir: string,
	scenario: Scenario,
	log: (line: string) => void,
): Promise<string> {
	log('Starting a webhook process whose folder lacks the package');
	const webhook = await webhookWithoutPackage(cluster, workDir, scenario);
	log('Stopping the workers; starting one whose folder lacks the package');
	const worker = await workerWithoutPackage(cluster, workDir, scenario);
	return `Without the package:
  Webhook process, a valid delivery    ${webhook}
  Worker (the only one), a delivery    ${worker}
`;
}
