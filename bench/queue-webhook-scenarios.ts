/**
 * The scenarios of `npm run bench:queue-webhook`: deliveries posted to n8n webhook processes, the
 * same delivery ids posted again (right after their answer and some seconds later, to the same or
 * to the other process), and what n8n then ran. Each scenario has a workflow of its own, so its
 * delivery memory, executions and API requests are its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxControl } from '../sandbox/client';
import type { N8nCredential, N8nWorkflow } from '../scripts/n8n-instance';
import { parseFlatted } from '../scripts/n8n-rest';
import { PACKAGE_NAME } from '../scripts/package-tarball';
import { GUARD_TITLES, guardNodes, NEXT_STEP, type Guard } from './queue-webhook-guards';
import { waitFor } from '../scripts/processes';
import type { WebhookProcess } from './queue-cluster';
import { queryPostgres } from './queue-services';
import type { Answer, ApiRequest, Execution } from './queue-webhook-report';
import { isAccepted } from './queue-webhook-report';

const MINUTE = 60_000;
export const TRIGGER_NODE = 'Inspection Business Webhook Trigger';
export const SECRET_HEADER = 'X-Webhook-Secret';
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
/** No new execution for this long after the expected ones: the scenario is over. */
const QUIET_MS = 3000;

export const WEBHOOK_SECRET_CREDENTIAL: N8nCredential = {
	id: 'IbQueueWebhookS1',
	name: 'Inspection Business webhook secret (queue bench)',
	type: 'inspectionBusinessWebhookApi',
	data: { secret: 'queue-bench-secret-7d41e9c2' },
};

/** A record a delivery is about. */
export interface DeliveredRecord {
	event: 'inspection.confirmed' | 'contact.changed';
	id: string;
}

/** Settings of the webhook processes a set of scenarios runs against. */
export interface Variant {
	name: string;
	title: string;
	env: Record<string, string>;
}

/**
 * Settings of the two webhook processes. n8n 2.41.1's defaults; expression isolates acquired only
 * when an expression is evaluated (by default every request to a community webhook trigger takes
 * one and the pool holds 1, so a burst builds one per request: the setting docs/performance.md
 * recommends); a larger Postgres pool (the default of 2 connections is shared by every request a
 * webhook process serves); and both.
 */
