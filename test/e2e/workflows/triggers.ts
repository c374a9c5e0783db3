/**
 * The trigger workflows, which the triggers file publishes in its n8n. They
 * watch Globex, a sandbox organization of its own; the polling one polls every
 * 15 seconds.
 */
import type { N8nCredential, N8nWorkflow } from '../../../scripts/n8n-instance';
import { chain, every15Seconds, NODE_TYPES } from './build';

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
	'contact.tag_added',
	'contact.tag_removed',
	'inspection.confirmed',
	'inspection.rescheduled',
	'inspection.canceled',
	'inspection.published',
	'inspection_event.created',
	'inspection_event.updated',
] as const;

export function pollTriggerWorkflow(): N8nWorkflow {
	return chain(POLL_TRIGGER.id, 'E2E: polling trigger (Globex)', [
		{
			name: POLL_TRIGGER.node,
			type: NODE_TYPES.poll,
			typeVersion: 1,
			parameters: {
				pollTimes: every15Seconds(),
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

/**
 * The current webhook trigger (version 2): its secret in an Inspection Business Webhook credential,
 * repeated deliveries ignored (the default), no API credential at all.
 */
export const REPLAY_TRIGGER = {
	id: 'IbE2eWebhookRepl',
	node: 'Inspection Business Webhook Trigger v2',
	webhookId: '0b7e4f6a-5c3d-4e2f-8a1b-9c8d7e6f5a41',
	secretHeader: 'X-Webhook-Secret',
	credential: { id: 'IbE2eWebhookSecr', name: 'Inspection Business webhook secret (e2e)' },
	secret: 'e2e-replay-secret-41c8d2',
} as const;

export const replayTriggerUrl = (n8nUrl: string) =>
	`${n8nUrl}/webhook/${REPLAY_TRIGGER.webhookId}/webhook`;

export function replayTriggerCredential(): N8nCredential {
	return {
		...REPLAY_TRIGGER.credential,
		type: 'inspectionBusinessWebhookApi',
		data: { secret: REPLAY_TRIGGER.secret },
	};
}

export function replayTriggerWorkflow(): N8nWorkflow {
	return chain(REPLAY_TRIGGER.id, 'E2E: webhook trigger v2, secret credential (Globex)', [
		{
			name: REPLAY_TRIGGER.node,
			type: NODE_TYPES.webhook,
			typeVersion: 2,
			webhookId: REPLAY_TRIGGER.webhookId,
			parameters: { events: [], headerName: REPLAY_TRIGGER.secretHeader },
			credentials: { inspectionBusinessWebhookApi: REPLAY_TRIGGER.credential },
		},
	]);
}
