/**
 * `npm run bench:queue-webhook`: the webhook trigger in a real n8n in queue mode. Postgres, Redis
 * (installed with apt-get if missing, see queue-services.ts), one main, two workers and two
 * `n8n webhook` processes, each n8n process with its own user folder and its own copy of the
 * package, as separate containers would have. The sandbox (demo seed) serves the re-fetches.
 *
 *   npm run bench:queue-webhook
 *   npm run bench:queue-webhook -- --bursts 60,200 --sequential 30 --later-s 5 --variants defaults,tuned
 *   npm run bench:queue-webhook -- --only defaults/two-seq30 --out /tmp/queue-webhook
 *   npm run bench:queue-webhook -- --variants lazy --bursts 200 --guards removeDuplicates,redis
 *
 * It checks the secret (in the Inspection Business Webhook API credential, trigger version 2),
 * then, for each variant of webhook-process settings (VARIANTS: n8n's defaults, and the recommended
 * ones), starts two webhook processes and runs the scenarios of queue-webhook-scenarios.ts: bursts of deliveries posted to one and to
 * two webhook processes, every delivery id posted again right after its answer and some seconds
 * later, and counts the answers, the executions (which worker ran them, how many per delivery id,
 * whether the record was re-fetched), the API requests and 429s, and the delivery ids the saved
 * memory holds. With --guards, the two-process scenarios run again with a guard after the trigger
 * (queue-webhook-guards.ts: n8n's Remove Duplicates, or Redis Increment and a Filter), and it counts
 * how many repeats still reach the workflow's next step. Last, it shows what a webhook process and a worker without the package do.
 * Exits 1 when a promise that holds for one webhook process is broken; the losses across two
 * processes are measured, not judged (see docs/performance.md).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SandboxControl } from '../sandbox/client';
import { N8N_VERSION } from '../scripts/n8n-runtime';
import { killAllOnSignals } from '../scripts/processes';
import type { WebhookProcess } from './queue-cluster';
import { queryPostgres } from './queue-services';
import {
	startCluster,
	startWebhookPair,
	type Cluster,
	type ClusterOptions,
} from './queue-webhook-cluster';
import { GUARDS, type Guard } from './queue-webhook-guards';
import { missingPackageChecks } from './queue-webhook-missing';
import {
	histogramText,
	summarize,
	type Answer,
	type ScenarioSummary,
} from './queue-webhook-report';
import {
	deliveryBody,
	post,
	runScenario,
	scenarios,
	VARIANTS,
	webhookPath,
	WEBHOOK_SECRET_CREDENTIAL,
	type Scenario,
	type ScenarioContext,
	type Variant,
} from './queue-webhook-scenarios';

const started = Date.now();
const log = (line: string) =>
	console.log(`[queue-webhook +${Math.round((Date.now() - started) / 1000)}s] ${line}`);

/** The named variants, in the order given. */
function variantList(text: string): Variant[] {
	return text.split(',').map((name) => {
		const variant = VARIANTS.find((known) => known.name === name);
		if (!variant)
			throw new Error(
				`--variants: ${name} is not one of ${VARIANTS.map((v) => v.name).join(', ')}`,
			);
		return variant;
	});
}

function guardList(text: string): Guard[] {
	return text
		.split(',')
		.filter(Boolean)
		.map((name) => {
			if (!GUARDS.includes(name as Guard))
				throw new Error(`--guards: ${name} is not one of ${GUARDS.join(', ')}`);
			return name as Guard;
		});
}

