/**
 * Redis and a throwaway Postgres cluster on loopback, for `npm run bench:queue`.
 * Both are installed with apt-get when missing and run in the foreground as
 * tracked process groups, so a Ctrl-C or a crash leaves no server behind.
 */
import { chownSync, chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { freePort } from '../scripts/ports';
import { BackgroundProcess, cleanEnv, run, waitFor } from '../scripts/processes';

const MINUTE = 60_000;
const LOOPBACK = '127.0.0.1';
const APT_LOCK_RETRIES = 20;
const APT_LOCK_PAUSE_MS = 15_000;

const isRoot = () => process.getuid?.() === 0;

function onPath(binary: string): string | undefined {
	for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
		const candidate = path.join(dir, binary);
		if (dir && existsSync(candidate)) return candidate;
	}
	return ['/usr/bin', '/usr/sbin'].map((dir) => path.join(dir, binary)).find(existsSync);
}

/** Debian's newest `/usr/lib/postgresql/<version>/bin` that has initdb. */
function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	return readdirSync(root)
		.sort((a, b) => Number(b) - Number(a))
		.map((version) => path.join(root, version, 'bin'))
		.find((dir) => existsSync(path.join(dir, 'initdb')));
}

/** apt-get, retried while another apt or dpkg holds the package lock (saying who holds it). */
async function aptGet(args: string[], log: (line: string) => void): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await run('apt-get', ['-o', 'DPkg::Lock::Timeout=60', ...args], {
				env: cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' }),
				timeoutMs: 15 * MINUTE,
				onOutput: (chunk) => {
					const waiting = /Waiting for cache lock[^\n]*/.exec(chunk);
					if (waiting) log(`apt-get ${args[0]}: ${waiting[0].trim()}`);
				},
			});
			return;
		} catch (error) {
			const lock = /Could not get lock[^\n]*/.exec((error as Error).message);
			if (!lock || attempt >= APT_LOCK_RETRIES) throw error;
			log(
				`apt-get ${args[0]}: waiting for the package lock (${lock[0].trim()}); retry ${attempt}/${APT_LOCK_RETRIES - 1} in ${APT_LOCK_PAUSE_MS / 1000} s`,
			);
			await new Promise((resolve) => setTimeout(resolve, APT_LOCK_PAUSE_MS));
		}
	}
}

/** Installs redis-server and postgresql from the system package manager if either is missing. */
export async function ensureServices(log: (line: string) => void): Promise<void> {
	const missing = [
		...(onPath('redis-server') ? [] : ['redis-server']),
		...(postgresBinDir() ? [] : ['postgresql']),
	];
	if (missing.length === 0) return;
	if (!isRoot())
		throw new Error(
			`Missing ${missing.join(' and ')}; run as root, or first: sudo apt-get install ${missing.join(' ')}`,
		);
	log(`Installing ${missing.join(', ')} with apt-get`);
	await aptGet(['update'], log);
	await aptGet(['install', '-y', '--no-install-recommends', ...missing], log);
}

export interface RunningService {
	port: number;
	process: BackgroundProcess;
}

/** redis-server on a free loopback port, without persistence. */
export async function startRedis(dir: string): Promise<RunningService> {
	const binary = onPath('redis-server');
	if (!binary) throw new Error('redis-server is not installed');
	const port = await freePort();
	const redis = new BackgroundProcess(
		binary,
		['--port', String(port), '--bind', LOOPBACK, '--save', '', '--appendonly', 'no', '--dir', dir],
		{},
	);
	await waitFor(`redis on port ${port}`, async () => ((await pingRedis(port)) ? true : undefined), {
		timeoutMs: MINUTE,
		intervalMs: 250,
		abort: () => (redis.running ? undefined : `redis-server exited:\n${redis.log}`),
	});
	return { port, process: redis };
}

function pingRedis(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: LOOPBACK, port });
		socket.setTimeout(2000, () => socket.destroy());
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (data) => {
			resolve(data.toString().startsWith('+PONG'));
			socket.destroy();
		});
		socket.on('error', () => resolve(false));
		socket.on('close', () => resolve(false));
	});
}

/**
 * A fresh Postgres cluster in `dir` (trust auth, loopback only) with one
 * database. Root can't run postgres, so as root the folder is handed to the
 * `postgres` user and every server command runs through `runuser`.
 */
export async function startPostgres(dir: string, database: string): Promise<RunningService> {
	const bin = postgresBinDir();
	if (!bin) throw new Error('postgresql is not installed');
	const asOwner = (binary: string, args: string[]): [string, string[]] =>
		isRoot()
			? ['runuser', ['-u', 'postgres', '--', path.join(bin, binary), ...args]]
			: [path.join(bin, binary), args];
	mkdirSync(dir, { recursive: true });
	if (isRoot()) {
		const ids = async (flag: string) =>
			Number((await run('id', [flag, 'postgres'], { timeoutMs: MINUTE })).stdout.trim());
		chownSync(dir, await ids('-u'), await ids('-g'));
	}
	chmodSync(dir, 0o700);
	const data = path.join(dir, 'data');
	await run(
		...asOwner('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']),
		{ cwd: dir, timeoutMs: 3 * MINUTE },
	);
	const port = await freePort();
	const postgres = new BackgroundProcess(
		...asOwner('postgres', [
			'-D',
			data,
			'-p',
			String(port),
			'-k',
			dir,
			'-c',
			`listen_addresses=${LOOPBACK}`,
			// A benchmark's throwaway data: durability is not what is measured.
			'-c',
			'fsync=off',
		]),
		{ cwd: dir },
	);
	const connection = ['-h', LOOPBACK, '-p', String(port), '-U', 'postgres'];
	await waitFor(
		`postgres on port ${port}`,
		async () => {
			await run(path.join(bin, 'pg_isready'), connection, { timeoutMs: 10_000 });
			return true;
		},
		{
			timeoutMs: 2 * MINUTE,
			intervalMs: 500,
			abort: () => (postgres.running ? undefined : `postgres exited:\n${postgres.log}`),
		},
	);
	await run(path.join(bin, 'createdb'), [...connection, database], { timeoutMs: MINUTE });
	return { port, process: postgres };
}

/** Runs one SQL statement with psql on the loopback cluster; each result row is one line (unaligned, tuples only). */
export async function queryPostgres(
	port: number,
	database: string,
	sql: string,
): Promise<string[]> {
	const bin = postgresBinDir();
	if (!bin) throw new Error('postgresql is not installed');
	const { stdout } = await run(
		path.join(bin, 'psql'),
		[
			'-h',
			LOOPBACK,
			'-p',
			String(port),
			'-U',
			'postgres',
			'-d',
			database,
			'-X',
			'-A',
			'-t',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			sql,
		],
		{ timeoutMs: MINUTE },
	);
	return stdout.split('\n').filter((line) => line !== '');
}
