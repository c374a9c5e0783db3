/**
 * The webhook trigger's promises in a real n8n under `n8n start`, past the first delivery: an n8n
 * of this file's own (so it can be restarted) and a sandbox of its own (so its rate budget is
 * this file's). Version 2 of the trigger, its secret in the Inspection Business Webhook API
 * credential; one workflow without Re-Fetch Record, one with it.
 *
 * - Every delivery is remembered, not only a workflow's first: delivery X once, then Y three
 *   times, starts 2 executions, with Re-Fetch off and on, and again after n8n restarts.
 * - An accepted delivery is answered `{"received":true}` at once, whatever the API's budget: with
 *   the key's budget used up, a burst of 60 with Re-Fetch on is answered before any record is
 *   read, within 2 s each (or, on a machine so busy that n8n's own Webhook node takes longer for
 *   the same burst, within twice what it takes), starts one execution per delivery, and its
 *   records are read in a few `ids=` requests. That part runs with n8n's setting
 *   N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: by default n8n 2.x builds a fresh expression isolate
 *   for every webhook request to a community trigger before the trigger runs (about 0.15 s of CPU
 *   each), so a burst's answers wait on n8n's CPU whatever the node does; the replay and restart
 *   proofs run with n8n's defaults.
 * - A re-fetch that fails after the acknowledgement fails its execution visibly.
 * - A delivery whose top-level id is its record's id has no delivery id: two changes of one record
 *   start two executions, while a true delivery id sent twice starts one.
 * - The key of the queue-mode guard (docs/webhook-trigger.md), `{{ $json.deliveryId ?? $execution.id }}`,
 *   in n8n's Remove Duplicates after the trigger: a repeat the trigger let through (as another
 *   webhook process would) goes on once, every delivery without an id goes on; keyed on
 *   `{{ $json.deliveryId }}` alone, every delivery without an id after the first would be dropped.
 *   (Across processes the guard is Redis Increment: measured by `npm run bench:queue-webhook`.)
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../sandbox/index';
import { SandboxControl } from '../../sandbox/client';
import { N8nDatabase } from '../../scripts/n8n-database';
import type { N8nUserFolder } from '../../scripts/n8n-instance';
import { LOCAL_OWNER } from '../../scripts/n8n-rest';
import { ensureRuntime } from '../../scripts/n8n-runtime';
import type { N8nServer } from '../../scripts/n8n-server';
import { PACKAGE_NAME } from '../../scripts/package-tarball';
import { freePort } from '../../scripts/ports';
import { waitFor } from '../../scripts/processes';
import type { N8nWorkflow } from '../../scripts/n8n-instance';
import {
	deliveryBody,
	executionError,
	executionsPerDelivery,
	latency,
	nodeItems,
	post,
	postAtOnce,
	recordOnlyBody,
	settledExecutions,
	triggerItem,
} from './support/deliveries';
import { readState } from './support/state';
import {
	N8N_WEBHOOK_FLOOR,
	n8nWebhookWorkflow,
	PLAIN_WEBHOOK,
	prepareWebhookInstance,
	productionUrl,
	REFETCHING_WEBHOOK,
	type WebhookWorkflow,
	WEBHOOK_SECRET,
} from './workflows/webhooks';
import { NODE_TYPES } from './workflows/build';

/**
 * A guard after the trigger in one n8n: the trigger with Ignore Repeated Deliveries off stands for
 * the webhook process that never saw the first delivery; Remove Duplicates (kept in n8n's
 * database) then decides on the guard's key. A second Remove Duplicates on `deliveryId` alone
 * shows why the key falls back to the execution id.
 */
const RECIPE: WebhookWorkflow = {
	id: 'IbWebhookDedup01',
	node: 'Delivery (repeats let through)',
	webhookId: '3f1a5c7e-9b2d-4e6f-8a0c-2d4f6b8e0a13',
};
const RECIPE_NEXT = 'Next Step';
const NAIVE_NEXT = 'Next Step (deliveryId alone)';

