/**
 * Child processes for the e2e harness and the demo: each runs in its own
 * process group so that stopping it also stops what it spawned (npm → node-gyp,
 * n8n → task runners). Every live group is remembered and killed when this
 * process exits, so a failing test or a Ctrl-C leaves no orphans.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

const OUTPUT_TAIL_CHARS = 20_000;
const live = new Set<ChildProcess>();

/** Kills every process group still running; synchronous, so it also works in an 'exit' handler. */
function killAll(): void {
	for (const child of live) signalGroup(child, 'SIGKILL');
}

process.once('exit', killAll);

/**
 * For non-interactive runs (the e2e setup): on SIGINT/SIGTERM/SIGHUP kill every
 * group, run `cleanup` (synchronous: remove temporary folders) and exit.
 */
export function killAllOnSignals(cleanup: () => void = () => {}): void {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			killAll();
			cleanup();
			process.exit(128 + (signal === 'SIGHUP' ? 1 : signal === 'SIGINT' ? 2 : 15));
		});
	}
}

/** Signals the child's whole process group (its pid is the group id), even after the child itself exited. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// The group is already gone.
	}
}

/**
 * Tracks a spawned child until its output is closed. When the child exits, what it
 * left behind in its group (a task runner holding the pipes open) is killed.
 */
function track(child: ChildProcess): void {
	live.add(child);
	child.on('exit', () => signalGroup(child, 'SIGKILL'));
	child.on('close', () => live.delete(child));
	child.on('error', () => live.delete(child));
}

/** The caller's environment without npm's, jest's and a user's own n8n settings. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (
			/^(npm_|n8n_|db_|executions_|queue_|webhook_url$|node_env$|node_options$|jest_worker_id$|init_cwd$)/i.test(
				key,
			)
		) {
			continue;
		}
		env[key] = value;
	}
	return { ...env, ...extra };
}

export interface SpawnOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/**
	 * The process's scheduling priority (nice, -20 to 19; 0 by default), set as it starts, so
	 * that its children get it too. Only root may set one below 0; elsewhere it stays at 0.
	 */
	priority?: number;
	/** Called with each chunk of output (stdout and stderr), e.g. to echo progress. */
	onOutput?: (chunk: string) => void;
}

export interface RunOptions extends SpawnOptions {
	timeoutMs: number;
	/**
	 * Send stdout to this file instead of a pipe. A process that calls
	 * process.exit() right after a large write loses the pipe's unwritten
	 * tail; writes to a file are synchronous and complete.
	 */
	stdoutFile?: string;
}

export interface RunResult {
	stdout: string;
	stderr: string;
}

/** A command that ended otherwise than with exit code 0, with what it printed. */
export class ExitError extends Error {
	constructor(
		message: string,
		readonly signal: NodeJS.Signals | null,
		readonly stdout: string,
	) {
		super(message);
	}
}

function tail(text: string): string {
	return text.length > OUTPUT_TAIL_CHARS ? text.slice(-OUTPUT_TAIL_CHARS) : text;
}

function describe(command: string, args: readonly string[]): string {
	return [command, ...args].join(' ');
}

/** Runs a command to completion; rejects on a non-zero exit or after `timeoutMs`, with the output's tail. */
export function run(
	command: string,
	args: readonly string[],
	options: RunOptions,
): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const stdoutFd =
			options.stdoutFile === undefined ? undefined : openSync(options.stdoutFile, 'w');
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? cleanEnv(),
			detached: true,
			stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
		});
		if (stdoutFd !== undefined) closeSync(stdoutFd);
		track(child);
		let stdout = '';
		let stderr = '';
		child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
			stdout += chunk;
			options.onOutput?.(chunk);
		});
		child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
			stderr = tail(stderr + chunk);
			options.onOutput?.(chunk);
		});
		/** What went to stdout so far: the pipe's, or the file's (gone once the caller removed it). */
		const printed = () =>
			options.stdoutFile !== undefined && existsSync(options.stdoutFile)
				? readFileSync(options.stdoutFile, 'utf8')
				: stdout;
		const timer = setTimeout(() => {
			signalGroup(child, 'SIGKILL');
			reject(
				new Error(
					`Timed out after ${options.timeoutMs} ms: ${describe(command, args)}\n${tail(printed())}\n${stderr}`,
				),
			);
		}, options.timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			stdout = printed();
			if (code === 0) resolve({ stdout, stderr });
			else
				reject(
					new ExitError(
						`${describe(command, args)} exited with ${code ?? signal}\n--- stdout\n${tail(stdout)}\n--- stderr\n${stderr}`,
						signal,
						stdout,
					),
				);
		});
	});
}

/** A long-running process (a server) in its own process group. */
export class BackgroundProcess {
	private readonly child: ChildProcess;
	private output = '';
	private readonly exited: Promise<void>;

	constructor(command: string, args: readonly string[], options: SpawnOptions) {
		this.child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? cleanEnv(),
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		track(this.child);
		if (options.priority !== undefined && this.child.pid !== undefined) {
			try {
				setPriority(this.child.pid, options.priority);
			} catch {
				// Not allowed here (a priority above normal needs root): it runs at the normal one.
			}
		}
		const collect = (chunk: string) => {
			this.output = tail(this.output + chunk);
			options.onOutput?.(chunk);
		};
		this.child.stdout?.setEncoding('utf8').on('data', collect);
		this.child.stderr?.setEncoding('utf8').on('data', collect);
		this.exited = new Promise((resolve) => {
			this.child.on('close', () => resolve());
			this.child.on('error', (error) => {
				this.output += `\n${error.message}`;
				resolve();
			});
		});
	}

	get running(): boolean {
		return live.has(this.child);
	}

	/** Its process id, which is also its process group's id (what a bench reads in /proc). */
	get pid(): number | undefined {
		return this.child.pid;
	}

	/** The last part of its combined output, for error messages. */
	get log(): string {
		return this.output;
	}

	/** SIGTERM to the whole group, SIGKILL after `graceMs`. */
	async stop(graceMs = 10_000): Promise<void> {
		if (!this.running) return;
		signalGroup(this.child, 'SIGTERM');
		let timer: NodeJS.Timeout | undefined;
		const grace = new Promise<'timeout'>((resolve) => {
			timer = setTimeout(() => resolve('timeout'), graceMs);
		});
		if ((await Promise.race([this.exited, grace])) === 'timeout') {
			signalGroup(this.child, 'SIGKILL');
			await this.exited;
		}
		clearTimeout(timer);
	}
}

/**
 * Polls `check` until it returns a value other than undefined, at most `timeoutMs`.
 * `what` names the condition in the timeout error; `abort` ends the wait early.
 */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined>,
	options: { timeoutMs: number; intervalMs?: number; abort?: () => string | undefined },
): Promise<T> {
	const deadline = Date.now() + options.timeoutMs;
	let lastError = '';
	for (;;) {
		const reason = options.abort?.();
		if (reason) throw new Error(`Gave up waiting for ${what}: ${reason}`);
		try {
			const value = await check();
			if (value !== undefined) return value;
		} catch (error) {
			lastError = (error as Error).message;
		}
		if (Date.now() >= deadline) {
			throw new Error(
				`Timed out after ${options.timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
	}
}
