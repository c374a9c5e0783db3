/**
 * Webhook-trigger workflows (version 2, secret in its credential) for the tests and the benchmark
 * that run an n8n of their own, so they can restart it: one without Re-Fetch Record, one with it.
 */
import { SANDBOX_KEYS } from '../../../sandbox/index';
import type { InstanceContents, N8nCredential, N8nWorkflow } from '../../../scripts/n8n-instance';
import { prepareInstance } from '../../../scripts/n8n-instance';
import type { N8nRuntime } from '../../../scripts/n8n-runtime';
import { sandboxCredential } from '../../../scripts/workflows';
import { chain, type CredentialRef, NODE_TYPES } from './build';

/** The API credential that the re-fetching workflow uses, on the sandbox's Acme owner key. */
export const WEBHOOK_API_CREDENTIAL = {
	id: 'IbWebhookApiKey1',
	name: 'Inspection Business sandbox (webhook)',
};

export const WEBHOOK_SECRET = {
	credential: { id: 'IbWebhookSecret2', name: 'Inspection Business webhook secret' },
	header: 'X-Webhook-Secret',
	value: 'e2e-webhook-secret-7d3a91',
} as const;

export interface WebhookWorkflow {
	id: string;
	/** The trigger node's name: its output is the execution's item. */
	node: string;
	webhookId: string;
}

export const PLAIN_WEBHOOK: WebhookWorkflow = {
	id: 'IbWebhookPlain01',
	node: 'Delivery',
	webhookId: '2c4e6a80-1b3d-4f5a-8c7e-9d0b2a4c6e81',
};

export const REFETCHING_WEBHOOK: WebhookWorkflow = {
	id: 'IbWebhookRefet01',
	node: 'Delivery With Record',
	webhookId: '7e9a1c3f-5d2b-4a6c-8e0f-1b3d5f7a9c02',
};

export function webhookSecretCredential(): N8nCredential {
	return {
		...WEBHOOK_SECRET.credential,
		type: 'inspectionBusinessWebhookApi',
		data: { secret: WEBHOOK_SECRET.value },
	};
}

/**
 * n8n's own Webhook node, answering at once, for the benchmark's floor: what n8n itself costs per
 * request, with no community node (no expression isolate, no secret, no memory).
 */
export const N8N_WEBHOOK_FLOOR: WebhookWorkflow = {
	id: 'IbWebhookFloor01',
	node: 'n8n Webhook',
	webhookId: '5b8d2f4a-7c1e-4d3b-9a6f-2e4c8b0d1f73',
};

export function n8nWebhookWorkflow(target: WebhookWorkflow): N8nWorkflow {
	return chain(target.id, "n8n's Webhook node (floor)", [
		{
			name: target.node,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: target.webhookId,
			// The path makes its production URL the same shape as the trigger's (productionUrl).
			parameters: { httpMethod: 'POST', path: `${target.webhookId}/webhook`, options: {} },
		},
	]);
}

/** The trigger alone; with `apiCredential`, Re-Fetch Record is on and only inspection events start it. */
export function webhookWorkflow(
	target: WebhookWorkflow,
	apiCredential?: CredentialRef,
): N8nWorkflow {
	const refetch = apiCredential !== undefined;
	return chain(target.id, `Webhook trigger${refetch ? ', re-fetching the record' : ''}`, [
		{
			name: target.node,
			type: NODE_TYPES.webhook,
			typeVersion: 2,
			webhookId: target.webhookId,
			parameters: {
				events: refetch ? ['inspection.confirmed', 'inspection.rescheduled'] : [],
				headerName: WEBHOOK_SECRET.header,
				...(refetch ? { refetchRecord: true } : {}),
			},
			credentials: {
				inspectionBusinessWebhookApi: WEBHOOK_SECRET.credential,
				...(refetch ? { inspectionBusinessApi: apiCredential } : {}),
			},
		},
	]);
}

/** n8n's production URL of a trigger: /webhook/<webhookId>/<path of the node's webhook>. */
export const productionUrl = (n8nUrl: string, target: WebhookWorkflow) =>
	`${n8nUrl}/webhook/${target.webhookId}/webhook`;

/**
 * An n8n user folder with the package, both credentials and both webhook workflows published,
 * for the tests and the benchmark that start (and restart) an n8n of their own.
 */
export function prepareWebhookInstance(
	runtime: N8nRuntime,
	folder: string,
	install: Pick<InstanceContents, 'tarball' | 'name' | 'version'>,
	sandboxBaseUrl: string,
	extraWorkflows: N8nWorkflow[] = [],
) {
	return prepareInstance(runtime, folder, {
		...install,
		credentials: [
			webhookSecretCredential(),
			sandboxCredential(sandboxBaseUrl, {
				...WEBHOOK_API_CREDENTIAL,
				apiKey: SANDBOX_KEYS.acmeOwner,
			}),
		],
		workflows: [
			webhookWorkflow(PLAIN_WEBHOOK),
			webhookWorkflow(REFETCHING_WEBHOOK, WEBHOOK_API_CREDENTIAL),
			...extraWorkflows,
		],
		published: [PLAIN_WEBHOOK.id, REFETCHING_WEBHOOK.id, ...extraWorkflows.map((w) => w.id)],
	});
}