function recipeWorkflow(): N8nWorkflow {
	const node = (name: string, type: string, parameters: object, x: number, y = 0) => ({
		id: `${RECIPE.id}-${x}-${y}`,
		name,
		type,
		typeVersion: type === 'n8n-nodes-base.removeDuplicates' ? 2 : 1,
		position: [x, y],
		parameters,
	});
	const dedupe = (dedupeValue: string) => ({
		operation: 'removeItemsSeenInPreviousExecutions',
		dedupeValue,
		options: {},
	});
	const to = (name: string) => ({ main: [[{ node: name, type: 'main', index: 0 }]] });
	return {
		id: RECIPE.id,
		name: 'Webhook trigger, then Remove Duplicates on the delivery id',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				...node(RECIPE.node, NODE_TYPES.webhook, {}, 0),
				typeVersion: 2,
				webhookId: RECIPE.webhookId,
				parameters: { events: [], headerName: WEBHOOK_SECRET.header, ignoreRepeats: false },
				credentials: { inspectionBusinessWebhookApi: WEBHOOK_SECRET.credential },
			},
			node(
				'Remove Duplicates',
				'n8n-nodes-base.removeDuplicates',
				dedupe('={{ $json.deliveryId ?? $execution.id }}'),
				220,
			),
			node(RECIPE_NEXT, 'n8n-nodes-base.noOp', {}, 440),
			node(
				'Remove Duplicates (deliveryId alone)',
				'n8n-nodes-base.removeDuplicates',
				dedupe('={{ $json.deliveryId }}'),
				220,
				200,
			),
			node(NAIVE_NEXT, 'n8n-nodes-base.noOp', {}, 440, 200),
		],
		connections: {
			[RECIPE.node]: {
				main: [
					[
						{ node: 'Remove Duplicates', type: 'main', index: 0 },
						{ node: 'Remove Duplicates (deliveryId alone)', type: 'main', index: 0 },
					],
				],
			},
			'Remove Duplicates': to(RECIPE_NEXT),
			'Remove Duplicates (deliveryId alone)': to(NAIVE_NEXT),
		},
	};
}

const RECEIVED = JSON.stringify({ received: true });
const ignoredBody = (id: string) =>
	JSON.stringify({ received: true, ignored: `delivery ${id} was already received` });

let sandbox: RunningSandbox;
let control: SandboxControl;
let folder: N8nUserFolder;
let server: N8nServer;
let database: N8nDatabase;

/**
 * Starts n8n and waits until it has registered both webhooks: n8n answers its REST API before it
 * has activated the published workflows. A wrong secret probes it (401 once registered, 404
 * before), and starts nothing.
 */
async function startN8n(env: Record<string, string> = {}): Promise<void> {
	server = await folder.startServer(await freePort(), { env, ui: false });
	for (const target of [PLAIN_WEBHOOK, REFETCHING_WEBHOOK, RECIPE]) {
		const url = productionUrl(server.baseUrl, target);
		await waitFor(
			`n8n to register ${url}`,
			async () =>
				(await post(url, deliveryBody(randomUUID(), randomUUID()), 'probe')).status === 401 ||
				undefined,
			{ timeoutMs: 120_000, intervalMs: 500 },
		);
	}
}

beforeAll(async () => {
	const state = readState();
	const runtime = await ensureRuntime();
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
	control = new SandboxControl(sandbox.baseUrl);
	const { version } = (await import('../../package.json')) as { version: string };
	folder = await prepareWebhookInstance(
		runtime,
		path.join(state.workDir, 'webhook-n8n'),
		{ tarball: state.tarball, name: PACKAGE_NAME, version },
		sandbox.baseUrl,
		[n8nWebhookWorkflow(N8N_WEBHOOK_FLOOR), recipeWorkflow()],
	);
	database = new N8nDatabase(runtime, folder.folder);
	await startN8n();
	await server.rest.setupOwner(LOCAL_OWNER);
});