export const VARIANTS: Variant[] = [
	{ name: 'defaults', title: "n8n's defaults", env: {} },
	{
		name: 'pool10',
		title: 'DB_POSTGRESDB_POOL_SIZE=10',
		env: { DB_POSTGRESDB_POOL_SIZE: '10' },
	},
	{
		name: 'lazy',
		title: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
	{
		name: 'tuned',
		title: 'DB_POSTGRESDB_POOL_SIZE=10, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { DB_POSTGRESDB_POOL_SIZE: '10', N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
];

export interface Scenario {
	/** Unique across variants: `<variant>/<scenario>`. */
	key: string;
	title: string;
	/** How many webhook processes it posts to. */
	processes: 1 | 2;
	deliveries: number;
	/** All first deliveries at once, or one after the other (each after the previous answer). */
	burst: boolean;
	refetchRecord: boolean;
	/** What follows the trigger before the workflow's next step (queue-webhook-guards.ts). */
	guard: Guard;
	/** The process (1-based) that receives delivery `i` first. */
	firstTo: (i: number) => number;
	/** Where delivery `i` is posted again as soon as its first answer arrived, if at all. */
	replayNowTo: (i: number) => number | undefined;
	/** Where delivery `i` is posted again some seconds after the scenario's executions ran. */
	replayLaterTo: (i: number) => number | undefined;
}

/**
 * One process: every delivery is posted again to it, right after and later. Two processes: the
 * deliveries alternate between them; the even ones are posted again to the other process right
 * after their answer, and every one is posted to the other process later (the odd ones there for
 * the first time, so only the saved memory can catch them).
 */
export function scenarios(
	variant: string,
	options: { bursts: number[]; sequential: number; guards: Guard[] },
): Scenario[] {
	const same = () => 1;
	const alternate = (i: number) => 1 + (i % 2);
	const other = (i: number) => 2 - (i % 2);
	const oneProcess = (deliveries: number): Scenario => ({
		key: `${variant}/one-${deliveries}`,
		title: `1 webhook process, burst of ${deliveries}`,
		processes: 1,
		deliveries,
		burst: true,
		refetchRecord: true,
		guard: 'none',
		firstTo: same,
		replayNowTo: same,
		replayLaterTo: same,
	});
	const guardKey = { none: '', removeDuplicates: '-rd', redis: '-redis' } as const;
	const twoProcesses = (
		deliveries: number,
		burst: boolean,
		refetchRecord = true,
		guard: Guard = 'none',
	): Scenario => ({
		key: `${variant}/two-${burst ? deliveries : `seq${deliveries}`}${refetchRecord ? '' : '-norefetch'}${guardKey[guard]}`,
		title: `2 webhook processes, ${burst ? `burst of ${deliveries}` : `${deliveries} one after the other`}${refetchRecord ? '' : ', Re-Fetch Record off'}${guard === 'none' ? '' : `, ${GUARD_TITLES[guard]}`}`,
		processes: 2,
		deliveries,
		burst,
		refetchRecord,
		guard,
		firstTo: alternate,
		replayNowTo: (i) => (i % 2 === 0 ? other(i) : undefined),
		replayLaterTo: other,
	});
	const guarded = options.guards.filter((guard) => guard !== 'none');
	return [
		...options.bursts.map(oneProcess),
		twoProcesses(options.sequential, false),
		twoProcesses(options.sequential, false, false),
		...options.bursts.map((deliveries) => twoProcesses(deliveries, true)),
		...guarded.flatMap((guard) => [
			twoProcesses(options.sequential, false, true, guard),
			...options.bursts.map((deliveries) => twoProcesses(deliveries, true, true, guard)),
		]),
	];
}

const digest = (scenario: Scenario) => createHash('sha256').update(scenario.key).digest('hex');

export const workflowId = (scenario: Scenario) => `IbQWh${digest(scenario).slice(0, 11)}`;

const webhookIdOf = (scenario: Scenario) => {
	const hex = digest(scenario);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

export const webhookPath = (scenario: Scenario) => `/webhook/${webhookIdOf(scenario)}/webhook`;

/**
 * The webhook trigger, version 2: the secret in its credential, repeats ignored (the default), then
 * the scenario's guard, if any, and a last node that stands for the workflow's next step.
 */
export function triggerWorkflow(
	scenario: Scenario,
	apiCredential: N8nCredential,
	redisCredential: N8nCredential,
): N8nWorkflow {
	const after = guardNodes(scenario.guard, TRIGGER_NODE, redisCredential);
	return {
		id: workflowId(scenario),
		// n8n keeps at most 128 characters of a workflow's name.
		name: `Queue webhook bench: ${scenario.key}, ${scenario.title}`.slice(0, 128),
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: '5e1f0b7a-0000-4000-8000-00000000d0d0',
				name: TRIGGER_NODE,
				type: `${PACKAGE_NAME}.inspectionBusinessWebhookTrigger`,
				typeVersion: 2,
				webhookId: webhookIdOf(scenario),
				position: [0, 0],
				parameters: {
					events: [],
					headerName: SECRET_HEADER,
					refetchRecord: scenario.refetchRecord,
				},
				credentials: {
					inspectionBusinessWebhookApi: {
						id: WEBHOOK_SECRET_CREDENTIAL.id,
						name: WEBHOOK_SECRET_CREDENTIAL.name,
					},
					...(scenario.refetchRecord
						? { inspectionBusinessApi: { id: apiCredential.id, name: apiCredential.name } }
						: {}),
				},
			},
			...after.nodes,
		],
		connections: after.connections,
	};
}

export interface ScenarioContext {
	processes: WebhookProcess[];
	postgresPort: number;
	control: SandboxControl;
	/** Execution id → the worker whose log says it started it. */
	ranBy: Map<string, string>;
	records: DeliveredRecord[];
	laterMs: number;
	log: (line: string) => void;
}

export interface ScenarioResult {
	answers: Answer[];
	executions: Execution[];
	requests: ApiRequest[];
	/** Delivery ids in the workflow's saved static data at the end. */
	/** Of the first deliveries, how many the workflow's saved static data holds before the later replays. */
	savedBeforeLater: number;
	/** The same at the end. */
	savedAtEnd: number;
}

/**
 * Posts one delivery body with the secret to `url` and times the whole answer. Each POST opens a
 * connection of its own, as most webhook senders do: a kept-alive connection can be closed by n8n
 * just as it is reused, which would fail a request n8n never saw. A request that fails anyway is
 * an answer with status 0 and the error as its body.
 */
export function post(
	url: string,
	body: string,
	secret: string,
): Promise<{ status: number; body: string; ms: number }> {
	const started = performance.now();
	const elapsed = () => performance.now() - started;
	return new Promise((resolve) => {
		const request = httpRequest(
			url,
			{
				method: 'POST',
				agent: false,
				timeout: 2 * MINUTE,
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					[SECRET_HEADER]: secret,
				},
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8'),
						ms: elapsed(),
					}),
				);
				response.on('error', (error) => resolve({ status: 0, body: error.message, ms: elapsed() }));
			},
		);
		request.on('timeout', () => request.destroy(new Error('no answer within 2 minutes')));
		request.on('error', (error) => resolve({ status: 0, body: error.message, ms: elapsed() }));
		request.end(body);
	});
}

