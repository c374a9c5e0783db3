/**
 * `npm run bench:webhook`: bursts of deliveries to the webhook trigger in a real n8n under
 * `n8n start`, the sandbox at the API's real 120 requests a minute. For bursts of 60 and 200,
 * with Re-Fetch Record off and on, each with one delivery sent twice: the acknowledgement
 * latency (median, 99th percentile, max), the executions started, the executions per delivery
 * id, and the API requests (and 429s) the re-fetches cost. Each under n8n's default expression
 * engine settings, which build an isolate for every webhook request to a community trigger
 * before the trigger runs, and with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true, which does not.
 *
 *   npm run bench:webhook                                  this checkout
 *   npm run bench:webhook -- --package-dir ../other        another checkout, built there
 *   npm run bench:webhook -- --sizes 60 --engines lazy     other bursts, one setting
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox } from '../sandbox/index';
import { SandboxControl } from '../sandbox/client';
import { N8nDatabase } from '../scripts/n8n-database';
import { LOCAL_OWNER } from '../scripts/n8n-rest';
import { ensureRuntime } from '../scripts/n8n-runtime';
import { buildPackage, packPackage, PACKAGE_DIR } from '../scripts/package-tarball';
import { freePort } from '../scripts/ports';
import { waitFor } from '../scripts/processes';
import {
	type Answer,
	deliveryBody,
	executionsPerDelivery,
	latency,
	post,
	postAtOnce,
	settledExecutions,
} from '../test/e2e/support/deliveries';
import {
	N8N_WEBHOOK_FLOOR,
	n8nWebhookWorkflow,
	PLAIN_WEBHOOK,
	prepareWebhookInstance,
	productionUrl,
	REFETCHING_WEBHOOK,
	type WebhookWorkflow,
} from '../test/e2e/workflows/webhooks';

const MINUTE = 60_000;
/** n8n's expression-engine settings the bench compares. */
const ENGINES: Record<string, Record<string, string>> = {
	default: {},
	lazy: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
};

/** Builds and packs the package in `dir` (its own node_modules), as `npm pack` would ship it. */
async function pack(dir: string, into: string) {
	await buildPackage(dir);
	return packPackage(into, dir);
}

interface Row {
	engine: string;
	burst: string;
	refetch: string;
	ack: string;
	statuses: string;
	executions: number;
	perDelivery: string;
	requests: string;
	startToLastExecutionS: number;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			'package-dir': { type: 'string' },
			sizes: { type: 'string', default: '60,200' },
			engines: { type: 'string', default: 'default,lazy' },
		},
	});
	const sizes = values.sizes.split(',').map(Number);
	const engines = values.engines.split(',');
	for (const engine of engines) if (!ENGINES[engine]) throw new Error(`Unknown engine ${engine}`);
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-bench-webhook-'));
	const runtime = await ensureRuntime((line) => process.stderr.write(`${line}\n`));
	const packed = await pack(path.resolve(values['package-dir'] ?? PACKAGE_DIR), workDir);
	const sandbox = await startSandbox({ port: 0, seed: 'demo', rateLimit: 120 });
	const control = new SandboxControl(sandbox.baseUrl);
	const folder = await prepareWebhookInstance(
		runtime,
		path.join(workDir, 'n8n'),
		packed,
		sandbox.baseUrl,
		[n8nWebhookWorkflow(N8N_WEBHOOK_FLOOR)],
	);
	const database = new N8nDatabase(runtime, folder.folder);
	const rows: Row[] = [];
	try {
		for (const engine of engines) {
			const server = await folder.startServer(await freePort(), { env: ENGINES[engine] });
			try {
				if (engine === engines[0]) await server.rest.setupOwner(LOCAL_OWNER);
				await webhooksRegistered(server.baseUrl);
				await warmUp(server.baseUrl);
				for (const size of sizes) {
					for (const target of [N8N_WEBHOOK_FLOOR, PLAIN_WEBHOOK, REFETCHING_WEBHOOK]) {
						const row = await burst(size, target, { control, database, n8nUrl: server.baseUrl });
						rows.push({ engine, ...row });
						process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
					}
				}
			} finally {
				await server.stop();
			}
		}
	} finally {
		await sandbox.stop();
		rmSync(workDir, { recursive: true, force: true });
	}
	console.log(
		[
			'| n8n expression engine | Burst | Re-Fetch | Ack ms (median / p99 / max) | Answers | Executions | Executions per delivery id | API requests | Last execution after (s) |',
			'| - | - | - | - | - | - | - | - | - |',
			...rows.map(
				(row) =>
					`| ${row.engine} | ${row.burst} | ${row.refetch} | ${row.ack} | ${row.statuses} | ${row.executions} | ${row.perDelivery} | ${row.requests} | ${row.startToLastExecutionS} |`,
			),
		].join('\n'),
	);
}