afterAll(async () => {
	await server?.stop();
	await sandbox?.stop();
});

const newInspection = async () =>
	String(((await control.createInspection({ org: 'acme' })) as { id: string }).id);

/** The delivery ids a workflow's executions carry, in order. */
async function deliveriesRun(target: WebhookWorkflow, count: number): Promise<string[]> {
	const executions = await settledExecutions(database, target.id, count);
	return executions.map((execution) => String(triggerItem(execution, target.node)?.deliveryId));
}

const TARGETS = [
	['without Re-Fetch Record', PLAIN_WEBHOOK],
	['with Re-Fetch Record', REFETCHING_WEBHOOK],
] as const;
/** Per workflow: the two deliveries sent before the restart, and the record they are about. */
const sent = new Map<string, { X: string; Y: string; record: string }>();

describe.each(TARGETS)('%s', (_label, target) => {
	it('remembers every delivery: X once, then Y three times, starts 2 executions and saves both ids', async () => {
		const delivered = { X: randomUUID(), Y: randomUUID(), record: await newInspection() };
		sent.set(target.id, delivered);
		const { X, Y, record } = delivered;
		const url = productionUrl(server.baseUrl, target);
		const answers = [await post(url, deliveryBody(X, record))];
		for (let i = 0; i < 3; i++) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			answers.push(await post(url, deliveryBody(Y, record)));
		}
		expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
			[200, RECEIVED],
			[200, RECEIVED],
			[200, ignoredBody(Y)],
			[200, ignoredBody(Y)],
		]);
		expect(await deliveriesRun(target, 2)).toEqual([X, Y]);
		const saved = JSON.stringify(await database.staticData(target.id));
		expect([saved.includes(X), saved.includes(Y)]).toEqual([true, true]);
	});
});

describe('after n8n restarts', () => {
	beforeAll(async () => {
		await server.stop();
		await startN8n();
	});

	it.each(TARGETS)(
		'%s: X and Y are still known; a new delivery Z runs once',
		async (_label, target) => {
			const delivered = sent.get(target.id);
			if (!delivered) throw new Error('the test before the restart did not run');
			const { X, Y, record } = delivered;
			const url = productionUrl(server.baseUrl, target);
			const Z = randomUUID();
			const answers = [];
			for (const id of [Y, X, Z, Z]) answers.push(await post(url, deliveryBody(id, record)));
			expect(answers.map((answer) => answer.body)).toEqual([
				ignoredBody(Y),
				ignoredBody(X),
				RECEIVED,
				ignoredBody(Z),
			]);
			expect(await deliveriesRun(target, 3)).toEqual([X, Y, Z]);
		},
	);
});

