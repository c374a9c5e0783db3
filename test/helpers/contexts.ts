/**
 * Trigger-side runners on n8n-core's real contexts:
 * - `runPoll`: a `PollContext` run through `TriggersAndPollers.runPollFunction`
 *   (what n8n's poll executor calls). Pass the same `staticData` object to the
 *   next call to continue where the last poll left off; `getPollBudgetMs` is
 *   the context's (default 5 minutes, or `pollBudgetMs`).
 * - `runWebhook`: a `WebhookContext` around a request (headers, query, JSON
 *   body, raw body), calling the node's `webhook()` as n8n's webhook service
 *   does. The response object records status, headers and body for 401 checks.
 * - `runLoadOptions`: a `LoadOptionsContext` calling `methods.loadOptions[name]`.
 */
import { randomUUID } from 'node:crypto';

import type {
	ExecutionError,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	IVersionedNodeType,
	IWebhookData,
	IWebhookResponseData,
	WorkflowExecuteMode,
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
} from './runtime';

interface SingleNodeOptions {
	node: INodeType | IVersionedNodeType;
	parameters: INodeParameters;
	credentials?: TestCredentials;
	typeVersion?: number;
}

function singleNodeWorkflow(
	options: SingleNodeOptions,
	staticData?: IDataObject,
	extraCredentials: INode['credentials'] = {},
	workflowId?: string,
) {
	const node = testedNode(
		options,
		{ id: 'harness-trigger', name: 'Trigger', position: [0, 0] },
		extraCredentials,
	);
	const workflow = buildWorkflow(
		[node],
		{},
		new NodeTypeRegistry().add(node.type, options.node),
		staticData,
		undefined,
		workflowId,
	);
	// The Workflow constructor fills parameter defaults into its own node object.
	return { workflow, node: workflow.getNode(node.name) as INode };
}

/**
 * One workflow id per static data object, as n8n tells triggers apart: calls that share their
 * static data are one trigger (one workflow); a fresh object, or none, is another.
 */
const workflowIds = new WeakMap<IDataObject, string>();

function workflowIdFor(staticData: IDataObject | undefined): string {
	if (staticData === undefined) return `harness-${randomUUID()}`;
	const id = workflowIds.get(staticData) ?? `harness-${randomUUID()}`;
	workflowIds.set(staticData, id);
	return id;
}

export interface RunPollOptions extends SingleNodeOptions {
	/** Persisted between polls: pass the object returned by the previous call. */
	staticData?: IDataObject;
	/** 'trigger' is an active workflow's poll; 'manual' is the editor's "Fetch Test Event". */
	mode?: WorkflowExecuteMode;
	pollBudgetMs?: number;
}

export interface RunPollResult {
	/** What poll() returned: null when nothing new. */
	response: INodeExecutionData[][] | null;
	/** The first output's items, or [] for null. */
	items: INodeExecutionData[];
	/** The workflow static data after the poll, to pass to the next call. */
	staticData: IDataObject;
	error?: ExecutionError;
}

export async function runPoll(options: RunPollOptions): Promise<RunPollResult> {
	const core = await bootN8nCore();
	const staticData = options.staticData ?? {};
	const { workflow, node } = singleNodeWorkflow(
		options,
		staticData,
		undefined,
		workflowIdFor(staticData),
	);
	const mode = options.mode ?? 'trigger';
	const budget = options.pollBudgetMs;
	const context = new core.PollContext(
		workflow,
		node,
		additionalData(credentialData(options.credentials)),
		mode,
		mode === 'manual' ? 'manual' : 'activate',
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
		budget === undefined ? undefined : () => budget,
	);
	const pollers = coreContainer().get(core.TriggersAndPollers);
	try {
		const response = await pollers.runPollFunction(workflow, node, context);
		return { response, items: response?.[0] ?? [], staticData };
	} catch (error) {
		return { response: null, items: [], staticData, error: error as ExecutionError };
	}
}

export interface TestWebhookRequest {
	method?: 'POST' | 'GET';
	headers?: Record<string, string>;
	query?: Record<string, string>;
	/** Parsed JSON body (what n8n's body parser gives the node). */
	body?: unknown;
	/** The raw bytes; defaults to JSON.stringify(body). */
	rawBody?: Buffer;
}

export interface RecordedResponse {
	statusCode: number;
	headers: Record<string, string>;
	body?: unknown;
	ended: boolean;
}

