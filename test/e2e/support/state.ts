/** What the global setup prepared, handed to the test files through a JSON file. */
import { readFileSync } from 'node:fs';

export const STATE_ENV = 'IB_E2E_STATE';

export interface E2eState {
	/** Temporary folder of this run (user folder, tarball, locks); removed by the teardown. */
	workDir: string;
	/** N8N_USER_FOLDER of the n8n instance. */
	userFolder: string;
	/** The running `n8n start`. */
	n8nUrl: string;
	/** The sandbox both the credentials and the control client use. */
	sandboxUrl: string;
	/** The packed tarball that was installed into n8n. */
	tarball: string;
	/** Where tests put screenshots and logs (kept after the run). */
	artifactsDir: string;
}

export function readState(): E2eState {
	const file = process.env[STATE_ENV];
	if (!file)
		throw new Error(
			`${STATE_ENV} is not set: run e2e tests through jest's e2e project (global setup)`,
		);
	return JSON.parse(readFileSync(file, 'utf8')) as E2eState;
}
