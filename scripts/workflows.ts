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

/** Every `examples/*.json`, in file-name order. */
export function loadExamples(): N8nWorkflow[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as N8nWorkflow);
}
