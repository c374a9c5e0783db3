/** The credentials and test-only workflows the global setup imports besides the examples. */
import { SANDBOX_KEYS } from '../../../sandbox/index';
import type { N8nCredential, N8nWorkflow } from '../../../scripts/n8n-instance';
import { sandboxCredential, sandboxWebhookCredential } from '../../../scripts/workflows';
import { allOperationsWorkflow } from './all-operations';
import {
	GLOBEX_CREDENTIAL,
	POLL_TRIGGER,
	pollTriggerWorkflow,
	REPLAY_TRIGGER,
	replayTriggerCredential,
	replayTriggerWorkflow,
	WEBHOOK_TRIGGER,
	webhookTriggerWorkflow,
} from './triggers';
import { retriedUploadWorkflow } from './uploads';
import { upsertWorkflow } from './upsert';

export function e2eCredentials(sandboxUrl: string): N8nCredential[] {
	return [
		sandboxCredential(sandboxUrl),
		sandboxWebhookCredential(),
		sandboxCredential(sandboxUrl, { ...GLOBEX_CREDENTIAL, apiKey: SANDBOX_KEYS.globex }),
		replayTriggerCredential(),
	];
}

export function e2eWorkflows(): N8nWorkflow[] {
	return [
		allOperationsWorkflow(),
		pollTriggerWorkflow(),
		webhookTriggerWorkflow(),
		retriedUploadWorkflow(),
		replayTriggerWorkflow(),
		upsertWorkflow(),
	];
}

/** Workflows with a trigger, published before `n8n start` so that it activates them. */
export const PUBLISHED_WORKFLOWS: string[] = [
	POLL_TRIGGER.id,
	WEBHOOK_TRIGGER.id,
	REPLAY_TRIGGER.id,
];