function options() {
	const { values } = parseArgs({
		options: {
			bursts: { type: 'string', default: '60,200' },
			sequential: { type: 'string', default: '30' },
			'later-s': { type: 'string', default: '5' },
			concurrency: { type: 'string', default: '5' },
			only: { type: 'string', default: '' },
			variants: { type: 'string', default: 'defaults,lazy' },
			out: { type: 'string', default: '' },
			'skip-missing-package': { type: 'boolean', default: false },
			guards: { type: 'string', default: '' },
		},
	});
	const whole = (text: string, name: string) => {
		const value = Number(text);
		if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be whole numbers`);
		return value;
	};
	return {
		bursts: values.bursts.split(',').map((text) => whole(text, 'bursts')),
		sequential: whole(values.sequential, 'sequential'),
		laterMs: whole(values['later-s'], 'later-s') * 1000,
		concurrency: whole(values.concurrency, 'concurrency'),
		only: values.only.split(',').filter(Boolean),
		variants: variantList(values.variants),
		out: values.out ? path.resolve(values.out) : undefined,
		missingPackageChecks: !values['skip-missing-package'],
		guards: guardList(values.guards),
	};
}

type Options = ReturnType<typeof options>;

interface SetupChecks {
	mainAnswer: string;
	wrongSecret: string[];
	secretInWorkflowJson: number;
	secretInCredentialRow: number;
}

/** Where senders must post, and where the secret lives. */
async function setupChecks(
	cluster: Cluster,
	webhooks: WebhookProcess[],
	scenario: Scenario,
): Promise<SetupChecks> {
	const body = deliveryBody('00000000-0000-4000-8000-00000000c0de', cluster.records[0]);
	const onMain = await post(`${cluster.main.baseUrl}${webhookPath(scenario)}`, body, 'x');
	const wrongSecret = await Promise.all(
		webhooks.map(async (webhook) => {
			const answer = await post(`${webhook.baseUrl}${webhookPath(scenario)}`, body, 'not-it');
			return `${webhook.name}: ${answer.status} ${answer.body.trim()}`;
		}),
	);
	const secret = String(WEBHOOK_SECRET_CREDENTIAL.data.secret);
	const count = async (sql: string) =>
		Number((await queryPostgres(cluster.postgres.port, 'n8n', sql))[0]);
	return {
		mainAnswer: `${onMain.status} ${onMain.body
			.replace(/<[^>]*>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim()
			.slice(0, 160)}`,
		wrongSecret,
		secretInWorkflowJson:
			(await count(`select count(*) from workflow_entity where nodes::text like '%${secret}%'`)) +
			(await count(`select count(*) from workflow_history where nodes::text like '%${secret}%'`)),
		secretInCredentialRow: await count(
			`select count(*) from credentials_entity where data like '%${secret}%'`,
		),
	};
}

/** The body with the delivery id left out; an error's message only, without its stack. */
function shortBody(answer: Answer): string {
	const body = answer.body.trim().replace(answer.deliveryId, '<id>');
	try {
		const parsed = JSON.parse(body) as { message?: unknown; stacktrace?: unknown };
		if (parsed.stacktrace !== undefined) return `{"message":${JSON.stringify(parsed.message)}}`;
	} catch {
		// Not JSON: shown as it is.
	}
	return body.slice(0, 120);
}

/** How many answers of each kind, process, status and body, e.g. "first → 1: 200 {"received":true} ×30". */
function answerBreakdown(answers: Answer[]): string {
	const counts = new Map<string, number>();
	for (const answer of answers) {
		const key = `${answer.kind} → ${answer.process}: ${answer.status} ${shortBody(answer)}`;
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return [...counts.entries()].map(([key, count]) => `    ${key} ×${count}`).join('\n');
}

const ms = (value: number) => `${Math.round(value)} ms`;

function printScenario(
	scenario: Scenario,
	summary: ScenarioSummary,
	saved: { beforeLater: number; atEnd: number },
): void {
	const s = summary;
	console.log(`
${scenario.title} (workflow ${scenario.key})
  Acknowledged 200 {"received":true}   ${s.acknowledged} of ${s.firstDeliveries}
  Acknowledgement latency              median ${ms(s.ackMs.median)}, p99 ${ms(s.ackMs.p99)}, max ${ms(s.ackMs.max)}
  Replays right after, ignored         ${s.replaysNow.ignored} of ${s.replaysNow.sent}
  Replays some seconds later, ignored  ${s.replaysLater.ignored} of ${s.replaysLater.sent}
  Executions started                   ${s.executions}; on a worker ${s.onWorkers}; succeeded ${s.succeeded}; without a delivery (failed before the node) ${s.withoutDelivery}
  Executions per delivery id           ${histogramText(s.executionsPerDelivery)} (count×executions)
  Replays that started a 2nd execution ${s.replaysThatRan}
  Reached the next step, per delivery  ${histogramText(s.nextStepPerDelivery)} (count×times); repeats there ${s.repeatsAtNextStep}; acknowledged, never there ${s.acceptedNeverAtNextStep}
  Acknowledged, but no execution       ${s.acceptedWithoutExecution} delivery ids
  Only failed runs, later replay ignored ${s.failedThenIgnoredLater} delivery ids
  Records re-fetched                   ${s.refetched} of ${s.executions}
  API requests                         ${s.apiRequests} (${s.idsPerRequest.toFixed(1)} ids each), 429 answers ${s.throttled}
  Delivery ids in the saved memory     ${saved.beforeLater} of ${s.firstDeliveries} before the later replays, ${saved.atEnd} at the end`);
}

function tableRow(scenario: Scenario, s: ScenarioSummary, savedBeforeLater: number): string {
	return `| ${scenario.title} | ${s.acknowledged}/${s.firstDeliveries} | ${ms(s.ackMs.median)} / ${ms(s.ackMs.p99)} / ${ms(s.ackMs.max)} | ${s.executions} (${s.onWorkers} on workers) | ${histogramText(s.executionsPerDelivery)} | ${s.replaysNow.ignored}/${s.replaysNow.sent} | ${savedBeforeLater}/${s.firstDeliveries} | ${s.replaysLater.ignored}/${s.replaysLater.sent} | ${s.replaysThatRan} | ${s.repeatsAtNextStep} | ${s.acceptedNeverAtNextStep} | ${s.acceptedWithoutExecution} | ${s.failedThenIgnoredLater} | ${s.refetched}/${s.executions} | ${s.apiRequests} | ${s.throttled} |`;
}

/** What must hold for every scenario, and across processes what must hold for one process. */
function broken(scenario: Scenario, s: ScenarioSummary): string[] {
	const problems: string[] = [];
	if (s.acknowledged !== s.firstDeliveries) problems.push('a first delivery was not acknowledged');
	if (s.onWorkers !== s.executions) problems.push('an execution did not run on a worker');
	if (s.succeeded !== s.executions) problems.push('an execution did not succeed');
	if (scenario.refetchRecord && s.refetched !== s.executions)
		problems.push('a record was not re-fetched');
	if (s.throttled > 0) problems.push('the API answered 429');
	if (s.acceptedWithoutExecution > 0)
		problems.push('an acknowledged delivery started no execution');
	if (s.failedThenIgnoredLater > 0)
		problems.push('a delivery whose run failed was remembered: a later replay was ignored');
	if (scenario.processes === 1 && s.replaysThatRan > 0)
		problems.push('a replay to the same process started an execution');
	if (s.acceptedNeverAtNextStep > 0)
		problems.push('an acknowledged delivery never reached the next step');
	return problems;
}

function writeResult(out: string | undefined, scenario: Scenario, result: object): void {
	if (!out) return;
	const file = path.join(out, `${scenario.key.replace('/', '-')}.json`);
	writeFileSync(file, JSON.stringify({ scenario: scenario.title, ...result }, null, 1));
}

async function runVariant(
	cluster: Cluster,
	webhooks: WebhookProcess[],
	variantScenarios: Scenario[],
	settings: Options,
): Promise<{ rows: string[]; problems: string[] }> {
	const context: ScenarioContext = {
		processes: webhooks,
		postgresPort: cluster.postgres.port,
		control: new SandboxControl(cluster.sandbox.baseUrl),
		ranBy: cluster.ranBy,
		records: cluster.records,
		laterMs: settings.laterMs,
		log,
	};
	const rows: string[] = [];
	const problems: string[] = [];
	for (const scenario of variantScenarios) {
		log(`Scenario ${scenario.key}: ${scenario.title}`);
		const result = await runScenario(context, scenario);
		const summary = summarize(result.answers, result.executions, result.requests);
		printScenario(scenario, summary, {
			beforeLater: result.savedBeforeLater,
			atEnd: result.savedAtEnd,
		});
		console.log(answerBreakdown(result.answers));
		writeResult(settings.out, scenario, { summary, ...result });
		rows.push(tableRow(scenario, summary, result.savedBeforeLater));
		problems.push(...broken(scenario, summary).map((problem) => `${scenario.key}: ${problem}`));
	}
	return { rows, problems };
}

function printChecks(checks: SetupChecks): void {
	console.log(`
  POST to main's /webhook/…            ${checks.mainAnswer}
  Wrong secret                          ${checks.wrongSecret.join('; ')}
  Secret in workflow JSON (rows)        ${checks.secretInWorkflowJson}; in the credential row as plain text: ${checks.secretInCredentialRow}`);
}

async function main(): Promise<void> {
	const settings = options();
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-queue-webhook-'));
	const pgDir = mkdtempSync(path.join(tmpdir(), 'ib-queue-webhook-pg-'));
	const removeFolders = () => {
		for (const dir of [workDir, pgDir]) rmSync(dir, { recursive: true, force: true });
	};
	killAllOnSignals(removeFolders);
	const stops: Array<() => Promise<void>> = [];
	const plan = settings.variants.map((variant) => ({
		variant,
		scenarios: scenarios(variant.name, settings).filter(
			(scenario) => settings.only.length === 0 || settings.only.includes(scenario.key),
		),
	}));
	const clusterOptions: ClusterOptions = {
		workDir,
		pgDir,
		scenarios: plan.flatMap((step) => step.scenarios),
		concurrency: settings.concurrency,
		logDir: settings.out,
		log,
		keep: (stop) => stops.push(stop),
	};
	try {
		if (settings.out) mkdirSync(settings.out, { recursive: true });
		const cluster = await startCluster(clusterOptions);
		const rows: string[] = [];
		const problems: string[] = [];
		let webhooks: WebhookProcess[] = [];
		for (const [index, step] of plan.entries()) {
			await Promise.all(webhooks.map((webhook) => webhook.process.stop()));
			webhooks = await startWebhookPair(cluster, step.variant, clusterOptions);
			console.log(`
n8n ${N8N_VERSION} queue mode: 1 main (production webhooks off), 2 workers (concurrency ${settings.concurrency}), 2 webhook processes with ${step.variant.title}; Postgres, Redis`);
			if (index === 0) printChecks(await setupChecks(cluster, webhooks, step.scenarios[0]));
			const outcome = await runVariant(cluster, webhooks, step.scenarios, settings);
			rows.push(...outcome.rows.map((row) => `| ${step.variant.name} ${row}`));
			problems.push(...outcome.problems);
		}
		console.log(`
| Settings | Scenario | Acknowledged | Ack median / p99 / max | Executions | Executions per delivery id | Replays right after ignored | Ids in saved memory before later replays | Replays later ignored | Replays that ran | Repeats at the next step | Acknowledged, never at the next step | Acknowledged, no execution | Failed, later replay ignored | Records re-fetched | API requests | 429 |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`);
		if (settings.missingPackageChecks) {
			const [scenario] = plan[plan.length - 1].scenarios;
			console.log(await missingPackageChecks({ ...cluster, webhooks }, workDir, scenario, log));
		}
		if (problems.length) {
			console.log(`Broken:\n  ${problems.join('\n  ')}`);
			process.exitCode = 1;
		}
	} finally {
		log('Stopping the webhook processes, workers, n8n, the sandbox, Redis and Postgres');
		for (const stop of stops.reverse()) await stop();
		removeFolders();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