describe('a burst with Re-Fetch Record on, the API at 120 requests a minute', () => {
	beforeAll(async () => {
		await server.stop();
		await startN8n({ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' });
	});

	it('answers 60 deliveries at once while the key has no budget left, starts one execution per delivery, and reads the records in a few requests', async () => {
		const records = await Promise.all(Array.from({ length: 60 }, newInspection));
		const deliveries = records.map((record) => ({ id: randomUUID(), record }));
		const before = (await database.executions(REFETCHING_WEBHOOK.id)).length;
		const floor = await n8nWebhookFloor(deliveries.length + 1);
		await useUpTheBudget();
		await control.clearRequests();
		// One delivery is sent twice within the burst, as a sender retrying early would.
		const bodies = deliveries.map(({ id, record }) => deliveryBody(id, record));
		bodies.push(bodies[7]);
		const answers = await postAtOnce(productionUrl(server.baseUrl, REFETCHING_WEBHOOK), bodies);
		const readBeforeAnswers = (await control.requests({ pathPrefix: '/v1/' })).data.filter(
			(entry) => entry.status === 200,
		);

		const timing = latency(answers);
		const bound = Math.max(2000, 2 * floor.max);
		process.stderr.write(
			`webhook burst of ${answers.length}: ${JSON.stringify(timing)} ms; n8n's Webhook node: ${JSON.stringify(floor)} ms; bound ${bound} ms\n`,
		);
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		expect(answers.filter((answer) => answer.body === RECEIVED)).toHaveLength(60);
		expect(answers.filter((answer) => answer.body === ignoredBody(deliveries[7].id))).toHaveLength(
			1,
		);
		// Answered without waiting for the API: no record had been read when the last answer came.
		expect(readBeforeAnswers).toEqual([]);
		expect(timing.max).toBeLessThanOrEqual(bound);

		const executions = (
			await settledExecutions(database, REFETCHING_WEBHOOK.id, before + 60, 5 * 60_000)
		).slice(before);
		const perDelivery = executionsPerDelivery(executions, REFETCHING_WEBHOOK.node);
		expect([...perDelivery.keys()].sort()).toEqual(deliveries.map(({ id }) => id).sort());
		expect([...perDelivery.values()].every((count) => count === 1)).toBe(true);
		for (const execution of executions) {
			const item = triggerItem(execution, REFETCHING_WEBHOOK.node);
			expect((item?.record as { id?: string } | null)?.id).toBe(item?.id);
		}
		const reads = (await control.requests({ pathPrefix: '/v1/' })).data.filter(
			(entry) => entry.status === 200,
		);
		expect(reads.length).toBeGreaterThan(0);
		expect(reads.length).toBeLessThanOrEqual(3);
	});
});

/**
 * The same burst to n8n's own Webhook node (answering at once, no community node): what n8n
 * itself takes per request on this machine right now.
 */
async function n8nWebhookFloor(size: number) {
	const url = productionUrl(server.baseUrl, N8N_WEBHOOK_FLOOR);
	await waitFor(
		`n8n to register ${url}`,
		async () => (await post(url, '{}')).status === 200 || undefined,
		{
			timeoutMs: 60_000,
			intervalMs: 500,
		},
	);
	const bodies = Array.from({ length: size }, () => deliveryBody(randomUUID(), randomUUID()));
	return latency(await postAtOnce(url, bodies));
}

/** Spends the key owner's 120 requests of the sandbox's sliding minute, so a re-fetch must wait. */
async function useUpTheBudget(): Promise<void> {
	for (let spent = 0; spent < 200; spent++) {
		const answer = await fetch(`${sandbox.baseUrl}/v1/tags?limit=1`, {
			headers: { Authorization: `Bearer ${SANDBOX_KEYS.acmeOwner}` },
		});
		await answer.arrayBuffer();
		if (answer.status === 429) return;
	}
	throw new Error('The sandbox never answered 429: is its rate limit on?');
}

describe('answers for deliveries that start nothing, and a failed re-fetch', () => {
	it('a wrong secret gets 401 and an unselected event is acknowledged, as before', async () => {
		const url = productionUrl(server.baseUrl, REFETCHING_WEBHOOK);
		const refused = await post(url, deliveryBody(randomUUID(), randomUUID()), 'not-the-secret');
		expect([refused.status, refused.body]).toEqual([
			401,
			JSON.stringify({ message: 'Unauthorized: missing or wrong secret' }),
		]);
		const unselected = await post(url, deliveryBody(randomUUID(), randomUUID(), 'contact.changed'));
		expect([unselected.status, unselected.body]).toEqual([
			200,
			JSON.stringify({ received: true, ignored: 'event contact.changed is not selected' }),
		]);
	});

	it('a re-fetch that fails after the acknowledgement fails its execution, naming record and delivery', async () => {
		const record = await newInspection();
		const before = (await database.executions(REFETCHING_WEBHOOK.id)).length;
		// The transport tries a GET 4 times; all of them fail.
		const failure = { kind: '500' as const, method: 'GET', path: '/v1/inspections' };
		await control.queueFaults(failure, failure, failure, failure);
		const id = randomUUID();
		const answer = await post(
			productionUrl(server.baseUrl, REFETCHING_WEBHOOK),
			deliveryBody(id, record),
		);
		expect([answer.status, answer.body]).toEqual([200, RECEIVED]);

		const executions = await settledExecutions(database, REFETCHING_WEBHOOK.id, before + 1);
		const failed = executions.filter((execution) => executionError(execution)?.includes(id));
		expect(failed.map((execution) => execution.status)).toEqual(['error']);
		expect(executionError(failed[0])).toMatch(
			new RegExp(`^Could not re-fetch inspection ${record} of delivery ${id} \\(`),
		);
	});
});

describe('a delivery whose top-level id is its record id', () => {
	it('has no delivery id: two changes of one record start two executions; a true delivery id sent twice starts one', async () => {
		const record = await newInspection();
		const url = productionUrl(server.baseUrl, PLAIN_WEBHOOK);
		const before = (await database.executions(PLAIN_WEBHOOK.id)).length;
		const answers = [
			await post(url, recordOnlyBody(record, 'inspection.confirmed')),
			await post(url, recordOnlyBody(record, 'inspection.rescheduled')),
		];
		const delivery = randomUUID();
		for (let i = 0; i < 2; i++) answers.push(await post(url, deliveryBody(delivery, record)));
		expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
			[200, RECEIVED],
			[200, RECEIVED],
			[200, RECEIVED],
			[200, ignoredBody(delivery)],
		]);
		const executions = (await settledExecutions(database, PLAIN_WEBHOOK.id, before + 3)).slice(
			before,
		);
		expect(
			executions.map((execution) => {
				const item = triggerItem(execution, PLAIN_WEBHOOK.node);
				return [item?.event, item?.id, item?.deliveryId];
			}),
		).toEqual([
			['inspection.confirmed', record, null],
			['inspection.rescheduled', record, null],
			['inspection.confirmed', record, delivery],
		]);
		expect(JSON.stringify(await database.staticData(PLAIN_WEBHOOK.id))).not.toContain(record);
	});
});

