/**
 * Prepares what every e2e file starts its own n8n from (support/instance.ts),
 * idempotently (fast when the cache is warm): Node 24 + n8n in the cache folder,
 * chromium, this package built, packed and installed as a community package, and
 * two stopped user folders to copy: `fresh` (the owner, the package, nothing
 * else: a newcomer's n8n) and `suite` (the same with the examples, polling
 * every 15 seconds, the e2e workflows and their credentials imported). No n8n
 * runs between files.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium } from '../../scripts/chromium';
import { N8nUserFolder } from '../../scripts/n8n-instance';
import { ensureRuntime } from '../../scripts/n8n-runtime';
import { LOCAL_OWNER } from '../../scripts/n8n-rest';
import { buildPackage, declaredNodeTypes, packPackage } from '../../scripts/package-tarball';
import { freePort } from '../../scripts/ports';
import { killAllOnSignals } from '../../scripts/processes';
import { loadExamples } from '../../scripts/workflows';
import { e2eCredentials, e2eWorkflows } from './workflows';
import { polledEvery15Seconds } from './workflows/build';
import { ARTIFACTS_DIR, STATE_ENV, type E2eState } from './support/state';
import { removeWorkDir, setWorkDir } from './support/resources';

/** The suite template's credentials point here; each file imports them again with its sandbox. */
const NO_SANDBOX = 'http://127.0.0.1:9';

/**
 * Prepares the run's folder before any e2e file starts (jest holds them until it returns; a
 * cold install takes minutes, while the unit files run in their own jest: scripts/test.ts).
 */
export default async function globalSetup(): Promise<void> {
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-e2e-'));
	killAllOnSignals(() => removeWorkDir(workDir));
	setWorkDir(workDir);
	process.env[STATE_ENV] = path.join(workDir, 'state.json');
	await prepare(workDir).catch((error: unknown) => {
		removeWorkDir(workDir);
		throw error;
	});
}

/** Makes the templates and writes the state file the e2e files read (support/state.ts). */
async function prepare(workDir: string): Promise<void> {
	const started = Date.now();
	const log = (line: string) =>
		process.stderr.write(`[e2e setup +${Math.round((Date.now() - started) / 1000)}s] ${line}\n`);
	rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
	mkdirSync(ARTIFACTS_DIR, { recursive: true });
	const [runtime] = await Promise.all([ensureRuntime(log), ensureChromium(log)]);

	log('Building and packing the package');
	await buildPackage();
	const packed = await packPackage(workDir);

	log('Making the fresh template: the package installed, the owner set up');
	const fresh = new N8nUserFolder(runtime, path.join(workDir, 'template-fresh'));
	await fresh.installPackage(packed.tarball, packed.name, packed.version);
	await fresh.importCredentials([]); // creates the database, which registerPackage writes to
	await fresh.registerPackage(packed.name, packed.version);
	const serverLog = path.join(ARTIFACTS_DIR, 'n8n-template.log');
	const server = await fresh.startServer(await freePort(), {
		onOutput: (chunk) => appendFileSync(serverLog, chunk),
	});
	try {
		await server.rest.setupOwner(LOCAL_OWNER);
		await server.assertPackageLoaded(packed.name, declaredNodeTypes());
	} finally {
		await server.stop();
	}
	// The editor's files n8n rewrote at start (47 MB): an n8n with the editor writes them again at
	// every start, one without never reads them, so no copy of the template carries them.
	rmSync(path.join(fresh.folder, '.cache'), { recursive: true, force: true });

	log('Making the suite template: the examples and the e2e workflows imported');
	const suite = new N8nUserFolder(runtime, path.join(workDir, 'template-suite'));
	cpSync(fresh.folder, suite.folder, { recursive: true });
	await suite.importCredentials(e2eCredentials(NO_SANDBOX));
	await suite.importWorkflows([...loadExamples().map(polledEvery15Seconds), ...e2eWorkflows()]);

	const state: E2eState = {
		workDir,
		templates: { fresh: fresh.folder, suite: suite.folder },
		tarball: packed.tarball,
	};
	writeFileSync(path.join(workDir, 'state.json'), JSON.stringify(state, null, 2));
	log('Templates ready');
}
