/**
 * The run's temporary folder (templates, each file's n8n) and the global
 * setup's preparation, kept on globalThis: the only thing jest shares between
 * globalSetup and globalTeardown.
 */
import { rmSync } from 'node:fs';

const KEY = Symbol.for('n8n-nodes-inspection-business.e2e');
const PREPARATION = Symbol.for('n8n-nodes-inspection-business.e2e-preparation');
type Holder = { [KEY]?: string; [PREPARATION]?: Promise<void> };

export function setWorkDir(workDir: string): void {
	(globalThis as Holder)[KEY] = workDir;
}

/** The global setup's preparation, which goes on while the unit files run. */
export function setPreparation(preparation: Promise<void>): void {
	(globalThis as Holder)[PREPARATION] = preparation;
}

/** Removes the run's folder once, after the preparation has ended; safe to call twice. */
export async function removeRunFolder(): Promise<void> {
	await (globalThis as Holder)[PREPARATION];
	const workDir = (globalThis as Holder)[KEY];
	(globalThis as Holder)[KEY] = undefined;
	if (workDir) removeWorkDir(workDir);
}

/** Removes the run's temporary folder, unless E2E_KEEP_WORKDIR=1 keeps it for a post-mortem. */
export function removeWorkDir(workDir: string): void {
	if (process.env.E2E_KEEP_WORKDIR !== '1') rmSync(workDir, { recursive: true, force: true });
}
