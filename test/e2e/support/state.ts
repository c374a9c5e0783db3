/**
 * What the global setup prepared, handed to the test files through a JSON file
 * that it writes when the templates are ready (the unit files run meanwhile).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_DIR } from '../../../scripts/package-tarball';
import { waitFor } from '../../../scripts/processes';

export const STATE_ENV = 'IB_E2E_STATE';
/** Where tests put screenshots and logs (kept after the run; the global setup empties it). */
export const ARTIFACTS_DIR = path.join(PACKAGE_DIR, '.artifacts', 'e2e');
/** Written beside the state file, with the error, when the preparation fails. */
export const SETUP_FAILED = 'setup-failed.txt';
/** A cold preparation installs Node, n8n and chromium: minutes; ample on a busy machine. */
const PREPARATION_MS = 30 * 60_000;

export interface E2eState {
	/** Temporary folder of this run (templates, each file's n8n, the tarball); removed by the teardown. */
	workDir: string;
	/**
	 * Stopped n8n user folders that each test file copies into an n8n of its own.
	 * `fresh`: a newcomer's n8n (the owner, the package installed, nothing imported).
	 * `suite`: the same with the examples, the e2e workflows and their credentials imported.
	 */
	templates: { fresh: string; suite: string };
	/** The packed tarball that was installed into n8n. */
	tarball: string;
}

function stateFile(): string {
	const file = process.env[STATE_ENV];
	if (!file)
		throw new Error(
			`${STATE_ENV} is not set: run e2e tests through jest's e2e project (global setup)`,
		);
	return file;
}

/** The run's folder, known before the preparation ends. */
export const workDirOf = () => path.dirname(stateFile());

/** Waits for the preparation; fails with its error if it failed. */
export async function setupDone(): Promise<void> {
	const failed = path.join(workDirOf(), SETUP_FAILED);
	await waitFor(
		'the e2e setup to make the templates',
		async () => existsSync(stateFile()) || undefined,
		{
			timeoutMs: PREPARATION_MS,
			intervalMs: 500,
			abort: () => (existsSync(failed) ? readFileSync(failed, 'utf8') : undefined),
		},
	);
}

/** Once setupDone has resolved. */
export function readState(): E2eState {
	return JSON.parse(readFileSync(stateFile(), 'utf8')) as E2eState;
}
