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
 *   one is still recognised.
 */
import { insideLinks } from '../../sandbox/hostile';
import { N8nDatabase } from '../../scripts/n8n-database';
import { nodeItems, type ExecutionOutput, type N8nWorkflow } from '../../scripts/n8n-instance';
import { ensureRuntime } from '../../scripts/n8n-runtime';
import { SANDBOX_WEBHOOK_CREDENTIAL, sandboxCredential } from '../../scripts/workflows';
import { REPLAY_MEMORY } from '../../nodes/InspectionBusinessWebhookTrigger/replay';
import { TRANSPORT_LIMITS } from '../../nodes/shared/transport/limits';
import { settledExecutions } from './support/deliveries';
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
