/**
 * Proves the harness runs a node through n8n-core: parameters with expressions,
 * binary in and out through the BinaryDataService, the credential applied by
 * its generic `authenticate`, pairedItem, and continue-on-fail.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeType,
	IPollFunctions,
	IWebhookFunctions,
	NodeConnectionType,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runLoadOptions, runNode, runPoll, runWebhook, withExecuteContext } from './n8n';

const seen: Array<{ url?: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
	server = createServer((req, res) => {
		seen.push({ url: req.url, headers: req.headers });
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify({ ok: true }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

/** Greets each item by an expression-resolved name, reverses its binary, and calls the API once. */
const tinyNode: INodeType = {
	description: {
		displayName: 'Tiny',
		name: 'tiny',
		group: ['transform'],
		version: 1,
		description: 'Harness smoke-test node',
		defaults: { name: 'Tiny' },
		inputs: ['main' as NodeConnectionType],
		outputs: ['main' as NodeConnectionType],
		credentials: [{ name: 'inspectionBusinessApi', required: true }],
		properties: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Suffix', name: 'suffix', type: 'string', default: '!' },
		],
	},
	async execute(this: IExecuteFunctions) {
		const out: INodeExecutionData[] = [];
		const credentials = await this.getCredentials('inspectionBusinessApi');
		for (let i = 0; i < this.getInputData().length; i++) {
			try {
				const name = this.getNodeParameter('name', i) as string;
				if (name === 'boom') throw new NodeOperationError(this.getNode(), 'Boom', { itemIndex: i });
				const input = await this.helpers.getBinaryDataBuffer(i, 'data');
				const reversed = Buffer.from(input).reverse();
				const api = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'inspectionBusinessApi',
					{
						method: 'GET',
						url: `${credentials.baseUrl as string}/v1/ping`,
						json: true,
					},
				)) as { ok: boolean };
				out.push({
					json: {
						greeting: `Hello ${name}${this.getNodeParameter('suffix', i) as string}`,
						ok: api.ok,
						requestsPerMinute: credentials.requestsPerMinute as number,
					},
					binary: { data: await this.helpers.prepareBinaryData(reversed, 'out.txt', 'text/plain') },
					pairedItem: { item: i },
				});
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [out];
	},
};

const file = (text: string) => ({
	data: Buffer.from(text),
	fileName: 'in.txt',
	mimeType: 'text/plain',
});

describe('test harness (n8n-core WorkflowExecute)', () => {
	it('runs a node with expressions, binary in/out, credentials and pairedItem', async () => {
		seen.length = 0;
		const { items, error } = await runNode({
			node: tinyNode,
			parameters: { name: '={{ $json.who.toUpperCase() }}' },
			credentials: { apiKey: 'ib_harness_key', baseUrl },
			items: [
				{ json: { who: 'ann' }, binary: { data: file('abc') } },
				{ json: { who: 'bob' }, binary: { data: file('xyz') } },
			],
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.greeting)).toEqual(['Hello ANN!', 'Hello BOB!']);
		expect(items.map((i) => i.binary?.data.data.toString())).toEqual(['cba', 'zyx']);
		expect(items[0].binary?.data).toMatchObject({ fileName: 'out.txt', mimeType: 'text/plain' });
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// The credential default (120) is filled in as n8n does.
		expect(items[0].json.requestsPerMinute).toBe(120);
		expect(seen).toHaveLength(2);
		expect(seen[0].headers.authorization).toBe('Bearer ib_harness_key');
	});

	it('reports the execution error, or continues on fail', async () => {
		const options = {
			node: tinyNode,
			parameters: { name: '={{ $json.who }}' },
			credentials: { apiKey: 'k', baseUrl },
			items: [{ json: { who: 'boom' } }, { json: { who: 'cy' }, binary: { data: file('q') } }],
		};
		const failed = await runNode(options);
		expect(failed.error?.message).toBe('Boom');
		expect(failed.items).toEqual([]);

		const continued = await runNode({ ...options, continueOnFail: true });
		expect(continued.error).toBeUndefined();
		expect(continued.items.map((i) => i.json)).toEqual([
			{ error: 'Boom' },
			expect.objectContaining({ greeting: 'Hello cy!' }),
		]);
	});

	it('gives test code a real execute context', async () => {
		const { value, error } = await withExecuteContext(
			async function () {
				return { node: this.getNode().type, mode: this.getMode() };
			},
			{ credentials: { apiKey: 'k', baseUrl } },
		);
		expect(error).toBeUndefined();
		expect(value).toEqual({ node: 'n8n-nodes-inspection-business.harnessProbe', mode: 'manual' });
	});
});

