/**
 * Debian's chromium for the editor check, driven by playwright-core (which must
 * never download a browser of its own). Installed with apt-get when missing.
 */
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv, run } from './processes';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-quic',
];

const MINUTE = 60_000;

/** Installs Debian's chromium package if /usr/bin/chromium is missing (needs root and apt-get). */
export async function ensureChromium(log: (line: string) => void = () => {}): Promise<string> {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
		throw new Error(
			`${CHROMIUM} is missing; install it with: apt-get update && apt-get install -y chromium`,
		);
	}
	log('Installing chromium with apt-get');
	await aptGet(['update', '-q'], { log, timeoutMs: 10 * MINUTE });
	await aptGet(['install', '-y', '-q', '--no-install-recommends', 'chromium'], {
		log,
		timeoutMs: 20 * MINUTE,
	});
	if (!existsSync(CHROMIUM))
		throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
	return CHROMIUM;
}

/** apt-get's words when another process (an unattended upgrade, another setup) holds its lock. */
const LOCK_BUSY = /Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock/i;

export interface AptGetOptions {
	log: (line: string) => void;
	timeoutMs: number;
	/** How long to wait in total for a busy lock. */
	lockWaitMs?: number;
	/** Pause between tries while the lock is busy. */
	retryMs?: number;
	/** The command to run (tests pass a stand-in). */
	command?: string;
}

/**
 * Runs apt-get; while the package manager's lock is held by another process,
 * says what it waits for (apt-get's own line names the holder) and tries again.
 */
export async function aptGet(args: string[], options: AptGetOptions): Promise<void> {
	const deadline = Date.now() + (options.lockWaitMs ?? 10 * MINUTE);
	const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
	for (;;) {
		try {
			await run(options.command ?? 'apt-get', args, { env, timeoutMs: options.timeoutMs });
			return;
		} catch (error) {
			const message = (error as Error).message;
			const busy = message.split('\n').find((line) => LOCK_BUSY.test(line));
			if (!busy || Date.now() >= deadline) throw error;
			options.log(
				`Waiting for the package manager's lock before apt-get ${args[0]}: ${busy.replace(/^E:\s*/, '').trim()}`,
			);
			await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 10_000));
		}
	}
}

/** A fresh, empty profile folder for one browser run. */
export function freshUserDataDir(): string {
	return mkdtempSync(path.join(tmpdir(), 'ib-chromium-'));
}
