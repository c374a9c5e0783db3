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
	const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
	log('Installing chromium with apt-get');
	await run('apt-get', ['update', '-q'], { env, timeoutMs: 10 * MINUTE });
	await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium'], {
		env,
		timeoutMs: 20 * MINUTE,
	});
	if (!existsSync(CHROMIUM))
		throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
	return CHROMIUM;
}

/** A fresh, empty profile folder for one browser run. */
export function freshUserDataDir(): string {
	return mkdtempSync(path.join(tmpdir(), 'ib-chromium-'));
}
