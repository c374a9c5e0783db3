/**
 * A hostile API, link and sender against the package in the e2e n8n (`n8n start`, the package
 * installed as a community package), served by the sandbox's hostile mode (docs/sandbox.md):
 *
 * - Contact → Get Many (Return All) on an API whose pages never end (`/_hostile/endless-pages`)
 *   fails its item with the API's fault after a bounded number of requests (before: still paging
 *   after 65 s and 1,915 requests);
 * - Attachment → Get Many on an API whose signed links point inside (`/_hostile/inside-links/<n8n's
 *   port>`), then Attachment → Download with the URL field's default `{{ $json.url }}`: every
 *   download is refused before anything is sent (before: n8n's own port answered as a file);
 * - 20 webhook deliveries with 1 MB delivery ids (`POST /_hostile/deliveries`) leave the trigger's
 *   static data in n8n's database under its bound per delivery (before: 20 MB), and a repeat of
 *   one is still recognised;
 * - the transport's limits (TRANSPORT_LIMITS, at their real values) in the running n8n, three
 *   workflows at once, each a Contact → Get Many (Return All) against a hostile API and then a
 *   request of the same key to the sandbox: a 0.6 MB gzip that unpacks to 600 MB
 *   (`/_hostile/gzip-bomb`), headers then a blank a second (`/_hostile/drip-answer`), and pages of
 *   one new record with a growing `total` (`/_hostile/fresh-pages/growing`). Each item fails with
 *   the limit named, within its deadline, n8n's memory grows far less than the bomb, and the
 *   key's next request is answered (before: the bomb and the drip never ended, nor did the pages).
 */
import { readFileSync } from 'node:fs';

import { insideLinks } from '../../sandbox/hostile';
import { SANDBOX_KEYS } from '../../sandbox/keys';
import { N8nDatabase } from '../../scripts/n8n-database';
import { nodeItems, type ExecutionOutput, type N8nWorkflow } from '../../scripts/n8n-instance';
import { ensureRuntime } from '../../scripts/n8n-runtime';
import { SANDBOX_WEBHOOK_CREDENTIAL, sandboxCredential } from '../../scripts/workflows';
import { REPLAY_MEMORY } from '../../nodes/InspectionBusinessWebhookTrigger/replay';
import { TRANSPORT_LIMITS } from '../../nodes/shared/transport/limits';
import { RETRY } from '../../nodes/shared/transport/retry';
import { nodeItems as executedItems, settledExecutions } from './support/deliveries';
import { useN8n } from './support/instance';
import { actionNode, chain, manualTrigger, NODE_TYPES } from './workflows/build';

const instance = useN8n('hostile', { template: 'suite' });
const port = (url: string) => Number(new URL(url).port);

const PAGES_CREDENTIAL = { id: 'IbHostilePages01', name: 'Hostile API: endless pages' };
const LINKS_CREDENTIAL = { id: 'IbHostileLinks01', name: 'Hostile API: links inside' };
const CONTINUE = { onError: 'continueRegularOutput' };

const ACTIONS = {
	id: 'IbHostileActions1',
	getMany: 'Contacts (endless pages)',
	download: 'Download',
};
function actionsWorkflow(): N8nWorkflow {
	return chain(ACTIONS.id, 'Hostile API: endless pages, links inside', [
		manualTrigger(),
		actionNode(
			PAGES_CREDENTIAL,
			ACTIONS.getMany,
			'contact',
			'getAll',
			{ returnAll: true },
			CONTINUE,
		),
		actionNode(LINKS_CREDENTIAL, 'Attachments (links inside)', 'attachment', 'getAll', {
			returnAll: true,
		}),
		// The URL field keeps its default, {{ $json.url }}: each attachment's link, as a record gives it.
		actionNode(
			LINKS_CREDENTIAL,
			ACTIONS.download,
			'attachment',
			'download',
			{ source: 'url' },
			CONTINUE,
		),
	]);
}

const WEBHOOK = {
	id: 'IbHostileWebhook1',
	node: 'Hostile Deliveries',
	webhookId: '9d2b4f6a-1c3e-4a5b-8d7f-0e2c4a6b8d91',
};
function webhookWorkflow(): N8nWorkflow {
	return chain(WEBHOOK.id, 'Hostile sender: huge delivery ids', [
		{
			name: WEBHOOK.node,
			type: NODE_TYPES.webhook,
			typeVersion: 2,
			webhookId: WEBHOOK.webhookId,
			parameters: { events: [], headerName: 'X-Webhook-Secret' },
			credentials: {
				inspectionBusinessWebhookApi: {
					id: SANDBOX_WEBHOOK_CREDENTIAL.id,
					name: SANDBOX_WEBHOOK_CREDENTIAL.name,
				},
			},
		},
	]);
}

let output: ExecutionOutput;
let executeMs: number;

