/**
 * What the global setup prepared, handed to the test files through a JSON file
 * (jest starts the files after the global setup, in workers that inherit STATE_ENV).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_DIR } from '../../../scripts/package-tarball';

export const STATE_ENV = 'IB_E2E_STATE';
/** Where tests put screenshots and logs (kept after the run; the global setup empties it). */
export const ARTIFACTS_DIR = path.join(PACKAGE_DIR, '.artifacts', 'e2e');

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

/** What the global setup prepared. */
export function readState(): E2eState {
	return JSON.parse(readFileSync(stateFile(), 'utf8')) as E2eState;
}
