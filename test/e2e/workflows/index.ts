/** The credentials and test-only workflows the global setup imports besides the examples. */
import { SANDBOX_KEYS } from '../../../sandbox/index';
import type { N8nCredential, N8nWorkflow } from '../../../scripts/n8n-instance';
import { sandboxCredential } from '../../../scripts/workflows';
import { allOperationsWorkflow } from './all-operations';

/** The triggers watch Globex, the other sandbox organization, so that nothing the action tests do reaches them. */
export const GLOBEX_CREDENTIAL = { id: 'IbSandboxGlobex1', name: 'Inspection Business sandbox (Globex)' } as const;

export function e2eCredentials(sandboxUrl: string): N8nCredential[] {
	return [sandboxCredential(sandboxUrl), sandboxCredential(sandboxUrl, { ...GLOBEX_CREDENTIAL, apiKey: SANDBOX_KEYS.globex })];
}

export function e2eWorkflows(): N8nWorkflow[] {
	return [allOperationsWorkflow()];
}

/** Workflows with a trigger, published before `n8n start` so that it activates them. */
export const PUBLISHED_WORKFLOWS: string[] = [];
