/**
 * The trigger workflows: published before `n8n start`, so that the server
 * activates them. Both watch Globex, the sandbox organization no other e2e
 * file writes to.
 */
import type { N8nWorkflow } from '../../../scripts/n8n-instance';
import { chain, NODE_TYPES } from './build';

export const GLOBEX_CREDENTIAL = {
	id: 'IbSandboxGlobex1',
	name: 'Inspection Business sandbox (Globex)',
} as const;

export const POLL_TRIGGER = {
	id: 'IbE2ePollTrigger',
	node: 'Inspection Business Trigger',
} as const;

/** What the poll test changes, each with the event it must produce. */
export const POLLED_EVENTS = [
	'contact.created',
	'contact.updated',
	'inspection.confirmed',
	'inspection.rescheduled',
	'inspection.canceled',
	'inspection.published',
] as const;

export function pollTriggerWorkflow(): N8nWorkflow {
	return chain(POLL_TRIGGER.id, 'E2E: polling trigger (Globex)', [
		{
			name: POLL_TRIGGER.node,
			type: NODE_TYPES.poll,
			typeVersion: 1,
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				events: [...POLLED_EVENTS],
				options: {},
			},
			credentials: { inspectionBusinessApi: GLOBEX_CREDENTIAL },
		},
	]);
}

/** The webhook trigger: secret in a header plus an HMAC of the body, and the record re-fetched. */
export const WEBHOOK_TRIGGER = {
	id: 'IbE2eWebhookTrig',
	node: 'Inspection Business Webhook Trigger',
	webhookId: '6f1e0c3a-2b7d-4c59-9a1e-3d5b7c9e1f20',
	secret: 'e2e-webhook-secret-5b7c9e',
	secretHeader: 'X-Webhook-Secret',
	signatureHeader: 'X-Signature',
} as const;

/** n8n's production URL of the trigger: /webhook/<webhookId>/<path of the node's webhook>. */
export const webhookUrl = (n8nUrl: string) =>
	`${n8nUrl}/webhook/${WEBHOOK_TRIGGER.webhookId}/webhook`;

export function webhookTriggerWorkflow(): N8nWorkflow {
	return chain(WEBHOOK_TRIGGER.id, 'E2E: webhook trigger (Globex)', [
		{
			name: WEBHOOK_TRIGGER.node,
			type: NODE_TYPES.webhook,
			typeVersion: 1,
			webhookId: WEBHOOK_TRIGGER.webhookId,
			parameters: {
				events: [],
				secret: WEBHOOK_TRIGGER.secret,
				secretLocation: 'header',
				headerName: WEBHOOK_TRIGGER.secretHeader,
				verifySignature: true,
				signatureHeader: WEBHOOK_TRIGGER.signatureHeader,
				refetchRecord: true,
			},
			credentials: { inspectionBusinessApi: GLOBEX_CREDENTIAL },
		},
	]);
}
