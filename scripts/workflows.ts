/** The sandbox credential and the example workflows, as the demo and the e2e tests import them. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_KEYS } from '../sandbox/index';
import type { N8nCredential, N8nWorkflow } from './n8n-instance';
import { PACKAGE_DIR } from './package-tarball';

const EXAMPLES_DIR = path.join(PACKAGE_DIR, 'examples');

/** The credential the examples reference; its id is fixed so imported workflows find it. */
export const SANDBOX_CREDENTIAL = {
	id: 'IbSandboxAcme001',
	name: 'Inspection Business sandbox (Acme)',
} as const;

const CREDENTIAL_TYPE = 'inspectionBusinessApi';

export function sandboxCredential(
	baseUrl: string,
	options: { id?: string; name?: string; apiKey?: string } = {},
): N8nCredential {
	return {
		id: options.id ?? SANDBOX_CREDENTIAL.id,
		name: options.name ?? SANDBOX_CREDENTIAL.name,
		type: CREDENTIAL_TYPE,
		data: { apiKey: options.apiKey ?? SANDBOX_KEYS.acmeOwner, baseUrl, requestsPerMinute: 120 },
	};
}

/**
 * The webhook secret credential of the webhook example ("Contact changed → CRM"), and how the
 * sandbox must send to it: the example's production URL, with the secret in its header.
 */
export const SANDBOX_WEBHOOK_CREDENTIAL = {
	id: 'IbSandboxWebhook',
	name: 'Inspection Business webhook secret (sandbox)',
	secret: 'sandbox-webhook-secret-2f7c',
} as const;

export const WEBHOOK_EXAMPLE = {
	id: 'IbExampleCrmHook1',
	webhookId: '3c9f6a52-7d1e-4b8a-9f20-5e6d7c8b9a01',
	secretHeader: 'X-Webhook-Secret',
} as const;

export function sandboxWebhookCredential(): N8nCredential {
	const { id, name, secret } = SANDBOX_WEBHOOK_CREDENTIAL;
	return { id, name, type: 'inspectionBusinessWebhookApi', data: { secret } };
}

/** What to register in the sandbox (`POST /_sandbox/webhooks`) so it sends Acme's events to the example. */
export function webhookExampleReceiver(n8nUrl: string) {
	return {
		org: 'acme' as const,
		url: `${n8nUrl}/webhook/${WEBHOOK_EXAMPLE.webhookId}/webhook`,
		secret: SANDBOX_WEBHOOK_CREDENTIAL.secret,
		secret_header: WEBHOOK_EXAMPLE.secretHeader,
	};
}

/** Every `examples/*.json`, in file-name order. */
export function loadExamples(): N8nWorkflow[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as N8nWorkflow);
}
