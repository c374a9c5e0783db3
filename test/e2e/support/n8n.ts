/** The e2e n8n, as test files reach it: its user folder for CLI runs, its REST API logged in as the owner. */
import { N8nUserFolder } from '../../../scripts/n8n-instance';
import { LOCAL_OWNER, N8nRestClient } from '../../../scripts/n8n-rest';
import { ensureRuntime } from '../../../scripts/n8n-runtime';
import { readState } from './state';

/** The user folder the global setup prepared (the runtime is installed by then: this is instant). */
export async function e2eUserFolder(): Promise<N8nUserFolder> {
	return new N8nUserFolder(await ensureRuntime(), readState().userFolder);
}

export async function ownerSession(): Promise<N8nRestClient> {
	const rest = new N8nRestClient(readState().n8nUrl);
	await rest.login(LOCAL_OWNER);
	return rest;
}
