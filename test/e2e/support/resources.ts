/**
 * The run's temporary folder (templates, each file's n8n), kept on globalThis:
 * the only thing jest shares between globalSetup and globalTeardown.
 */
import { rmSync } from 'node:fs';

const KEY = Symbol.for('n8n-nodes-inspection-business.e2e');
type Holder = { [KEY]?: string };

export function setWorkDir(workDir: string): void {
	(globalThis as Holder)[KEY] = workDir;
}

/** Removes the run's folder once; safe to call twice. */
export function removeRunFolder(): void {
	const workDir = (globalThis as Holder)[KEY];
	(globalThis as Holder)[KEY] = undefined;
	if (workDir) removeWorkDir(workDir);
}

/** Removes the run's temporary folder, unless E2E_KEEP_WORKDIR=1 keeps it for a post-mortem. */
export function removeWorkDir(workDir: string): void {
	if (process.env.E2E_KEEP_WORKDIR !== '1') rmSync(workDir, { recursive: true, force: true });
}