beforeAll(async () => {
	const n8n = instance.userFolder;
	await n8n.importCredentials([
		sandboxCredential(`${instance.sandboxUrl}/_hostile/endless-pages`, PAGES_CREDENTIAL),
		sandboxCredential(
			`${instance.sandboxUrl}/_hostile/inside-links/${port(instance.url)}`,
			LINKS_CREDENTIAL,
		),
	]);
	await n8n.importWorkflows([actionsWorkflow(), webhookWorkflow()]);
	await instance.control.clearRequests();
	const started = Date.now();
	output = await n8n.execute(ACTIONS.id);
	executeMs = Date.now() - started;
}, 15 * 60_000);

it(`Get Many (Return All) on endless pages fails its item with the API's fault after ${TRANSPORT_LIMITS.barrenPagesInARow} requests`, async () => {
	const [item] = nodeItems(output, ACTIONS.getMany);
	expect(item.json.error).toBe(
		`The API's pages do not end: ${TRANSPORT_LIMITS.barrenPagesInARow} pages in a row brought no new record, each with a new cursor`,
	);
	const pages = await instance.control.requests({ pathPrefix: '/_hostile/endless-pages/' });
	expect(pages.count).toBe(TRANSPORT_LIMITS.barrenPagesInARow);
	// The whole `n8n execute`, its start included; before the bound it never ended on its own.
	expect(executeMs).toBeLessThan(5 * 60_000);
});

it("Download by URL of links that point inside (n8n's own port among them): every one refused, nothing sent", async () => {
	const n8nPort = port(instance.url);
	const items = nodeItems(output, ACTIONS.download);
	expect(items).toHaveLength(insideLinks(n8nPort, port(instance.sandboxUrl)).length);
	for (const item of items)
		expect(item.json.error).toMatch(/^The file link leads where a download may not go: /);
	expect(String(items[2].json.error)).toContain(
		`127.0.0.1:${n8nPort} is an address of this machine`,
	);
	expect((await instance.control.requests({ pathPrefix: '/_hostile/canary' })).count).toBe(0);
});

describe('a sender of deliveries with 1 MB ids', () => {
	const COUNT = 20;
	const send = async (count: number) => {
		const answer = await fetch(`${instance.sandboxUrl}/_hostile/deliveries`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				url: `${instance.url}/webhook/${WEBHOOK.webhookId}/webhook`,
				secret: SANDBOX_WEBHOOK_CREDENTIAL.secret,
				header: 'X-Webhook-Secret',
				count,
				id_bytes: 1024 * 1024,
			}),
			signal: AbortSignal.timeout(5 * 60_000),
		});
		return (await answer.json()) as { statuses: number[] };
	};

	it(`${COUNT} deliveries: the static data n8n saved stays under its bound per delivery; a repeat is recognised`, async () => {
		await instance.rest.publish(WEBHOOK.id);
		expect((await send(COUNT)).statuses).toEqual(Array(COUNT).fill(200));
		const database = new N8nDatabase(await ensureRuntime(), instance.userFolder.folder);
		await settledExecutions(database, WEBHOOK.id, COUNT);
		// The sender's ids are numbered from 0: this is the first one again.
		expect((await send(1)).statuses).toEqual([200]);
		expect(await settledExecutions(database, WEBHOOK.id, COUNT)).toHaveLength(COUNT);
		const stored = (await database.staticData(WEBHOOK.id)) ?? {};
		const memory = stored[`node:${WEBHOOK.node}`] as { deliveries: Array<[string, number]> };
		expect(memory.deliveries).toHaveLength(COUNT);
		const bytes = Buffer.byteLength(JSON.stringify(stored));
		expect(bytes).toBeLessThan(COUNT * (REPLAY_MEMORY.idBytes + 30));
		process.stderr.write(
			`[hostile e2e] static data after ${COUNT} deliveries with 1 MB ids: ${bytes} bytes\n`,
		);
	});
});

/**
 * The limits at work in the running n8n. Each workflow starts from n8n's own Webhook node (so it
 * runs in the server, where its memory is watched), asks a hostile API with its own key, and then
 * asks the sandbox with the same key: the key's next request.
 */
