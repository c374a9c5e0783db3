/**
 * One n8n user folder with this package installed as a community package, and
 * the n8n CLI commands the e2e tests and the demo run against it: import,
 * publish, execute, start.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { majorOf, type N8nRuntime } from './n8n-runtime';
import { N8nServer } from './n8n-server';
import { builtNodes, packageAuthor } from './package-tarball';
import { freePort } from './ports';
import { ExitError, run, type RunResult } from './processes';

const MINUTE = 60_000;
/** A fixed key, so credentials imported by one command decrypt in the next (and across demo restarts). */
const ENCRYPTION_KEY = 'n8n-nodes-inspection-business-local-only-key';

export interface N8nCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, string | number | boolean>;
}

export interface N8nWorkflow {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown> & { name: string; type: string }>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

interface RegisteredPackage {
	name: string;
	version: string;
	authorName?: string;
	authorEmail?: string;
	nodes: Array<{ displayName: string; type: string; version: number }>;
}

/** Run by n8n's Node 24 (node:sqlite): argv = database file, RegisteredPackage as JSON. */
const REGISTER_PACKAGE_SCRIPT = `
const { DatabaseSync } = require('node:sqlite');
const [database, json] = process.argv.slice(1);
const pkg = JSON.parse(json);
const db = new DatabaseSync(database);
db.exec('PRAGMA foreign_keys = ON; BEGIN');
db.prepare('DELETE FROM installed_packages WHERE packageName = ?').run(pkg.name);
const now = "STRFTIME('%Y-%m-%d %H:%M:%f', 'now')";
db.prepare('INSERT INTO installed_packages (packageName, installedVersion, authorName, authorEmail, createdAt, updatedAt) VALUES (?, ?, ?, ?, ' + now + ', ' + now + ')')
	.run(pkg.name, pkg.version, pkg.authorName ?? null, pkg.authorEmail ?? null);
const node = db.prepare('INSERT INTO installed_nodes (name, type, latestVersion, package) VALUES (?, ?, ?, ?)');
for (const n of pkg.nodes) node.run(n.displayName, n.type, n.version, pkg.name);
db.exec('COMMIT');
db.close();
`;

/**
 * Run by n8n's Node 24 (node:sqlite): argv = database file, workflow ids as JSON. What n8n 2.x's
 * `publish:workflow --id` does to its database (WorkflowRepository.publishVersion: the same
 * checks, then active and activeVersionId set to the current version), for every id in one
 * process instead of one n8n boot (seconds of CPU) each. A server started afterwards activates
 * their triggers, as after the command.
 */
const PUBLISH_SCRIPT = `
const { DatabaseSync } = require('node:sqlite');
const [database, json] = process.argv.slice(1);
const db = new DatabaseSync(database);
db.exec('PRAGMA busy_timeout = 10000; BEGIN');
const find = db.prepare('SELECT versionId, isArchived FROM workflow_entity WHERE id = ?');
const version = db.prepare('SELECT 1 FROM workflow_history WHERE workflowId = ? AND versionId = ?');
const publish = db.prepare("UPDATE workflow_entity SET active = 1, activeVersionId = versionId, updatedAt = STRFTIME('%Y-%m-%d %H:%M:%f', 'now') WHERE id = ?");
for (const id of JSON.parse(json)) {
	const workflow = find.get(id);
	if (!workflow) throw new Error('Workflow "' + id + '" not found.');
	if (workflow.isArchived) throw new Error('Cannot publish archived workflow "' + id + '".');
	if (!version.get(id, workflow.versionId))
		throw new Error('Version "' + workflow.versionId + '" not found for workflow "' + id + '".');
	publish.run(id);
}
db.exec('COMMIT');
db.close();
`;

export interface BinaryRef {
	mimeType: string;
	fileName?: string;
	/** Exact size in bytes. */
	bytes?: number;
	/** Where n8n's filesystem binary mode keeps the data: `filesystem-v2:<path under .n8n/storage>`. */
	id?: string;
	/** The bytes in base64, in n8n 1.x's default binary mode (in memory: no `id`). */
	data?: string;
}

export interface NodeItem {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryRef>;
}

/** A node's run in `n8n execute --rawOutput`: items per output. */
export interface NodeRun {
	data?: { main: Array<NodeItem[] | null> };
	error?: { message: string; description?: string };
}

export interface ExecutionOutput {
	data: { resultData: { runData: Record<string, NodeRun[]>; error?: { message: string } } };
}

export class N8nUserFolder {
	constructor(
		readonly runtime: N8nRuntime,
		/** N8N_USER_FOLDER: n8n keeps its data in `<folder>/.n8n`. */
		readonly folder: string,
	) {}

