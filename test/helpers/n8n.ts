/**
 * Test harness: runs this package's nodes through n8n-core's real execution code.
 *
 * - `runNode(options)`: builds a two-node workflow (a harness input node → the
 *   node under test) and runs it with n8n-core's `WorkflowExecute`, so the node
 *   gets the real `ExecuteContext`: parameter and expression resolution, the
 *   credential with its defaults, `httpRequestWithAuthentication` applying the
 *   credential's generic `authenticate`, and the real BinaryDataService
 *   (filesystem mode). Input binaries are stored through n8n's helpers; output
 *   binaries come back as Buffers. Returns the first output's items (json,
 *   binary, pairedItem), every output, the execution error if the workflow
 *   failed, and the raw `IRun`. `continueOnFail: true` or `onError` set the
 *   node's error handling as in the editor; aborting `signal` stops the run
 *   like the editor's Stop button (the node sees getExecutionCancelSignal()).
 * - `withExecuteContext(fn, options)`: runs `fn` inside a probe node through the
 *   same path, so transport code runs with a real `IExecuteFunctions`. Returns
 *   `{ value, error }`.
 * - `runPoll`, `runWebhook`, `runLoadOptions`: see `./contexts.ts`.
 * - `withSandbox(options?, { reset? })`, `SANDBOX_KEYS`, `UNLIMITED_RATE`: see
 *   `./sandbox.ts` (sandbox per test file; request log and faults cleared
 *   before each test; rate limit effectively off unless a test sets one).
 *
 * Example:
 *   const sandbox = withSandbox();
 *   const { items, error } = await runNode({
 *     node: new InspectionBusiness(),
 *     parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
 *     credentials: sandbox.credentials(),
 *     items: [{ json: { id: 'x' }, binary: { data: { data: Buffer.from('hi'), fileName: 'a.txt', mimeType: 'text/plain' } } }],
 *   });
 */
import type {
	ExecutionError,
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IVersionedNodeType,
	NodeConnectionType,
} from 'n8n-workflow';

import {
	additionalData,
	bootN8nCore,
	buildWorkflow,
	coreContainer,
	credentialData,
	NodeTypeRegistry,
	type TestCredentials,
	testedNode,
	typeName,
} from './runtime';

export type { TestCredentials } from './runtime';
export { runLoadOptions, runPoll, runWebhook } from './contexts';
export { SANDBOX_KEYS, UNLIMITED_RATE, withSandbox } from './sandbox';

export interface TestBinary {
	data: Buffer;
	fileName?: string;
	mimeType: string;
}

export interface TestItem {
	json: IDataObject;
	binary?: Record<string, TestBinary>;
}

export interface OutputItem {
	json: IDataObject;
	binary?: Record<string, TestBinary & { fileExtension?: string; fileSize?: string }>;
	pairedItem?: INodeExecutionData['pairedItem'];
	error?: INodeExecutionData['error'];
}

export interface RunNodeOptions {
	node: INodeType | IVersionedNodeType;
	parameters: INodeParameters;
	credentials?: TestCredentials;
	items?: TestItem[];
	continueOnFail?: boolean;
	onError?: INode['onError'];
	typeVersion?: number;
	/** Aborting it cancels the execution the way n8n's Stop button does. */
	signal?: AbortSignal;
	/** The workflow's timezone setting (n8n's default otherwise). */
	timezone?: string;
}

export interface RunNodeResult {
	/** Items of the first output. */
	items: OutputItem[];
	/** Items of every output, for nodes with an error output or several branches. */
	outputs: OutputItem[][];
	/** The workflow's error when the node failed without continue-on-fail. */
	error?: ExecutionError;
	run: IRun;
}

const INPUT_NODE = 'Input';
const NODE_UNDER_TEST = 'Node';

/** The harness's first node: turns the test's items into n8n items, storing binaries through n8n. */
function inputNodeType(items: TestItem[]): INodeType {
	return {
		description: {
			displayName: 'Harness Input',
			name: 'harnessInput',
			group: ['transform'],
			version: 1,
			description: 'Emits the test items',
			defaults: { name: INPUT_NODE },
			inputs: ['main' as NodeConnectionType],
			outputs: ['main' as NodeConnectionType],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const out: INodeExecutionData[] = [];
			for (const item of items) {
				const binary: Record<string, IBinaryData> = {};
				for (const [key, file] of Object.entries(item.binary ?? {})) {
					binary[key] = await this.helpers.prepareBinaryData(
						file.data,
						file.fileName,
						file.mimeType,
					);
				}
				out.push({
					json: item.json,
					...(item.binary ? { binary } : {}),
					pairedItem: { item: 0 },
				});
			}
			return [out];
		},
	};
}