export const deliveryBody = (deliveryId: string, record: DeliveredRecord) =>
	JSON.stringify({
		id: deliveryId,
		event: record.event,
		occurred_at: new Date().toISOString(),
		data: { id: record.id },
	});

/** How many of `deliveryIds` the trigger's memory in the workflow's saved static data holds. */
async function savedDeliveries(
	context: ScenarioContext,
	scenario: Scenario,
	deliveryIds: string[],
): Promise<number> {
	const [staticData] = await queryPostgres(
		context.postgresPort,
		'n8n',
		`select coalesce("staticData"::text, '{}') from workflow_entity where id = '${workflowId(scenario)}'`,
	);
	const memory = (JSON.parse(staticData ?? '{}') as Record<string, { deliveries?: unknown }>)[
		`node:${TRIGGER_NODE}`
	];
	const saved = new Set(
		(Array.isArray(memory?.deliveries) ? (memory.deliveries as Array<[string, number]>) : []).map(
			([id]) => id,
		),
	);
	return deliveryIds.filter((id) => saved.has(id)).length;
}

async function sendAll(
	context: ScenarioContext,
	scenario: Scenario,
	deliveryIds: string[],
): Promise<{ answers: Answer[]; savedBeforeLater: number }> {
	const answers: Answer[] = [];
	const secret = String(WEBHOOK_SECRET_CREDENTIAL.data.secret);
	const send = async (i: number, kind: Answer['kind'], to: number) => {
		const deliveryId = deliveryIds[i];
		const url = `${context.processes[to - 1].baseUrl}${webhookPath(scenario)}`;
		const body = deliveryBody(deliveryId, context.records[i % context.records.length]);
		answers.push({ deliveryId, kind, process: to, ...(await post(url, body, secret)) });
	};
	const deliver = async (i: number) => {
		await send(i, 'first', scenario.firstTo(i));
		const to = scenario.replayNowTo(i);
		if (to !== undefined) await send(i, 'replay-now', to);
	};
	const all = deliveryIds.map((_, i) => i);
	if (scenario.burst) await Promise.all(all.map(deliver));
	else for (const i of all) await deliver(i);

	await waitForExecutions(context, scenario, answers.filter(isAccepted).length);
	context.log(`  waiting ${context.laterMs / 1000} s, then posting the later replays`);
	await sleep(context.laterMs);
	const savedBeforeLater = await savedDeliveries(context, scenario, deliveryIds);
	await Promise.all(
		all.map(async (i) => {
			const to = scenario.replayLaterTo(i);
			if (to !== undefined) await send(i, 'replay-later', to);
		}),
	);
	await waitForExecutions(context, scenario, answers.filter(isAccepted).length);
	return { answers, savedBeforeLater };
}

