/**
 * `npm run demo` stops everything it started when it is ended by a signal: Ctrl-C (SIGINT to the
 * terminal's whole process group), and SIGTERM to npm alone (`kill`, a service manager), which npm
 * passes on to its script's process only. The demo's script runs here with a stand-in for
 * scripts/demo.ts (fixtures/demo-stand-in.ts) that owns a folder and two child process groups
 * through the same `stopOnSignals` and BackgroundProcess: after the signal, npm has exited, and
 * the stand-in, every process of both groups and the folder are gone. No n8n is started.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_DIR } from '../../scripts/package-tarball';
import { waitFor } from '../../scripts/processes';

const STAND_IN = path.join(__dirname, 'fixtures', 'demo-stand-in.ts');
const DEMO_SCRIPT = (
	JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	}
).scripts.demo;

/** Whether any process of the group (or the process, for a positive id) still exists. */
function alive(id: number): boolean {
	try {
		process.kill(id, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

let dir: string;
let npm: ChildProcess | undefined;
let started: { demo: number; groups: number[] } | undefined;

beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'ib-demo-signals-'));
	// The demo's script, with the stand-in for scripts/demo.ts, in a package of its own that
	// resolves tsx as the clone does.
	expect(DEMO_SCRIPT).toContain('scripts/demo.ts');
	writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: 'demo-signals',
			private: true,
			scripts: { demo: DEMO_SCRIPT.replace('scripts/demo.ts', JSON.stringify(STAND_IN)) },
		}),
	);
	symlinkSync(path.join(PACKAGE_DIR, 'node_modules'), path.join(dir, 'node_modules'));
	mkdirSync(path.join(dir, 'owned'));
});

afterEach(() => {
	// A failed run leaves nothing behind.
	for (const id of [npm?.pid, started?.demo, ...(started?.groups ?? []).map((group) => -group)])
		if (id !== undefined && alive(id)) process.kill(id, 'SIGKILL');
	if (npm?.pid !== undefined && alive(-npm.pid)) process.kill(-npm.pid, 'SIGKILL');
	rmSync(dir, { recursive: true, force: true });
	npm = undefined;
	started = undefined;
});

it.each([
	{ signal: 'SIGTERM', to: 'npm' },
	{ signal: 'SIGINT', to: 'the terminal' },
	{ signal: 'SIGHUP', to: 'the terminal' },
] as const)(
	'$signal to $to: npm exits, and the demo, both its process groups and its folder are gone',
	async ({ signal, to }) => {
		// In a process group of its own, as a terminal runs a command in the foreground.
		npm = spawn('npm', ['run', '--silent', 'demo', '--', path.join(dir, 'owned')], {
			cwd: dir,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		npm.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		npm.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		let exited = false;
		npm.on('exit', () => (exited = true));
		started = await waitFor(
			'the stand-in demo to start its groups',
			async () => {
				const line = output.split('\n').find((text) => text.startsWith('{"demo"'));
				return line ? (JSON.parse(line) as { demo: number; groups: number[] }) : undefined;
			},
			{
				timeoutMs: 20_000,
				intervalMs: 100,
				abort: () => (exited ? `npm exited: ${output}` : undefined),
			},
		);
		const processes = [started.demo, ...started.groups.map((group) => -group)];
		expect(processes.map(alive)).toEqual([true, true, true]);

		process.kill(to === 'npm' ? npm.pid! : -npm.pid!, signal);
		// npm exits once its script's process has: the stand-in stopped what it owns by then.
		await waitFor('npm to exit', async () => exited || undefined, {
			timeoutMs: 20_000,
			intervalMs: 100,
		});
		// A process killed last may stay listed a moment, until the system reaps it.
		await waitFor(
			'the demo and its groups to be gone',
			async () => !processes.some(alive) || undefined,
			{
				timeoutMs: 5_000,
				intervalMs: 100,
			},
		).catch(() => undefined);
		expect(processes.filter(alive)).toEqual([]);
		expect(existsSync(path.join(dir, 'owned'))).toBe(false);
	},
	60_000,
);
