/**
 * Loaded before every e2e file: long default timeouts, and the worker's normal
 * priority (a unit file may have lowered it: test/support/beside-e2e.js). Files
 * run side by side, each against an n8n and a sandbox of its own
 * (support/instance.ts).
 */
import os from 'node:os';

jest.setTimeout(10 * 60_000);

try {
	if (os.getPriority() > 0) os.setPriority(0);
} catch {
	// Only root may raise a priority again; the e2e file then runs at the lowered one.
}
