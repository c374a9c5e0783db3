/**
 * How far each operation's request is from the node: the frames between the
 * node's `execute` and the call of `httpRequestWithAuthentication`, measured
 * in a real run (n8n-core's execution, the sandbox behind it). The helper is
 * wrapped to record the stack it is called from; only frames in this
 * repository's `nodes/` folder count, so test, n8n and Node frames do not.
 * Each path stays within 6 frames, and CONTRIBUTING.md's data paths list
 * the same frames (file and function) in the same order.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import type { IDataObject, IExecuteFunctions, INodeParameters, INodeType } from 'n8n-workflow';

import { InspectionBusinessActionNode } from '../../nodes/InspectionBusiness/actionNode';
import { SAMPLE_FILES } from '../../sandbox/samples';
import { runNode, withSandbox } from '../helpers/n8n';
import { api } from './support';

const root = join(__dirname, '..', '..');
const nodesFolder = join(root, 'nodes') + sep;
const MAX_FRAMES = 6;

const sandbox = withSandbox();

interface Frame {
	file: string;
	symbol: string;
}

/** The frames of a stack inside `nodes/`, outermost (the node's execute) first. */
function nodeFrames(stack: string): Frame[] {
	const frames: Frame[] = [];
	for (const line of stack.split('\n')) {
		const match = /^\s*at (?:async )?(?:(\S+) \()?(.+?):\d+:\d+\)?$/.exec(line);
		if (!match || !match[2].startsWith(nodesFolder)) continue;
		const symbol = (match[1] ?? '<anonymous>').split('.').pop() as string;
		frames.push({ file: relative(root, match[2]).split(sep).join('/'), symbol });
	}
	return frames.reverse();
}

/** The context with its helper wrapped to record the stack each request comes from. */
function recording(context: IExecuteFunctions, stacks: string[]): IExecuteFunctions {
	const send = context.helpers.httpRequestWithAuthentication;
	const helpers = {
		...context.helpers,
		async httpRequestWithAuthentication(...args: Parameters<typeof send>) {
			const limit = Error.stackTraceLimit;
			Error.stackTraceLimit = 100;
			stacks.push(new Error('frames').stack ?? '');
			Error.stackTraceLimit = limit;
			return await send.apply(context, args);
		},
	};
	return new Proxy(context, {
		get: (target, property) => (property === 'helpers' ? helpers : Reflect.get(target, property)),
	});
}

/** The action node, run with its helper wrapped. */
function recordingNode(stacks: string[]): INodeType {
	const node = new InspectionBusinessActionNode();
	return {
		description: node.description,
		methods: node.methods,
		async execute(this: IExecuteFunctions) {
			return await node.execute.call(recording(this, stacks));
		},
	};
}

/** Every request's frames for one run of the node. */
async function measure(parameters: INodeParameters): Promise<Frame[][]> {
	const stacks: string[] = [];
	const result = await runNode({
		node: recordingNode(stacks),
		parameters,
		credentials: sandbox.credentials(),
		items: [
			{
				json: {},
				binary: {
					data: { data: SAMPLE_FILES.pdf, fileName: 'radon.pdf', mimeType: 'application/pdf' },
				},
			},
		],
	});
	expect(result.error).toBeUndefined();
	expect(result.items.length).toBeGreaterThan(0);
	return stacks.map(nodeFrames);
}

/** The steps CONTRIBUTING.md lists under a data path's title, e.g. "Contact → Get Many:". */
function documentedFrames(title: string): Frame[] {
	const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
	const start = contributing.indexOf(`\n${title}`);
	expect(start).toBeGreaterThan(-1);
	const rest = contributing.slice(start + title.length + 1);
	const list = /^(?:\s*\n)*((?:\d+\. [^\n]*\n(?: {3}[^\n]*\n)*)+)/.exec(rest)?.[1] ?? '';
	return [...list.matchAll(/^\d+\. `([^`]+)`: `(\w+)`/gm)].map((m) => ({
		file: m[1],
		symbol: m[2],
	}));
}

type Page = { data: IDataObject[] };
const byId = (value: unknown) => ({ __rl: true, mode: 'id', value: String(value) });

describe('data paths: frames from the node to the wire', () => {
	it('the frame reader keeps the nodes/ frames of a stack, outermost first', () => {
		const file = (path: string) => join(root, path);
		const stack = [
			'Error: frames',
			`    at Proxy.httpRequestWithAuthentication (${file('test/node/x.test.ts')}:1:2)`,
			`    at Proxy.sendOnce (${file('nodes/shared/transport/request.ts')}:71:46)`,
			'    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
			`    at async Proxy.execute (${file('nodes/InspectionBusiness/actionNode.ts')}:40:10)`,
			`    at ${file('nodes/InspectionBusiness/helpers/x.ts')}:3:4`,
			`    at WorkflowExecute.runNode (${join(root, 'node_modules/n8n-core/x.ts')}:1:1)`,
		].join('\n');
		expect(nodeFrames(stack)).toEqual([
			{ file: 'nodes/InspectionBusiness/helpers/x.ts', symbol: '<anonymous>' },
			{ file: 'nodes/InspectionBusiness/actionNode.ts', symbol: 'execute' },
			{ file: 'nodes/shared/transport/request.ts', symbol: 'sendOnce' },
		]);
	});

	it('Contact → Get Many', async () => {
		const [frames, ...more] = await measure({ resource: 'contact', operation: 'getAll', limit: 5 });
		expect(more).toEqual([]);
		expect(frames.length).toBeLessThanOrEqual(MAX_FRAMES);
		expect(frames).toEqual(documentedFrames('Contact → Get Many:'));
	});

	it('Contact → Update', async () => {
		const contact = (await api<Page>(sandbox, '/v1/contacts', { limit: '1' })).data[0];
		const [frames, ...more] = await measure({
			resource: 'contact',
			operation: 'update',
			contact_id: byId(contact.id),
			updateFields: { city: 'Boulder' },
		});
		expect(more).toEqual([]);
		expect(frames.length).toBeLessThanOrEqual(MAX_FRAMES);
		expect(frames).toEqual(documentedFrames('Contact → Update:'));
	});

	it('Contact → Get (read from the list by ids=, all items together)', async () => {
		const contact = (await api<Page>(sandbox, '/v1/contacts', { limit: '1' })).data[0];
		const [frames, ...more] = await measure({
			resource: 'contact',
			operation: 'get',
			id: byId(contact.id),
		});
		expect(more).toEqual([]);
		expect(frames.map((frame) => frame.symbol)).toEqual([
			'execute',
			'executeBatch',
			'getByIds',
			'paginate',
			'sendApiRequest',
			'sendOnce',
		]);
	});

	it('Attachment → Upload (the duplicate check, then the upload)', async () => {
		const inspections = (await api<Page>(sandbox, '/v1/inspections', { limit: '200' })).data;
		const confirmed = inspections.find((inspection) => inspection.status === 'confirmed');
		const requests = await measure({
			resource: 'attachment',
			operation: 'upload',
			inspection_id: byId(confirmed?.id),
			kind: 'report',
			name: `Radon report ${Date.now()}`,
		});
		expect(requests).toHaveLength(2);
		for (const frames of requests) expect(frames.length).toBeLessThanOrEqual(MAX_FRAMES);
		expect(requests[0].map((frame) => frame.symbol)).toEqual([
			'execute',
			'execute',
			'findSameUpload',
			'paginate',
			'sendApiRequest',
			'sendOnce',
		]);
		expect(requests[1]).toEqual(documentedFrames('Attachment → Upload:'));
	});
});