export interface RunWebhookResult {
	result?: IWebhookResponseData;
	/** What the node wrote to the HTTP response itself (e.g. a 401). */
	response: RecordedResponse;
	error?: Error;
}

/** Enough of express's Response for a webhook node that answers by itself. */
function recordingResponse(onEnd?: (response: RecordedResponse) => void): {
	res: unknown;
	recorded: RecordedResponse;
} {
	const recorded: RecordedResponse = { statusCode: 200, headers: {}, ended: false };
	const end = (body: unknown) => {
		if (body !== undefined) recorded.body = body;
		recorded.ended = true;
		onEnd?.(recorded);
	};
	const res = {
		status(code: number) {
			recorded.statusCode = code;
			return res;
		},
		setHeader(name: string, value: string) {
			recorded.headers[name.toLowerCase()] = value;
			return res;
		},
		header(name: string, value: string) {
			return res.setHeader(name, value);
		},
		json(body: unknown) {
			end(body);
			return res;
		},
		send(body?: unknown) {
			end(body);
			return res;
		},
		end(body?: unknown) {
			end(body);
			return res;
		},
	};
	return { res, recorded };
}

const WEBHOOK_CREDENTIAL_TYPE = 'inspectionBusinessWebhookApi';

export async function runWebhook(
	options: SingleNodeOptions & {
		request: TestWebhookRequest;
		webhookName?: 'default' | 'setup';
		mode?: WorkflowExecuteMode;
		/** The webhook credential's secret, when the node takes it from the credential. */
		webhookSecret?: string;
		/** The workflow static data; pass the same object to the next call, as n8n persists it. */
		staticData?: IDataObject;
		/**
		 * Which workflow the request is for. The trigger keeps per-workflow memory in the process, so
		 * by default calls that share a static data object share a workflow, and others do not.
		 */
		workflowId?: string;
		/** Called when the node ends the HTTP response itself (n8n would send it at that moment). */
		onResponse?: (response: RecordedResponse) => void;
	},
): Promise<RunWebhookResult> {
	const core = await bootN8nCore();
	const withSecret = options.webhookSecret !== undefined;
	const { workflow, node } = singleNodeWorkflow(
		options,
		options.staticData,
		withSecret ? { [WEBHOOK_CREDENTIAL_TYPE]: { id: 'harness-webhook', name: 'Test secret' } } : {},
		options.workflowId ?? workflowIdFor(options.staticData),
	);
	const { request } = options;
	const headers = Object.fromEntries(
		Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
	);
	const rawBody =
		request.rawBody ?? Buffer.from(request.body === undefined ? '' : JSON.stringify(request.body));
	const req = {
		method: request.method ?? 'POST',
		headers,
		query: request.query ?? {},
		params: {},
		body: request.body ?? {},
		rawBody,
	};
	const { res, recorded } = recordingResponse(options.onResponse);
	const credentials = credentialData(options.credentials);
	if (options.webhookSecret !== undefined)
		credentials[WEBHOOK_CREDENTIAL_TYPE] = { secret: options.webhookSecret };
	const data = additionalData(credentials, {
		httpRequest: req as never,
		httpResponse: res as never,
	});
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.[0];
	const webhookData: IWebhookData = {
		httpMethod: req.method,
		node: node.name,
		path: String(node.webhookId ?? 'harness'),
		webhookDescription: {
			name: options.webhookName ?? 'default',
			httpMethod: req.method,
			path: 'harness',
			...description,
		},
		workflowId: workflow.id,
		workflowExecuteAdditionalData: data,
	} as IWebhookData;
	const context = new core.WebhookContext(
		workflow,
		node,
		data,
		options.mode ?? 'webhook',
		webhookData,
		[],
		null,
	);
	try {
		if (!nodeType.webhook) throw new Error(`${node.type} has no webhook()`);
		const result = await nodeType.webhook.call(context);
		return { result, response: recorded };
	} catch (error) {
		return { response: recorded, error: error as Error };
	}
}

export async function runLoadOptions(
	options: SingleNodeOptions & { method: string },
): Promise<INodePropertyOptions[]> {
	const core = await bootN8nCore();
	const { workflow, node } = singleNodeWorkflow(options);
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const method = nodeType.methods?.loadOptions?.[options.method];
	if (!method) throw new Error(`${node.type} has no loadOptions method ${options.method}`);
	const data = additionalData(credentialData(options.credentials), {
		currentNodeParameters: node.parameters,
	});
	const context = new core.LoadOptionsContext(workflow, node, data, '');
	return await method.call(context);
}
