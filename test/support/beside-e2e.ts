/**
 * Run in each unit and heavy file. When `npm test` runs them beside the e2e files (jest.config.js
 * sets IB_BESIDE_E2E to a queue folder), at most UNIT_SLOTS of them run at once, whatever the
 * number of jest's workers (one per e2e file, and two): these files only need CPU, and more at
 * once only thrash the 2 cores. Their worker also yields the CPU a little to the e2e files' n8n
 * instances and browsers, whose polls, timeouts and page loads keep time.
 */
import os from 'node:os';
import { takeSlot } from './slots';

const UNIT_SLOTS = 2;
const queue = process.env.IB_BESIDE_E2E;

if (queue) {
	// Yielding to the e2e files, a test may take several times as long as on a quiet machine
	// (the trigger's sandbox polls: 25 s alone, 250 s beside them); the fast lane keeps 30 s.
	jest.setTimeout(3 * 60_000);
	try {
		os.setPriority(Math.max(os.getPriority(), 5));
	} catch {
		// A system that refuses is left as it is.
	}
	let release: (() => void) | undefined;
	beforeAll(async () => {
		release = await takeSlot(queue, UNIT_SLOTS);
	}, 60 * 60_000);
	afterAll(() => release?.());
}
