/** A running `n8n start`, in its own process group. */
import type { N8nRuntime } from './n8n-runtime';
import { N8nRestClient } from './n8n-rest';
import { BackgroundProcess, waitFor } from './processes';

const READY_TIMEOUT_MS = 3 * 60_000;

export class N8nServer {
	readonly rest: N8nRestClient;

	private constructor(
		private readonly child: BackgroundProcess,
		readonly baseUrl: string,
	) {
		this.rest = new N8nRestClient(baseUrl);
	}

	/** Starts n8n and resolves once its REST API answers (migrations and node loading done). */
	static async start(
		runtime: N8nRuntime,
		env: NodeJS.ProcessEnv,
		baseUrl: string,
		onOutput?: (chunk: string) => void,
		priority?: number,
	): Promise<N8nServer> {
		const child = new BackgroundProcess(runtime.node, [runtime.n8nScript, 'start'], {
			env,
			onOutput,
			priority,
		});
		// The REST API is mounted once a route answers: the editor's settings, or without the editor
		// (N8N_DISABLE_UI, which drops that route) the login, which asks a session.
		const restProbe =
			env.N8N_DISABLE_UI === 'true'
				? { path: '/rest/login', status: 401 }
				: { path: '/rest/settings', status: 200 };
		try {
			await waitFor(
				`n8n at ${baseUrl} to be ready`,
				async () =>
					((await status(`${baseUrl}/healthz/readiness`)) === 200 &&
						(await status(`${baseUrl}${restProbe.path}`)) === restProbe.status) ||
					undefined,
				{
					timeoutMs: READY_TIMEOUT_MS,
					intervalMs: 500,
					abort: () => (child.running ? undefined : `n8n exited:\n${child.log}`),
				},
			);
		} catch (error) {
			await child.stop();
			throw error;
		}
		return new N8nServer(child, baseUrl);
	}

	get running(): boolean {
		return this.child.running;
	}

	/** n8n's main process; its task runners run in its process group (the same id). */
	get pid(): number | undefined {
		return this.child.pid;
	}

	/** The server's recent output, for failure messages. */
	get log(): string {
		return this.child.log;
	}

	async stop(): Promise<void> {
		await this.child.stop();
	}

	/**
	 * Fails unless n8n lists each of the package's node types (needs a login).
	 * n8n skips a package that fails to load and only logs why; this surfaces it.
	 */
	async assertPackageLoaded(packageName: string, nodeTypes: string[]): Promise<void> {
		const listed = new Set(
			(await this.rest.get<Array<{ name: string }>>('/types/nodes.json')).map((type) => type.name),
		);
		const missing = nodeTypes.filter((name) => !listed.has(`${packageName}.${name}`));
		if (missing.length > 0) {
			const reasons = this.log
				.split('\n')
				.filter((line) => /failed to load|cannot find module|error loading/i.test(line))
				.slice(0, 10);
			throw new Error(
				`n8n did not load ${missing.join(', ')} of ${packageName}:\n${reasons.join('\n')}`,
			);
		}
	}
}

async function status(url: string): Promise<number> {
	const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
	await response.arrayBuffer();
	return response.status;
}
