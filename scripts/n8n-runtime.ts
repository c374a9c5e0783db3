/**
 * The recipe for a real n8n to run this package in (e2e tests and `npm run demo`):
 * Node 24 from the npm `node` package, then a pinned n8n with the overrides the
 * registry mirror needs, installed into a cache folder outside the package.
 * `N8N_VERSION` picks another n8n release (its line's overrides, its own folder, so
 * versions coexist); the default is the version CI runs.
 * Idempotent: a stamp file holding the recipe's hash marks a finished install,
 * so a changed recipe reinstalls; the npm lock file stays in the cache for speed.
 */
import { createHash } from 'node:crypto';
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { cleanEnv, run } from './processes';

export const NODE_VERSION = '24.9.0';
/** The n8n that `npm test` (CI), the demo and the benchmarks run. */
export const DEFAULT_N8N_VERSION = '2.41.1';
/** The newest release of each line that installs from this registry mirror: `npm run test:compat`. */
export const COMPAT_VERSIONS = ['1.123.81', DEFAULT_N8N_VERSION] as const;

/**
 * What each n8n line needs from the registry mirror, by major version.
 * 2.x: newer linkedom needs a missing package, newer langgraph missing peers.
 * 1.x: n8n names xlsx by a tarball URL outside the registry; and langgraph-checkpoint
 * 1.1.6 and later import `@langchain/core/utils/uuid`, which the @langchain/core 1.1.8
 * that n8n 1.x pins lacks, so `n8n start` cannot load (1.0.0 asks core ^1.0.1 only).
 */
export const LINE_OVERRIDES: Readonly<Record<number, Readonly<Record<string, unknown>>>> = {
	1: { xlsx: '0.18.5', '@langchain/langgraph-checkpoint': '1.0.0' },
	2: { linkedom: '0.18.14', langchain: { '@langchain/langgraph': '1.4.17' } },
};

/** The n8n version to run: `N8N_VERSION` from the environment, else the default. */
export function selectedN8nVersion(env: NodeJS.ProcessEnv = process.env): string {
	const version = env.N8N_VERSION?.trim() || DEFAULT_N8N_VERSION;
	if (!/^\d+\.\d+\.\d+$/.test(version))
		throw new Error(`N8N_VERSION must be an exact n8n release such as 1.123.81, not "${version}"`);
	if (!LINE_OVERRIDES[majorOf(version)])
		throw new Error(
			`No install recipe for n8n ${majorOf(version)}.x (N8N_VERSION=${version}); known lines: ${Object.keys(LINE_OVERRIDES).join(', ')}`,
		);
	return version;
}

export function majorOf(version: string): number {
	return Number(version.split('.')[0]);
}

export const N8N_VERSION = selectedN8nVersion();
/**
 * --legacy-peer-deps: npm would otherwise chase a peer the mirror lacks.
 * --ignore-scripts: an optional Kafka client downloads from GitHub in its install script.
 * sqlite3 is then compiled for Node 24 (isolated-vm ships a Node 24 prebuild).
 */
const INSTALL_ARGS = [
	'install',
	'--legacy-peer-deps',
	'--ignore-scripts',
	'--no-audit',
	'--no-fund',
];
const REBUILD_ARGS = ['rebuild', 'sqlite3', '--foreground-scripts'];

const MINUTE = 60_000;
const LOCK_WAIT_MS = 30 * MINUTE;