/** Waits until n8n has activated both webhooks (it answers its REST API before that). */
async function webhooksRegistered(n8nUrl: string): Promise<void> {
	for (const target of [PLAIN_WEBHOOK, REFETCHING_WEBHOOK]) {
		const url = productionUrl(n8nUrl, target);
		await waitFor(
			`n8n to register ${url}`,
			async () => (await post(url, '{}', 'probe')).status === 401 || undefined,
			{ timeoutMs: 2 * MINUTE, intervalMs: 500 },
		);
	}
}

/**
 * A first burst pays for n8n warming up (its first executions, JIT), whichever workflow gets it:
 * 20 deliveries to the floor and to the plain trigger first, not counted.
 */
async function warmUp(n8nUrl: string): Promise<void> {
	for (const target of [N8N_WEBHOOK_FLOOR, PLAIN_WEBHOOK]) {
		const bodies = Array.from({ length: 20 }, () => deliveryBody(randomUUID(), randomUUID()));
		await postAtOnce(productionUrl(n8nUrl, target), bodies);
	}
}

/** One burst of `size` deliveries plus one of them sent again, to one workflow. */
async function burst(
	size: number,
	target: WebhookWorkflow,
	{ control, database, n8nUrl }: { control: SandboxControl; database: N8nDatabase; n8nUrl: string },
): Promise<Omit<Row, 'engine'>> {
	const refetch = target === REFETCHING_WEBHOOK;
	const floor = target === N8N_WEBHOOK_FLOOR;
	const records = await Promise.all(
		Array.from({ length: size }, async () =>
			String(((await control.createInspection({ org: 'acme' })) as { id: string }).id),
		),
	);
	// A fresh minute of budget for each burst, on both sides (the n8n pacer's window too).
	if (refetch) await new Promise((resolve) => setTimeout(resolve, MINUTE + 1000));
	await control.setRateLimit(120);
	await control.clearRequests();
	const before = (await database.executions(target.id)).length;
	const deliveries = records.map((record) => deliveryBody(randomUUID(), record));
	const started = Date.now();
	const answers: Answer[] = await postAtOnce(productionUrl(n8nUrl, target), [
		...deliveries,
		deliveries[Math.floor(size / 2)],
	]);
	const executions = (
		await settledExecutions(database, target.id, before + size, 10 * MINUTE)
	).slice(before);
	const lastExecutionAt = Math.max(...executions.map((execution) => execution.stoppedAt ?? 0));
	const perDelivery = [...executionsPerDelivery(executions, target.node).values()];
	const log = await control.requests({ pathPrefix: '/v1/' });
	const timing = latency(answers);
	const statuses = new Map<number, number>();
	for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
	return {
		burst: `${size} + 1 repeat`,
		refetch: floor ? "n8n's Webhook node" : refetch ? 'on' : 'off',
		ack: `${timing.median} / ${timing.p99} / ${timing.max}`,
		statuses: [...statuses].map(([status, count]) => `${count}× ${status}`).join(', '),
		executions: executions.length,
		perDelivery: floor
			? 'not counted (n8n runs every request)'
			: `${perDelivery.filter((count) => count === 1).length} once, ${perDelivery.filter((count) => count > 1).length} more than once`,
		requests: `${log.count} (${log.data.filter((entry) => entry.status === 429).length}× 429)`,
		startToLastExecutionS: Math.round((lastExecutionAt - started) / 100) / 10,
	};
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