describe("the transport's limits in a real n8n", () => {
	const MB = 1024 * 1024;
	const limits = TRANSPORT_LIMITS;
	interface Case {
		id: string;
		path: string;
		fault: string;
		key: keyof typeof SANDBOX_KEYS;
		/** Requests per Minute: 1 for the bomb, so a slot it kept would hold the key's next request for good. */
		rate: number;
		webhookId: string;
	}
	const CASES = {
		bomb: {
			id: 'IbHostileBomb001',
			path: 'ib-hostile-bomb',
			fault: 'gzip-bomb',
			key: 'acmeOwner',
			rate: 1,
			webhookId: '5b1e7c3a-0b4d-4e6f-8a2c-1d3e5f7a9b01',
		},
		drip: {
			id: 'IbHostileDrip001',
			path: 'ib-hostile-drip',
			fault: 'drip-answer',
			key: 'acmeOwner2',
			rate: 120,
			webhookId: '5b1e7c3a-0b4d-4e6f-8a2c-1d3e5f7a9b02',
		},
		pages: {
			id: 'IbHostilePages02',
			path: 'ib-hostile-pages',
			fault: 'fresh-pages/growing',
			key: 'acmeStaff',
			rate: 6000,
			webhookId: '5b1e7c3a-0b4d-4e6f-8a2c-1d3e5f7a9b03',
		},
	} satisfies Record<string, Case>;
	const HOSTILE_NODE = 'Contacts (hostile)';
	const NEXT_NODE = 'Tags (the same key)';

	const credential = (c: Case, hostile: boolean) => ({
		id: `${c.id.slice(0, 13)}${hostile ? 'Hst' : 'San'}`,
		name: `${c.fault} ${hostile ? 'hostile' : 'sane'}`,
		type: 'inspectionBusinessApi',
		data: {
			apiKey: SANDBOX_KEYS[c.key],
			baseUrl: hostile ? `${instance.sandboxUrl}/_hostile/${c.fault}` : instance.sandboxUrl,
			requestsPerMinute: c.rate,
			rateLimitWaitMinutes: 3,
		},
	});
	const workflow = (c: Case): N8nWorkflow =>
		chain(c.id, `Hostile limits: ${c.fault}`, [
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: c.webhookId,
				parameters: { path: c.path, httpMethod: 'GET', responseMode: 'onReceived' },
			},
			actionNode(
				credential(c, true),
				HOSTILE_NODE,
				'contact',
				'getAll',
				{ returnAll: true },
				CONTINUE,
			),
			actionNode(credential(c, false), NEXT_NODE, 'tag', 'getAll', { returnAll: false, limit: 1 }),
		]);

	/** The n8n process's resident memory, in bytes. */
	const residentBytes = (pid: number) =>
		Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

	const runs = new Map<
		string,
		{ item: Record<string, unknown>; nodeMs: number; next: unknown[] }
	>();
	let peakGrowth = 0;

	beforeAll(async () => {
		const all = Object.values(CASES);
		await instance.userFolder.importCredentials(
			all.flatMap((c) => [credential(c, true), credential(c, false)]),
		);
		await instance.userFolder.importWorkflows(all.map(workflow));
		for (const c of all) await instance.rest.publish(c.id);
		await instance.control.clearRequests();
		const pid = instance.pid!;
		const before = residentBytes(pid);
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 200);
		try {
			for (const c of all) {
				const answer = await fetch(`${instance.url}/webhook/${c.path}`);
				expect(answer.status).toBe(200);
			}
			const database = new N8nDatabase(await ensureRuntime(), instance.userFolder.folder);
			for (const c of all) {
				const [execution] = await settledExecutions(database, c.id, 1, 10 * 60_000);
				const runData = (
					execution.data as {
						resultData: { runData: Record<string, Array<{ executionTime: number }>> };
					}
				).resultData.runData;
				runs.set(c.fault, {
					item: executedItems(execution, HOSTILE_NODE)[0],
					nodeMs: runData[HOSTILE_NODE][0].executionTime,
					next: executedItems(execution, NEXT_NODE),
				});
			}
		} finally {
			clearInterval(sampler);
		}
		peakGrowth = peak - before;
		process.stderr.write(
			`[hostile e2e] limits: n8n's memory grew at most ${Math.round(peakGrowth / MB)} MB; ${[...runs].map(([fault, run]) => `${fault} ${run.nodeMs} ms`).join(', ')}\n`,
		);
	}, 15 * 60_000);

	it('a gzip bomb of 600 MB: the item fails naming the 16 MB cap after one request; memory stays far below the bomb; the key goes on', async () => {
		const run = runs.get(CASES.bomb.fault)!;
		expect(run.item.error).toBe("The API's answer is larger than 16 MB, the most an answer may be");
		expect((await instance.control.requests({ pathPrefix: '/_hostile/gzip-bomb/' })).count).toBe(1);
		expect(run.nodeMs).toBeLessThan(limits.attemptMs);
		// Read whole, 600 MB unpacked would be held at least twice.
		expect(peakGrowth).toBeLessThan(300 * MB);
		expect(run.next.length).toBeGreaterThan(0);
	});

	it(`a drip: the item fails after ${RETRY.maxAttempts} attempts of at most a minute each; the key goes on`, async () => {
		const run = runs.get(CASES.drip.fault)!;
		expect(run.item.error).toBe('The API did not answer within 1 minute');
		expect((await instance.control.requests({ pathPrefix: '/_hostile/drip-answer/' })).count).toBe(
			RETRY.maxAttempts,
		);
		// Each attempt's deadline and the backoff between them (at most 1.75 s), with room to spare.
		expect(run.nodeMs).toBeLessThan(RETRY.maxAttempts * limits.attemptMs + 30_000);
		expect(run.next.length).toBeGreaterThan(0);
	});

	it(`pages of one new record and a growing total: the walk stops at the ${limits.walkPages}-page ceiling; the key goes on`, async () => {
		const run = runs.get(CASES.pages.fault)!;
		expect(run.item.error).toBe(
			`The API's pages do not end: ${limits.walkPages} pages and still a next cursor, more than an account's list fills (${(limits.walkPages * 200).toLocaleString('en-US')} records)`,
		);
		expect((await instance.control.requests({ pathPrefix: '/_hostile/fresh-pages/' })).count).toBe(
			limits.walkPages,
		);
		expect(run.next.length).toBeGreaterThan(0);
	});
});