interface StoredExecution {
	/** Postgres answers the serial id as a number. */
	id: number | string;
	status: string;
	data: string | null;
}

async function storedExecutions(
	context: ScenarioContext,
	scenario: Scenario,
): Promise<StoredExecution[]> {
	const rows = await queryPostgres(
		context.postgresPort,
		'n8n',
		`select json_build_object('id', e.id, 'status', e.status, 'data', d.data)::text
		 from execution_entity e left join execution_data d on d."executionId" = e.id
		 where e."workflowId" = '${workflowId(scenario)}' order by e.id`,
	);
	return rows.map((row) => JSON.parse(row) as StoredExecution);
}

/** Waits until `expected` executions finished and no other one started for a few seconds. */
async function waitForExecutions(
	context: ScenarioContext,
	scenario: Scenario,
	expected: number,
): Promise<void> {
	let seen = -1;
	let since = Date.now();
	await waitFor(
		`${expected} finished executions of ${workflowId(scenario)}`,
		async () => {
			const stored = await storedExecutions(context, scenario);
			if (stored.length !== seen) {
				seen = stored.length;
				since = Date.now();
			}
			const finished = stored.every((execution) => FINISHED.has(execution.status));
			return (stored.length >= expected && finished && Date.now() - since >= QUIET_MS) || undefined;
		},
		{ timeoutMs: 5 * MINUTE, intervalMs: 1000 },
	);
}

interface TriggerItem {
	deliveryId?: string | null;
	id?: string | null;
	record?: { id?: string } | null;
}

function readExecution(stored: StoredExecution, worker: string | undefined): Execution {
	const data = stored.data
		? (parseFlatted(stored.data) as {
				resultData: {
					runData: Record<string, Array<{ data?: { main: Array<Array<{ json: TriggerItem }>> } }>>;
					error?: { message: string };
				};
			})
		: undefined;
	const item = data?.resultData.runData[TRIGGER_NODE]?.[0]?.data?.main[0]?.[0]?.json;
	const nextStepItems = data?.resultData.runData[NEXT_STEP]?.[0]?.data?.main[0]?.length ?? 0;
	return {
		id: String(stored.id),
		status: stored.status,
		worker,
		reachedNextStep: nextStepItems > 0,
		deliveryId: item?.deliveryId ?? undefined,
		recordId: item?.id ?? undefined,
		refetchedId: item?.record?.id,
		error: data?.resultData.error?.message,
	};
}

/** Runs one scenario from a clean request log to its last execution. */
export async function runScenario(
	context: ScenarioContext,
	scenario: Scenario,
): Promise<ScenarioResult> {
	await context.control.clearRequests();
	const deliveryIds = Array.from({ length: scenario.deliveries }, () => randomUUID());
	const { answers, savedBeforeLater } = await sendAll(context, scenario, deliveryIds);
	const executions = (await storedExecutions(context, scenario)).map((stored) =>
		readExecution(stored, context.ranBy.get(String(stored.id))),
	);
	const { data: logged } = await context.control.requests({ pathPrefix: '/v1/' });
	const requests = logged.map((request) => ({
		status: request.status,
		ids: String(request.query.ids ?? '')
			.split(',')
			.filter(Boolean).length,
	}));
	const savedAtEnd = await savedDeliveries(context, scenario, deliveryIds);
	return { answers, executions, requests, savedBeforeLater, savedAtEnd };
}