export interface N8nRuntime {
	/** The n8n release installed, e.g. 2.41.1. */
	version: string;
	/** The Node 24 binary that runs n8n. */
	node: string;
	/** n8n's CLI entry script; run it with `node`. */
	n8nScript: string;
	/** An environment with Node 24 first on PATH and npm building against its headers. */
	env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

/** `${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-inspection-business` */
export function cacheRoot(): string {
	const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
	return path.join(base, 'n8n-nodes-inspection-business');
}

function recipeFor(version: string) {
	return {
		node: { dependencies: { node: NODE_VERSION } },
		n8n: { dependencies: { n8n: version }, overrides: LINE_OVERRIDES[majorOf(version)] },
		install: INSTALL_ARGS,
		rebuild: REBUILD_ARGS,
	};
}

function recipeHash(version: string): string {
	return createHash('sha256')
		.update(JSON.stringify(recipeFor(version)))
		.digest('hex');
}

/** The default version keeps the folder `n8n` (where it always was); others get `n8n-<version>`. */
function paths(version: string, root = cacheRoot()) {
	const nodeFolder = path.join(root, `node-${NODE_VERSION}`);
	const platform = `node-${process.platform}-${process.arch}`;
	const nodeDir = path.join(nodeFolder, 'node_modules', 'node', 'node_modules', platform);
	const n8nFolder = path.join(root, version === DEFAULT_N8N_VERSION ? 'n8n' : `n8n-${version}`);
	return {
		version,
		root,
		nodeFolder,
		nodeDir,
		node: path.join(nodeDir, 'bin', 'node'),
		n8nFolder,
		n8nScript: path.join(n8nFolder, 'node_modules', 'n8n', 'bin', 'n8n'),
		stamp: path.join(n8nFolder, '.recipe-stamp'),
		lock: path.join(root, '.install-lock'),
		log: path.join(root, 'install.log'),
	};
}

function runtimeFor(p: ReturnType<typeof paths>): N8nRuntime {
	return {
		version: p.version,
		node: p.node,
		n8nScript: p.n8nScript,
		env: (extra = {}) =>
			cleanEnv({
				PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH ?? ''}`,
				// A user npmrc may point nodedir at another Node's headers.
				npm_config_nodedir: p.nodeDir,
				npm_config_update_notifier: 'false',
				// Node's on-disk cache of compiled modules: an n8n boot compiles thousands of them,
				// and every e2e file boots one or more (about a fifth less CPU a boot).
				NODE_COMPILE_CACHE: path.join(p.root, 'compile-cache'),
				...extra,
			}),
	};
}

function isInstalled(p: ReturnType<typeof paths>): boolean {
	return (
		existsSync(p.stamp) &&
		readFileSync(p.stamp, 'utf8').trim() === recipeHash(p.version) &&
		existsSync(p.node)
	);
}

/** Whether Node 24 and n8n are installed in the cache already (ensureRuntime is then instant). */
export function isRuntimeInstalled(version: string = N8N_VERSION): boolean {
	return isInstalled(paths(version));
}

/** Ensures Node 24 and n8n `version` are installed in the cache (minutes the first time, instant after). */
export async function ensureRuntime(
	log: (line: string) => void = () => {},
	version: string = N8N_VERSION,
): Promise<N8nRuntime> {
	const p = paths(version);
	const recipe = recipeFor(version);
	if (isInstalled(p)) return runtimeFor(p);
	mkdirSync(p.root, { recursive: true });
	await withInstallLock(p.lock, log, async () => {
		if (isInstalled(p)) return; // another process finished it while we waited
		rmSync(p.stamp, { force: true });
		const started = Date.now();
		const step = async (
			what: string,
			cwd: string,
			command: string,
			args: string[],
			timeoutMs: number,
		) => {
			log(`${what} (log: ${p.log})`);
			appendFileSync(
				p.log,
				`\n### ${new Date().toISOString()} ${what}: ${command} ${args.join(' ')}\n`,
			);
			await run(command, args, {
				cwd,
				env: runtimeFor(p).env(),
				timeoutMs,
				onOutput: (chunk) => appendFileSync(p.log, chunk),
			});
		};
		// The `node` package's preinstall fetches the platform's binary package, so scripts run here.
		// Every n8n version shares this Node, and only once: npm install again in that folder
		// prunes the binary package the preinstall added (npm never recorded it) and, the
		// `node` package being installed already, runs no preinstall to bring it back.
		if (!existsSync(p.node)) {
			writeJson(path.join(p.nodeFolder, 'package.json'), { private: true, ...recipe.node });
			await step(
				`Installing Node ${NODE_VERSION} from npm`,
				p.nodeFolder,
				'npm',
				['install', '--ignore-scripts=false', '--no-audit', '--no-fund'],
				10 * MINUTE,
			);
			if (!existsSync(p.node))
				throw new Error(`Node ${NODE_VERSION} install did not produce ${p.node}`);
		}
		writeJson(path.join(p.n8nFolder, 'package.json'), {
			name: 'n8n-runtime',
			private: true,
			...recipe.n8n,
		});
		await step(`Installing n8n ${version}`, p.n8nFolder, 'npm', INSTALL_ARGS, 30 * MINUTE);
		await step('Compiling sqlite3 for Node 24', p.n8nFolder, 'npm', REBUILD_ARGS, 15 * MINUTE);
		const { stdout } = await run(p.node, [p.n8nScript, '--version'], {
			env: runtimeFor(p).env(),
			timeoutMs: 2 * MINUTE,
		});
		if (!stdout.includes(version))
			throw new Error(`n8n --version printed "${stdout.trim()}", expected ${version}`);
		writeFileSync(p.stamp, `${recipeHash(version)}\n`);
		log(
			`n8n ${version} on Node ${NODE_VERSION} ready in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	});
	return runtimeFor(p);
}

function writeJson(file: string, value: unknown): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** One installer at a time per cache (the demo and a test run may start together). */
async function withInstallLock(
	lock: string,
	log: (line: string) => void,
	body: () => Promise<void>,
): Promise<void> {
	const deadline = Date.now() + LOCK_WAIT_MS;
	let announced = false;
	for (;;) {
		try {
			mkdirSync(lock);
			writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const holder = Number(readFileOr(path.join(lock, 'pid')));
			const justCreated = !holder && Date.now() - mtimeOr(lock) < 30_000;
			if (!justCreated && (!holder || !isAlive(holder))) {
				rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline)
				throw new Error(`Another install (pid ${holder}) has held ${lock} for too long`);
			if (!announced) log(`Waiting for another install of the n8n runtime (pid ${holder})`);
			announced = true;
			await new Promise((resolve) => setTimeout(resolve, 2000));
		}
	}
	try {
		await body();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

function mtimeOr(file: string): number {
	try {
		return statSync(file).mtimeMs;
	} catch {
		return 0;
	}
}

function readFileOr(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}
