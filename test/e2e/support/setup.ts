/**
 * Loaded before every e2e file: long default timeouts, the worker's normal
 * priority (a unit file may have lowered it: test/support/beside-e2e.ts), and a
 * place among the files that run at once. Files run side by side, each against
 * an n8n and a sandbox of its own (support/instance.ts).
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { queueTicket } from '../../support/slots';
import { setupDone, STATE_ENV, workDirOf } from './state';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { e2eRank } = require('../../sequencer.js') as { e2eRank: (file: string) => number };

/**
 * How many e2e files run at once (`IB_E2E_FILES_AT_ONCE` sets another number). Each runs an n8n,
 * some a browser too, and many time polls against n8n's poll timeout: on a 2-core machine, all
 * sixteen at once (with their boots and the unit files) made a load of 26, and n8n's polls and
 * regular expressions missed their timeouts. Six: the six that mostly wait for polls start
 * together (docs/testing.md has the runs). Files are served in test/sequencer.js's order (the
 * longest first), whichever reaches this point first: each joins the queue as it loads.
 */
const FILES_AT_ONCE = Number(process.env.IB_E2E_FILES_AT_ONCE ?? 6);

jest.setTimeout(10 * 60_000);

try {
	if (os.getPriority() > 0) os.setPriority(0);
} catch {
	// Only root may raise a priority again; the e2e file then runs at the lowered one.
}

const ticket = queueTicket(
	path.join(workDirOf(), 'file-queue'),
	FILES_AT_ONCE,
	e2eRank(expect.getState().testPath ?? ''),
);
/**
 * When the file ran, in seconds after the global setup's templates were ready: the figures
 * test/sequencer.js's order and docs/testing.md's timings come from.
 */
const file = path.basename(expect.getState().testPath ?? '');
let ready = 0;
const sinceReady = () => Math.round((Date.now() - ready) / 1000);
let began = 0;

// Long: a file waits here for the global setup's templates, then while the files before it run.
beforeAll(async () => {
	await setupDone();
	ready = statSync(process.env[STATE_ENV] ?? '').mtimeMs;
	await ticket.turn();
	began = sinceReady();
}, 120 * 60_000);
afterAll(() => {
	ticket.release();
	// Not after a failed setup: the file never ran.
	if (ready > 0)
		process.stderr.write(`[e2e queue] ${file} ran from ${began} s to ${sinceReady()} s\n`);
});
