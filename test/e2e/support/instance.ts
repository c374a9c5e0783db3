/**
 * An n8n of a test file's own: a copy of one of the global setup's templates (a
 * stopped user folder with the package installed and the owner set up) and a
 * sandbox of its own. So e2e files run side by side, and none sees what another
 * left in n8n or in the sandbox. `useN8n` starts it before the file's tests and
 * stops it after them.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SandboxControl } from '../../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index';
import { N8nUserFolder } from '../../../scripts/n8n-instance';
import { LOCAL_OWNER, type N8nRestClient } from '../../../scripts/n8n-rest';
import { ensureRuntime } from '../../../scripts/n8n-runtime';
import type { N8nServer } from '../../../scripts/n8n-server';
import { freePort } from '../../../scripts/ports';
import { e2eCredentials } from '../workflows';
import { SandboxApi } from './sandbox-api';
import { ARTIFACTS_DIR, readState } from './state';

const MINUTE = 60_000;

export interface FileN8nOptions {
	/**
	 * `fresh`: a newcomer's n8n, nothing imported. `suite`: the examples and the e2e
	 * workflows imported, with their credentials pointing at this file's sandbox.
	 */
	template: 'fresh' | 'suite';
	/** Runs `n8n start` (default); without it only the user folder is there, for `n8n execute`. */
	server?: boolean;
	/** Workflows published once the server runs, so that their triggers are active. */
	publish?: string[];
	/**
	 * The editor, for a file that opens it in a browser or reads what it serves (the node types
	 * it lists). Without, n8n runs headless (`startServer`'s `ui`), a few seconds of CPU less.
	 */
	ui?: boolean;
}

export class FileN8n {
	private started?: {
		sandbox: RunningSandbox;
		userFolder: N8nUserFolder;
		folder: string;
		server?: N8nServer;
	};

	constructor(
		readonly name: string,
		private readonly options: FileN8nOptions,
	) {}

	private get ready() {
		if (!this.started) throw new Error(`The n8n of ${this.name} is not started (use it in a test)`);
		return this.started;
	}

	get sandboxUrl(): string {
		return this.ready.sandbox.baseUrl;
	}

	/** The sandbox's control API (changes, faults, request log). */
	get control(): SandboxControl {
		return new SandboxControl(this.sandboxUrl);
	}

	/** The sandbox's v1 API, read with a key the workflows do not use. */
	get api(): SandboxApi {
		return new SandboxApi(this.sandboxUrl);
	}

	get userFolder(): N8nUserFolder {
		return this.ready.userFolder;
	}

	private get server(): N8nServer {
		const { server } = this.ready;
		if (!server) throw new Error(`${this.name} runs no n8n server (options.server is false)`);
		return server;
	}

	/** The editor's and REST API's address. */
	get url(): string {
		return this.server.baseUrl;
	}

	/** The server's process id, for what it uses in memory. */
	get pid(): number | undefined {
		return this.server.pid;
	}

	/** The REST API, signed in as the owner. */
	get rest(): N8nRestClient {
		return this.server.rest;
	}

	async start(): Promise<void> {
		const state = readState();
		const folder = mkdtempSync(path.join(state.workDir, `${this.name}-`));
		cpSync(state.templates[this.options.template], folder, { recursive: true });
		const userFolder = new N8nUserFolder(await ensureRuntime(), folder);
		const sandbox = await startSandbox({ port: 0, seed: 'demo' });
		this.started = { sandbox, userFolder, folder };
		// The suite's credentials point at no sandbox until they are saved again with this one's.
		const credentials = this.options.template === 'suite' ? e2eCredentials(sandbox.baseUrl) : [];
		if (this.options.server === false) {
			await userFolder.importCredentials(credentials);
			return;
		}
		const log = path.join(ARTIFACTS_DIR, `n8n-${this.name}.log`);
		const server = await userFolder.startServer(await freePort(), {
			onOutput: (chunk) => appendFileSync(log, chunk),
			ui: this.options.ui === true,
		});
		// A start that outlived its hook's timeout: the file has stopped, so no n8n may stay.
		if (this.started === undefined) {
			await server.stop();
			throw new Error(`The n8n of ${this.name} started after its file had stopped it`);
		}
		this.started.server = server;
		await this.rest.login(LOCAL_OWNER);
		for (const { id, name, type, data } of credentials)
			await this.rest.rest('PATCH', `/rest/credentials/${id}`, { name, type, data });
		await Promise.all((this.options.publish ?? []).map((id) => this.rest.publish(id)));
	}

	async stop(): Promise<void> {
		const started = this.started;
		this.started = undefined;
		await started?.server?.stop();
		await started?.sandbox.stop();
		if (started && process.env.E2E_KEEP_WORKDIR !== '1')
			rmSync(started.folder, { recursive: true, force: true });
	}
}

/** This file's n8n, started before its tests (first, as the first hook) and stopped after them. */
export function useN8n(name: string, options: FileN8nOptions): FileN8n {
	const n8n = new FileN8n(name, options);
	// Long: the files beside it boot their n8n at the same time.
	beforeAll(async () => await n8n.start(), 15 * MINUTE);
	afterAll(async () => await n8n.stop(), MINUTE);
	return n8n;
}