	get nodesDir(): string {
		return path.join(this.folder, '.n8n', 'nodes');
	}

	/** The settings every n8n process here shares: offline, sqlite, loopback only. */
	env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
		return this.runtime.env({
			N8N_USER_FOLDER: this.folder,
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			DB_TYPE: 'sqlite',
			GENERIC_TIMEZONE: 'UTC',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			// n8n 2.x evaluates expressions in an isolate, and by default builds a new one (about
			// 85 ms of CPU) for every poll and node run, expression or not. Lazily: only when an
			// expression reaches the engine. The same engine evaluates the same expressions.
			N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
			...extra,
		});
	}

	/**
	 * Installs the packed tarball the way n8n's own community-package install does:
	 * unpacked into `.n8n/nodes/node_modules/<name>`, peer and dev dependencies
	 * dropped from its package.json, `npm install` inside it, and the dependency
	 * recorded in `.n8n/nodes/package.json`.
	 */
	async installPackage(tarball: string, name: string, version: string): Promise<void> {
		const target = path.join(this.nodesDir, 'node_modules', name);
		mkdirSync(target, { recursive: true });
		await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], {
			timeoutMs: MINUTE,
		});
		const manifestPath = path.join(target, 'package.json');
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
		for (const key of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
			delete manifest[key];
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		await run(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: target, env: this.runtime.env(), timeoutMs: 5 * MINUTE },
		);
		writeFileSync(
			path.join(this.nodesDir, 'package.json'),
			JSON.stringify(
				{ name: 'installed-nodes', private: true, dependencies: { [name]: version } },
				null,
				2,
			),
		);
	}

	/**
	 * Records the installed package in n8n's database (`installed_packages`,
	 * `installed_nodes`) as n8n's own install from npm does, so Settings →
	 * Community nodes lists it. n8n installs only from the npm registry, so a
	 * local tarball needs this step. The database must exist: run a CLI command
	 * (an import) first.
	 */
	async registerPackage(name: string, version: string): Promise<void> {
		const author = packageAuthor();
		const pkg: RegisteredPackage = {
			name,
			version,
			authorName: author.name,
			authorEmail: author.email,
			nodes: (await builtNodes()).map((node) => ({
				displayName: node.displayName,
				type: `${name}.${node.name}`,
				version: node.version,
			})),
		};
		await this.runOnDatabase(REGISTER_PACKAGE_SCRIPT, JSON.stringify(pkg));
	}

	/**
	 * Marks workflows published; a server started afterwards activates their triggers. n8n 2.x:
	 * PUBLISH_SCRIPT, in one process. 1.x has no publish and activates with `update:workflow`.
	 */
	async publishWorkflows(ids: string[]): Promise<void> {
		if (majorOf(this.runtime.version) >= 2)
			return await this.runOnDatabase(PUBLISH_SCRIPT, JSON.stringify(ids));
		for (const id of ids) await this.cli(['update:workflow', `--id=${id}`, '--active=true']);
	}

	/** Runs a node:sqlite script with n8n's Node on the database (which a CLI command made). */
	private async runOnDatabase(script: string, json: string): Promise<void> {
		const database = path.join(this.folder, '.n8n', 'database.sqlite');
		if (!existsSync(database)) throw new Error(`No n8n database at ${database} yet`);
		await run(this.runtime.node, ['--no-warnings', '-e', script, database, json], {
			env: this.runtime.env(),
			timeoutMs: MINUTE,
		});
	}

	/** Runs one n8n CLI command (each boots n8n: a few seconds). */
	async cli(
		args: string[],
		options: { timeoutMs?: number; stdoutFile?: string } = {},
	): Promise<RunResult> {
		// Each n8n process starts a task broker; two at once need two ports.
		const env = this.env({ N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
		return await run(this.runtime.node, [this.runtime.n8nScript, ...args], {
			env,
			timeoutMs: options.timeoutMs ?? 3 * MINUTE,
			stdoutFile: options.stdoutFile,
		});
	}

	async importCredentials(credentials: N8nCredential[]): Promise<void> {
		const file = this.writeInput('credentials.json', credentials);
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflows(workflows: N8nWorkflow[]): Promise<void> {
		// A folder of this call's own: n8n imports every file of the folder, and importing a
		// workflow unpublishes it, so files left by an earlier call would stop running triggers.
		mkdirSync(path.join(this.folder, 'import'), { recursive: true });
		const dir = mkdtempSync(path.join(this.folder, 'import', 'workflows-'));
		for (const workflow of workflows)
			writeFileSync(path.join(dir, `${workflow.id}.json`), JSON.stringify(workflow, null, 2));
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
	}

	/** `n8n execute --id --rawOutput`: the run's JSON (printed after a few log lines). */
	async execute(id: string, timeoutMs = 3 * MINUTE): Promise<ExecutionOutput> {
		let stdout: string;
		// Outputs run to megabytes: through a file, so none of it is lost when n8n exits.
		const stdoutFile = path.join(this.folder, `execute-${id}-${Date.now()}.out`);
		try {
			({ stdout } = await this.cli(['execute', `--id=${id}`, '--rawOutput'], {
				timeoutMs,
				stdoutFile,
			}));
		} catch (error) {
			const printed = crashedAfterPrinting(id, error);
			if (printed) return printed;
			throw new Error(`Workflow ${id} failed in n8n: ${(error as Error).message}`);
		} finally {
			rmSync(stdoutFile, { force: true });
		}
		return parseExecuteOutput(id, stdout);
	}

	/**
	 * `n8n start` on `port`, resolved when the editor (unless `ui` is false) and the REST API
	 * answer. `env` adds settings (for instance the durable scheduler's); the same folder can be
	 * started again after a stop.
	 */
	async startServer(
		port: number,
		options: {
			onOutput?: (chunk: string) => void;
			env?: Record<string, string>;
			/** Its scheduling priority (nice); see SpawnOptions.priority. */
			priority?: number;
			/**
			 * False: no editor (n8n's N8N_DISABLE_UI, as a headless instance runs), for an n8n no
			 * browser opens. The REST API, webhooks and triggers run as ever; n8n then skips
			 * rewriting its 40 MB of editor files and writing the node types for the editor, about
			 * 3 s of CPU a start.
			 */
			ui?: boolean;
		} = {},
	): Promise<N8nServer> {
		const baseUrl = `http://127.0.0.1:${port}`;
		const env = this.env({
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_EDITOR_BASE_URL: `${baseUrl}/`,
			WEBHOOK_URL: `${baseUrl}/`,
			...(options.ui === false ? { N8N_DISABLE_UI: 'true' } : {}),
			...options.env,
		});
		return await N8nServer.start(this.runtime, env, baseUrl, options.onOutput, options.priority);
	}

	/**
	 * The bytes of a binary an execution produced: from `.n8n/storage` in the filesystem mode
	 * (n8n 2.x's default), or from the item itself in the memory mode (1.x's default).
	 */
	readBinary(binary: BinaryRef): Buffer {
		const id = binary.id ?? '';
		if (!id && binary.data !== undefined) return Buffer.from(binary.data, 'base64');
		if (!id.startsWith('filesystem-v2:'))
			throw new Error(`Not a filesystem binary: ${JSON.stringify(binary)}`);
		return readFileSync(
			path.join(this.folder, '.n8n', 'storage', id.slice('filesystem-v2:'.length)),
		);
	}

	private writeInput(name: string, value: unknown): string {
		const dir = path.join(this.folder, 'import');
		mkdirSync(dir, { recursive: true });
		const file = path.join(dir, name);
		writeFileSync(file, JSON.stringify(value, null, 2));
		return file;
	}
}

/** What one n8n instance of the package is made of; see `prepareInstance`. */
export interface InstanceContents {
	/** The packed package (`npm pack`), installed as a community package. */
	tarball: string;
	name: string;
	version: string;
	credentials: N8nCredential[];
	workflows: N8nWorkflow[];
	/** Workflow ids to publish, so that `n8n start` activates their triggers. */
	published: string[];
}

/**
 * A user folder with the package installed and registered, the credentials and workflows
 * imported and the trigger workflows published: ready for `startServer`. The e2e setup, the
 * tests that need an n8n of their own (restarts, other settings) and the benchmarks use it.
 */
export async function prepareInstance(
	runtime: N8nRuntime,
	folder: string,
	contents: InstanceContents,
): Promise<N8nUserFolder> {
	const userFolder = new N8nUserFolder(runtime, folder);
	await userFolder.installPackage(contents.tarball, contents.name, contents.version);
	await userFolder.importCredentials(contents.credentials);
	await userFolder.importWorkflows(contents.workflows);
	await userFolder.registerPackage(contents.name, contents.version);
	await userFolder.publishWorkflows(contents.published);
	return userFolder;
}

/** Items a node produced on its first output, in the first run. */
export function nodeItems(output: ExecutionOutput, nodeName: string): NodeItem[] {
	const runs = output.data.resultData.runData[nodeName];
	if (!runs?.length)
		throw new Error(
			`Node "${nodeName}" did not run; ran: ${Object.keys(output.data.resultData.runData).join(', ')}`,
		);
	const [first] = runs;
	if (first.error)
		throw new Error(
			`Node "${nodeName}" failed: ${first.error.message} ${first.error.description ?? ''}`,
		);
	return first.data?.main[0] ?? [];
}

/**
 * The execution that `n8n execute` printed whole before its process crashed on the way out (seen
 * on a loaded machine: SIGSEGV in n8n 2.41.1 on Node 24 after the JSON was written). The crash is
 * n8n's own teardown, not the workflow: its printed result stands. Anything else: undefined.
 */
export function crashedAfterPrinting(id: string, error: unknown): ExecutionOutput | undefined {
	if (!(error instanceof ExitError) || error.signal !== 'SIGSEGV') return undefined;
	try {
		const output = parseExecuteOutput(id, error.stdout);
		process.stderr.write(`n8n execute --id=${id} crashed (SIGSEGV) after printing its result\n`);
		return output;
	} catch {
		return undefined;
	}
}

/**
 * The run's JSON in what `n8n execute --rawOutput` printed: from the first line
 * that starts with "{" to its closing brace, the first "}" that starts a line
 * (the JSON is indented by two spaces); log lines before and after are not part
 * of the run (n8n printed one after it once in CI).
 */
export function parseExecuteOutput(id: string, stdout: string): ExecutionOutput {
	const start = stdout.search(/^\{/m);
	if (start < 0) throw new Error(`n8n execute printed no JSON for workflow ${id}:\n${stdout}`);
	const end = stdout.indexOf('\n}', start);
	const json = end < 0 ? stdout.slice(start) : stdout.slice(start, end + 2);
	try {
		return JSON.parse(json) as ExecutionOutput;
	} catch (error) {
		throw new Error(
			`n8n execute printed unreadable JSON for workflow ${id} (${(error as Error).message}):\n${stdout}`,
		);
	}
}
