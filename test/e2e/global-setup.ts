/**
 * Prepares one real n8n for all e2e files, idempotently (fast when the cache is warm):
 * Node 24 + n8n in the cache folder, chromium, this package built, packed and
 * installed as a community package, a sandbox, the credentials and workflows
 * imported, the trigger workflows published, `n8n start` running with an owner.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../../sandbox/index';
import { ensureChromium } from '../../scripts/chromium';
import { prepareInstance } from '../../scripts/n8n-instance';
import { ensureRuntime } from '../../scripts/n8n-runtime';
import { LOCAL_OWNER } from '../../scripts/n8n-rest';
import {
	buildPackage,
	declaredNodeTypes,
	PACKAGE_DIR,
	packPackage,
} from '../../scripts/package-tarball';
import { freePort } from '../../scripts/ports';
import { killAllOnSignals } from '../../scripts/processes';
import { loadExamples } from '../../scripts/workflows';
import { e2eCredentials, e2eWorkflows, PUBLISHED_WORKFLOWS } from './workflows';
import { STATE_ENV, type E2eState } from './support/state';
import { type E2eResources, removeWorkDir, setResources, stopResources } from './support/resources';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const log = (line: string) =>
		process.stderr.write(`[e2e setup +${Math.round((Date.now() - started) / 1000)}s] ${line}\n`);
	const artifactsDir = path.join(PACKAGE_DIR, '.artifacts', 'e2e');
	rmSync(artifactsDir, { recursive: true, force: true });
	mkdirSync(artifactsDir, { recursive: true });
	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-e2e-'));
	killAllOnSignals(() => removeWorkDir(workDir));
	const resources: E2eResources = { workDir };
	setResources(resources);
	try {
		const runtime = await ensureRuntime(log);
		await ensureChromium(log);

		log('Building and packing the package');
		await buildPackage();
		const packed = await packPackage(workDir);
		resources.sandbox = await startSandbox({ port: 0, seed: 'demo' });
		const sandboxUrl = resources.sandbox.baseUrl;
		log(`Sandbox at ${sandboxUrl}; installing the package, importing credentials and workflows`);
		const userFolder = await prepareInstance(runtime, path.join(workDir, 'n8n'), {
			...packed,
			credentials: e2eCredentials(sandboxUrl),
			workflows: [...loadExamples(), ...e2eWorkflows()],
			published: PUBLISHED_WORKFLOWS,
		});

		const serverLog = path.join(artifactsDir, 'n8n-server.log');
		resources.server = await userFolder.startServer(await freePort(), {
			onOutput: (chunk) => appendFileSync(serverLog, chunk),
		});
		await resources.server.rest.setupOwner(LOCAL_OWNER);
		await resources.server.assertPackageLoaded(packed.name, declaredNodeTypes());

		const state: E2eState = {
			workDir,
			userFolder: userFolder.folder,
			n8nUrl: resources.server.baseUrl,
			sandboxUrl,
			tarball: packed.tarball,
			artifactsDir,
		};
		const stateFile = path.join(workDir, 'state.json');
		writeFileSync(stateFile, JSON.stringify(state, null, 2));
		process.env[STATE_ENV] = stateFile;
		log(`n8n at ${state.n8nUrl} is ready`);
	} catch (error) {
		await stopResources();
		throw error;
	}
}