/** Counts its polls in static data and reports the poll budget. */
const pollNode: INodeType = {
	description: {
		displayName: 'Tiny Poll',
		name: 'tinyPoll',
		group: ['trigger'],
		version: 1,
		description: 'Harness poll node',
		defaults: { name: 'Tiny Poll' },
		polling: true,
		inputs: [],
		outputs: ['main' as NodeConnectionType],
		properties: [{ displayName: 'Every', name: 'every', type: 'number', default: 2 }],
	},
	async poll(this: IPollFunctions) {
		const state = this.getWorkflowStaticData('node');
		state.polls = ((state.polls as number | undefined) ?? 0) + 1;
		if ((state.polls as number) % (this.getNodeParameter('every') as number) !== 0) return null;
		return [
			[{ json: { polls: state.polls, budget: this.getPollBudgetMs(), mode: this.getMode() } }],
		];
	},
};

/** Answers 401 itself without the shared secret; otherwise starts a run with the body. */
const webhookNode: INodeType = {
	description: {
		displayName: 'Tiny Webhook',
		name: 'tinyWebhook',
		group: ['trigger'],
		version: 1,
		description: 'Harness webhook node',
		defaults: { name: 'Tiny Webhook' },
		inputs: [],
		outputs: ['main' as NodeConnectionType],
		webhooks: [{ name: 'default', httpMethod: 'POST', path: 'hook', responseMode: 'onReceived' }],
		properties: [{ displayName: 'Secret', name: 'secret', type: 'string', default: '' }],
	},
	async webhook(this: IWebhookFunctions) {
		if (this.getHeaderData()['x-secret'] !== this.getNodeParameter('secret')) {
			this.getResponseObject().status(401).send('no');
			return { noWebhookResponse: true };
		}
		const raw = (this.getRequestObject() as unknown as { rawBody: Buffer }).rawBody.toString();
		return {
			workflowData: [
				[{ json: { body: this.getBodyData(), raw, query: this.getQueryData() as object } }],
			],
		};
	},
	methods: {
		loadOptions: {
			async secrets(this: ILoadOptionsFunctions) {
				return [{ name: String(this.getCurrentNodeParameter('secret')), value: 'x' }];
			},
		},
	},
};

describe('trigger runners', () => {
	it('runPoll keeps static data between polls and exposes the poll budget', async () => {
		const first = await runPoll({ node: pollNode, parameters: {}, pollBudgetMs: 1234 });
		expect(first.response).toBeNull();
		const second = await runPoll({
			node: pollNode,
			parameters: {},
			staticData: first.staticData,
			pollBudgetMs: 1234,
		});
		expect(second.items.map((i) => i.json)).toEqual([{ polls: 2, budget: 1234, mode: 'trigger' }]);
		expect(second.staticData).toBe(first.staticData);
	});

	it('runWebhook passes headers, query, body and raw body, and records a 401 answer', async () => {
		const request = {
			headers: { 'X-Secret': 's3' },
			query: { a: '1' },
			body: { event: 'contact.changed' },
		};
		const accepted = await runWebhook({ node: webhookNode, parameters: { secret: 's3' }, request });
		expect(accepted.result?.workflowData?.[0][0].json).toEqual({
			body: { event: 'contact.changed' },
			raw: '{"event":"contact.changed"}',
			query: { a: '1' },
		});
		const refused = await runWebhook({
			node: webhookNode,
			parameters: { secret: 'other' },
			request,
		});
		expect(refused.result).toEqual({ noWebhookResponse: true });
		expect(refused.response).toMatchObject({ statusCode: 401, body: 'no', ended: true });
	});

	it('runLoadOptions calls a loadOptions method with the current parameters', async () => {
		expect(
			await runLoadOptions({ node: webhookNode, parameters: { secret: 'abc' }, method: 'secrets' }),
		).toEqual([{ name: 'abc', value: 'x' }]);
	});
});