async function toOutputItem(item: INodeExecutionData): Promise<OutputItem> {
	const core = await bootN8nCore();
	const result: OutputItem = { json: item.json, pairedItem: item.pairedItem };
	if (item.error) result.error = item.error;
	if (item.binary) {
		result.binary = {};
		for (const [key, data] of Object.entries(item.binary)) {
			result.binary[key] = {
				data: await coreContainer().get(core.BinaryDataService).getAsBuffer(data),
				fileName: data.fileName,
				mimeType: data.mimeType,
				fileExtension: data.fileExtension,
				fileSize: data.fileSize,
			};
		}
	}
	return result;
}

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const core = await bootN8nCore();
	const nodeType = options.node;
	const registry = new NodeTypeRegistry()
		.add('harness.input', inputNodeType(options.items ?? [{ json: {} }]))
		.add(typeName(nodeType), nodeType);
	const inputNode: INode = {
		id: 'harness-input',
		name: INPUT_NODE,
		type: 'harness.input',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const underTest: INode = {
		...testedNode(options, { id: 'harness-node', name: NODE_UNDER_TEST, position: [200, 0] }),
		...(options.continueOnFail ? { continueOnFail: true } : {}),
		...(options.onError ? { onError: options.onError } : {}),
	};
	const workflow = buildWorkflow(
		[inputNode, underTest],
		{
			[INPUT_NODE]: {
				main: [[{ node: NODE_UNDER_TEST, type: 'main' as NodeConnectionType, index: 0 }]],
			},
		},
		registry,
		undefined,
		options.timezone,
	);
	const data = additionalData(credentialData(options.credentials));
	data.hooks = new core.ExecutionLifecycleHooks('manual', data.executionId ?? 'harness', {
		id: workflow.id,
		name: workflow.name ?? '',
		active: false,
		isArchived: false,
		nodes: [inputNode, underTest],
		connections: workflow.connectionsBySourceNode,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	});
	// A cancelled run never settles its own promise; the after-hook still reports it.
	const finished = new Promise<IRun>((resolve) =>
		data.hooks?.addHandler('workflowExecuteAfter', resolve),
	);
	const running = new core.WorkflowExecute(data, 'manual').run({ workflow, startNode: inputNode });
	options.signal?.addEventListener('abort', () => running.cancel());
	const run = await Promise.race([running, finished]);
	const task = run.data.resultData.runData[NODE_UNDER_TEST]?.[0];
	const outputs = await Promise.all(
		(task?.data?.main ?? []).map(
			async (branch) => await Promise.all((branch ?? []).map(toOutputItem)),
		),
	);
	return { items: outputs[0] ?? [], outputs, error: run.data.resultData.error, run };
}

/** A node whose execute calls `fn` with its real context; declares the package credential. */
function probeNodeType<T>(
	fn: (this: IExecuteFunctions) => Promise<T>,
	sink: { value?: T },
): INodeType {
	return {
		description: {
			displayName: 'Harness Probe',
			name: 'harnessProbe',
			group: ['transform'],
			version: 1,
			description: 'Runs a test function with a real execute context',
			defaults: { name: 'Probe' },
			inputs: ['main' as NodeConnectionType],
			outputs: ['main' as NodeConnectionType],
			credentials: [{ name: 'inspectionBusinessApi', required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			sink.value = await fn.call(this);
			return [
				this.getInputData().map((item, index) => ({
					json: item.json,
					pairedItem: { item: index },
				})),
			];
		},
	};
}

/** Runs `fn` as a node's execute through WorkflowExecute; `error` is the workflow's error if `fn` threw. */
export async function withExecuteContext<T>(
	fn: (this: IExecuteFunctions) => Promise<T>,
	options: {
		credentials: TestCredentials;
		items?: TestItem[];
		parameters?: INodeParameters;
		signal?: AbortSignal;
		/** The workflow's timezone setting (n8n's default otherwise). */
		timezone?: string;
	},
): Promise<{ value?: T; error?: ExecutionError }> {
	const sink: { value?: T } = {};
	const { error } = await runNode({
		node: probeNodeType(fn, sink),
		parameters: options.parameters ?? {},
		credentials: options.credentials,
		items: options.items,
		signal: options.signal,
		timezone: options.timezone,
	});
	return { value: sink.value, error };
}
