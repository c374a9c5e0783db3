/** What the global setup prepared, handed to the test files through a JSON file. */
import { readFileSync } from 'node:fs';

export const STATE_ENV = 'IB_E2E_STATE';

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
