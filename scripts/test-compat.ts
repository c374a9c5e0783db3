/**
 * `npm run test:compat`: the end-to-end tests that matter across n8n releases (every
 * operation through `n8n execute`; the polling and webhook triggers under `n8n start`),
 * run on each n8n of the compatibility matrix, one version after the other. Each version
 * is installed once into its own cache folder (see scripts/n8n-runtime.ts).
 *
 *   npm run test:compat                      # every version of COMPAT_VERSIONS
 *   npm run test:compat -- 1.123.81          # only these versions
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { COMPAT_VERSIONS, selectedN8nVersion } from './n8n-runtime';
import { PACKAGE_DIR } from './package-tarball';

/** The e2e files of the matrix; the editor, package and example checks stay on the default version. */
export const COMPAT_TEST_FILES = [
	'test/e2e/actions.e2e.test.ts',
	'test/e2e/triggers.e2e.test.ts',
] as const;

interface Outcome {
	version: string;
	passed: boolean;
	seconds: number;
}

function runJest(version: string): Promise<Outcome> {
	const started = Date.now();
	const jest = path.join(PACKAGE_DIR, 'node_modules', '.bin', 'jest');
	const child = spawn(jest, ['--selectProjects', 'e2e', '--runInBand', ...COMPAT_TEST_FILES], {
		cwd: PACKAGE_DIR,
		env: { ...process.env, N8N_VERSION: version },
		stdio: 'inherit',
	});
	return new Promise((resolve) => {
		const done = (passed: boolean) =>
			resolve({ version, passed, seconds: Math.round((Date.now() - started) / 1000) });
		child.on('error', () => done(false));
		child.on('close', (code) => done(code === 0));
	});
}

async function main(): Promise<void> {
	const asked = process.argv.slice(2);
	const versions = (asked.length > 0 ? asked : [...COMPAT_VERSIONS]).map((version) =>
		selectedN8nVersion({ N8N_VERSION: version }),
	);
	const outcomes: Outcome[] = [];
	for (const version of versions) {
		process.stderr.write(`\n=== n8n ${version}: ${COMPAT_TEST_FILES.join(', ')}\n`);
		outcomes.push(await runJest(version));
	}
	process.stderr.write('\nn8n version  result  wall time\n');
	for (const outcome of outcomes)
		process.stderr.write(
			`${outcome.version.padEnd(12)} ${(outcome.passed ? 'passed' : 'FAILED').padEnd(7)} ${Math.floor(outcome.seconds / 60)} min ${outcome.seconds % 60} s\n`,
		);
	process.exitCode = outcomes.every((outcome) => outcome.passed) ? 0 : 1;
}

void main();
