/**
 * The processes and folders the global setup started, kept on globalThis (the
 * only thing jest shares between globalSetup and globalTeardown).
 */
import { rmSync } from 'node:fs';
import type { RunningSandbox } from '../../../sandbox/index';
import type { N8nServer } from '../../../scripts/n8n-server';

export interface E2eResources {
	workDir: string;
	sandbox?: RunningSandbox;
	server?: N8nServer;
}

const KEY = Symbol.for('n8n-nodes-inspection-business.e2e');
type Holder = { [KEY]?: E2eResources };

export function setResources(resources: E2eResources): void {
	(globalThis as Holder)[KEY] = resources;
}

/** Stops n8n and the sandbox and removes the work folder; safe to call twice. */
export async function stopResources(): Promise<void> {
	const resources = (globalThis as Holder)[KEY];
	if (!resources) return;
	(globalThis as Holder)[KEY] = undefined;
	await resources.server?.stop();
	await resources.sandbox?.stop();
	removeWorkDir(resources.workDir);
}

/** Removes the run's temporary folder, unless E2E_KEEP_WORKDIR=1 keeps it for a post-mortem. */
export function removeWorkDir(workDir: string): void {
	if (process.env.E2E_KEEP_WORKDIR !== '1') rmSync(workDir, { recursive: true, force: true });
}
