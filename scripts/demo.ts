/**
 * `npm run demo`: a real n8n with this package installed, the sandbox API
 * behind it and the example workflows imported, ready in the browser.
 *
 *   npm run demo                  # n8n on 5678, sandbox on 4010
 *   npm run demo -- --port 5680   # another n8n port (--sandbox-port too)
 *
 * Ctrl-C, or SIGTERM to `npm run demo` (its script `exec`s node, so npm's SIGTERM reaches this
 * process and no shell in between is left to die alone), stops n8n and the sandbox and removes
 * the temporary n8n folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SandboxControl } from '../sandbox/client';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '../sandbox/index';
import { N8nUserFolder } from './n8n-instance';
import { ensureRuntime, isRuntimeInstalled, N8N_VERSION } from './n8n-runtime';
import { LOCAL_OWNER } from './n8n-rest';
import type { N8nServer } from './n8n-server';
import { buildPackage, declaredNodeTypes, packPackage } from './package-tarball';
import { isPortFree } from './ports';
import { stopOnSignals } from './processes';
import {
	loadExamples,
	SANDBOX_CREDENTIAL,
	sandboxCredential,
	sandboxWebhookCredential,
	WEBHOOK_EXAMPLE,
	webhookExampleReceiver,
} from './workflows';

/** When the command started (npm and tsx start this process about a second later). */
const started = Date.now() - Math.round(process.uptime() * 1000);
const seconds = () => Math.round((Date.now() - started) / 1000);
const log = (line: string) => console.log(`[demo +${seconds()}s] ${line}`);

// Piped (`npm run demo | tee log`), Ctrl-C ends the reader too; a write to the
// closed pipe must not crash the demo before it has stopped n8n and cleaned up.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

function options(): { port: number; sandboxPort: number } {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '5678' },
			'sandbox-port': { type: 'string', default: '4010' },
		},
	});
	const port = Number(values.port);
	const sandboxPort = Number(values['sandbox-port']);
	for (const [name, value] of [
		['--port', port],
		['--sandbox-port', sandboxPort],
	] as const) {
		if (!Number.isInteger(value) || value < 1 || value > 65535)
			throw new UsageError(`${name} must be a port number`);
	}
	return { port, sandboxPort };
}

class UsageError extends Error {}

async function main(): Promise<void> {
	const { port, sandboxPort } = options();
	for (const [what, value, flag] of [
		['n8n', port, '--port'],
		['the sandbox', sandboxPort, '--sandbox-port'],
	] as const) {
		if (!(await isPortFree(value))) {
			throw new UsageError(
				`Port ${value} is already in use (another n8n or demo?). Stop it, or pick another port for ${what}: npm run demo -- ${flag} <port>`,
			);
		}
	}

	const workDir = mkdtempSync(path.join(tmpdir(), 'ib-demo-'));
	let sandbox: RunningSandbox | undefined;
	let server: N8nServer | undefined;
	const stop = stopOnSignals(async () => {
		log('Stopping n8n and the sandbox');
		await server?.stop();
		await sandbox?.stop();
		rmSync(workDir, { recursive: true, force: true });
	});

	try {
		log(
			isRuntimeInstalled()
				? `n8n ${N8N_VERSION} is installed in the cache`
				: `Installing n8n ${N8N_VERSION} into the cache (once; about 4 minutes)`,
		);
		const runtime = await ensureRuntime(log);
		log('Building and packing the package');
		await buildPackage();
		const packed = await packPackage(workDir);
		const userFolder = new N8nUserFolder(runtime, path.join(workDir, 'n8n'));
		await userFolder.installPackage(packed.tarball, packed.name, packed.version);

		sandbox = await startSandbox({ port: sandboxPort, seed: 'demo' });
		log(`Sandbox API at ${sandbox.baseUrl} (seed "demo")`);
		const examples = loadExamples();
		await userFolder.importCredentials([
			sandboxCredential(sandbox.baseUrl),
			sandboxWebhookCredential(),
		]);
		await userFolder.importWorkflows(examples);
		await userFolder.registerPackage(packed.name, packed.version);

		log('Starting n8n');
		server = await userFolder.startServer(port);
		await server.rest.setupOwner(LOCAL_OWNER);
		await server.assertPackageLoaded(packed.name, declaredNodeTypes());
		// The sandbox sends Acme's webhooks to the webhook example, as the business tools would.
		await new SandboxControl(sandbox.baseUrl).addWebhook(webhookExampleReceiver(server.baseUrl));
		const running = server;
		const watch = setInterval(() => {
			if (!running.running) {
				clearInterval(watch);
				console.error(`n8n stopped unexpectedly:\n${running.log}`);
				void stop(1);
			}
		}, 1000);

		// The sandbox commands ask 127.0.0.1:4010 unless told otherwise.
		const urlFlag = sandboxPort === 4010 ? '' : ` --url ${sandbox.baseUrl}`;
		console.log(`
n8n ${N8N_VERSION} with ${packed.name}@${packed.version} is ready, ${seconds()} s after the command:

  Editor     ${server.baseUrl}
  Login      ${LOCAL_OWNER.email} / ${LOCAL_OWNER.password}
  Workflows  ${examples.map((workflow) => workflow.name).join(', ')}
  Sandbox    ${sandbox.baseUrl}  (credential "${SANDBOX_CREDENTIAL.name}", key ${SANDBOX_KEYS.acmeOwner})
  Package    listed in Settings → Community nodes, as after an install from npm
  Triggers   publish a workflow with a trigger, then make a change in the sandbox from a
             second terminal, for example:
               npm run sandbox -- pay${urlFlag}           (an inspection is paid in full)
               npm run sandbox -- confirm${urlFlag}       (an inspection is confirmed)
               npm run sandbox -- clock 52h${urlFlag}     (two days pass: reminders, review requests)
               npm run sandbox -- --help        (every moment and change)
             The sandbox sends Acme's webhooks to "${examples.find((workflow) => workflow.id === WEBHOOK_EXAMPLE.id)?.name}";
             for your own webhook workflow: npm run sandbox -- webhook <Production URL> --secret <secret>${urlFlag}

Press Ctrl-C to stop n8n and the sandbox.
`);
	} catch (error) {
		console.error(error instanceof UsageError ? error.message : error);
		await stop(1);
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof UsageError ? error.message : error);
	process.exit(1);
});
