/**
 * Loaded before every e2e test file: long default timeouts, and one e2e file at
 * a time even when jest runs several workers (the files share one n8n server and
 * one sandbox, and reset the sandbox between them).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readState } from './state';

const FILE_TIMEOUT_MS = 10 * 60_000;
const LOCK_WAIT_MS = 30 * 60_000;

jest.setTimeout(FILE_TIMEOUT_MS);

const lock = path.join(readState().workDir, 'serial.lock');
let held = false;

beforeAll(async () => {
	const deadline = Date.now() + LOCK_WAIT_MS;
	while (!held) {
		try {
			mkdirSync(lock);
			held = true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			if (Date.now() > deadline)
				throw new Error(`Another e2e file held ${lock} for ${LOCK_WAIT_MS} ms`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}, LOCK_WAIT_MS + 5000);

afterAll(() => {
	if (held) rmSync(lock, { recursive: true, force: true });
	held = false;
});