describe("the guard's key, deliveryId or else the execution id, in n8n's Remove Duplicates", () => {
	it('lets a repeat the trigger let through reach the next step once, and every delivery without an id', async () => {
		const record = await newInspection();
		const url = productionUrl(server.baseUrl, RECIPE);
		const delivery = randomUUID();
		const bodies = [
			deliveryBody(delivery, record),
			deliveryBody(delivery, record),
			recordOnlyBody(record, 'inspection.confirmed'),
			recordOnlyBody(record, 'inspection.rescheduled'),
		];
		const answers = [];
		for (const [index, body] of bodies.entries()) {
			answers.push(await post(url, body));
			// One at a time: n8n's Remove Duplicates records without a lock, so two executions at
			// once may fail one of them (why the docs give Redis for several processes). This test
			// checks the key, not that race.
			await settledExecutions(database, RECIPE.id, index + 1);
		}
		expect(answers.map((answer) => answer.body)).toEqual(bodies.map(() => RECEIVED));

		const executions = await settledExecutions(database, RECIPE.id, 4);
		expect(executions.map((execution) => execution.status)).toEqual(bodies.map(() => 'success'));
		const reached = (next: string) =>
			executions.map((execution) => nodeItems(execution, next).map((item) => item.deliveryId));
		// The repeat stops at Remove Duplicates; both changes without a delivery id go on.
		expect(reached(RECIPE_NEXT)).toEqual([[delivery], [], [null], [null]]);
		// Keyed on deliveryId alone, the second delivery without an id is taken for the first.
		expect(reached(NAIVE_NEXT)).toEqual([[delivery], [], [null], []]);
	});
});
