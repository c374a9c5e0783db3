/** Small builders for the workflow JSON the e2e tests import: nodes in a left-to-right chain. */
import type { N8nWorkflow } from '../../../scripts/n8n-instance';
import { PACKAGE_NAME } from '../../../scripts/package-tarball';

export type WorkflowNode = N8nWorkflow['nodes'][number];

export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.inspectionBusiness`,
	poll: `${PACKAGE_NAME}.inspectionBusinessTrigger`,
	webhook: `${PACKAGE_NAME}.inspectionBusinessWebhookTrigger`,
} as const;

/**
 * A poll every 15 seconds. n8n refuses a poll time of less than a minute, so
 * these are four times a minute at fixed seconds, each a job of its own.
 * `twice`: each time twice, so that n8n starts two polls at every occurrence.
 */
export function every15Seconds(twice = false): { item: Array<Record<string, string>> } {
	const seconds = ['0', '15', '30', '45'].flatMap((second) =>
		twice ? [second, second] : [second],
	);
	return {
		item: seconds.map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
	};
}

/**
 * The workflow with each polling trigger polling every 15 seconds. The e2e suite runs the
 * trigger-led examples this way: what they do is the same, and a test waits for a poll, not
 * for a minute (the newcomer's test keeps n8n's own every-minute default).
 */
export function polledEvery15Seconds(workflow: N8nWorkflow): N8nWorkflow {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type === NODE_TYPES.poll
				? {
						...node,
						parameters: {
							...(node.parameters as Record<string, unknown>),
							pollTimes: every15Seconds(),
						},
					}
				: node,
		),
	};
}

export interface CredentialRef {
	id: string;
	name: string;
}

export const manualTrigger = (): WorkflowNode => ({
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
});

/** An Inspection Business node; `options` are node settings such as executeOnce. */
export function actionNode(
	credential: CredentialRef,
	name: string,
	resource: string,
	operation: string,
	parameters: Record<string, unknown> = {},
	options: Record<string, unknown> = {},
): WorkflowNode {
	return {
		name,
		type: NODE_TYPES.action,
		typeVersion: 1,
		parameters: { resource, operation, ...parameters },
		credentials: { inspectionBusinessApi: credential },
		...options,
	};
}

export const codeNode = (name: string, jsCode: string): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode },
});

/** An Edit Fields (Set) node that outputs exactly `fields` (values may be expressions). */
export const setNode = (name: string, fields: Record<string, string>): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	parameters: {
		mode: 'manual',
		assignments: {
			assignments: Object.entries(fields).map(([field, value], index) => ({
				id: `${name}-${index}`,
				name: field,
				value,
				type: 'string',
			})),
		},
		options: {},
	},
});

/** Convert to File, "Move Base64 String to File": the JSON property becomes binary `data`. */
export const base64ToFile = (
	name: string,
	sourceProperty: string,
	fileName: string,
	mimeType: string,
): WorkflowNode => ({
	name,
	type: 'n8n-nodes-base.convertToFile',
	typeVersion: 1.1,
	parameters: {
		operation: 'toBinary',
		sourceProperty,
		binaryPropertyName: 'data',
		options: { fileName, mimeType },
	},
});

/** A workflow whose nodes run one after the other, in the order given. */
export function chain(id: string, name: string, nodes: WorkflowNode[]): N8nWorkflow {
	const connections: Record<string, unknown> = {};
	nodes.forEach((node, index) => {
		const next = nodes[index + 1];
		if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return {
		id,
		name,
		active: false,
		nodes: nodes.map((node, index) => ({
			id: `${id}-${index}`,
			position: [index * 220, 0],
			...node,
		})),
		connections,
		settings: { executionOrder: 'v1' },
	};
}
