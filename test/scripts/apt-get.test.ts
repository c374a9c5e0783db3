/**
 * The one-time chromium setup's apt-get: it waits while another process holds
 * the package manager's lock, says what it waits for, and gives up on any
 * other failure at once. A stand-in script plays apt-get.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aptGet } from '../../scripts/chromium';

let dir: string;
let fakeAptGet: string;

/** A stand-in that fails with `message` on its first `failures` runs, then succeeds; it counts its runs. */
function standIn(failures: number, message: string): void {
	writeFileSync(
		fakeAptGet,
		`#!/bin/sh
n=$(cat "${dir}/runs" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/runs"
if [ $n -le ${failures} ]; then echo "${message}" >&2; exit 100; fi
echo done
`,
	);
	chmodSync(fakeAptGet, 0o755);
}
const runs = () => Number(readFileSync(path.join(dir, 'runs'), 'utf8'));

beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'ib-apt-test-'));
	fakeAptGet = path.join(dir, 'apt-get');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('waits while the lock is busy, saying who holds it, then installs', async () => {
	standIn(
		2,
		'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)',
	);
	const lines: string[] = [];
	await aptGet(['install', 'chromium'], {
		command: fakeAptGet,
		log: (line) => lines.push(line),
		timeoutMs: 30_000,
		retryMs: 10,
	});
	expect(runs()).toBe(3);
	expect(lines).toEqual([
		"Waiting for the package manager's lock before apt-get install: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)",
		"Waiting for the package manager's lock before apt-get install: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)",
	]);
});

it('fails at once on any other error', async () => {
	standIn(5, 'E: Unable to locate package chromium');
	await expect(
		aptGet(['install', 'chromium'], {
			command: fakeAptGet,
			log: () => {},
			timeoutMs: 30_000,
			retryMs: 10,
		}),
	).rejects.toThrow(/Unable to locate package chromium/);
	expect(runs()).toBe(1);
});

it("gives up with apt-get's own error once the wait is over", async () => {
	standIn(1000, 'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 7 (apt-get)');
	await expect(
		aptGet(['update'], {
			command: fakeAptGet,
			log: () => {},
			timeoutMs: 30_000,
			lockWaitMs: 0,
			retryMs: 10,
		}),
	).rejects.toThrow(/Could not get lock/);
	expect(runs()).toBe(1);
});
