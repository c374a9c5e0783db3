/**
 * Removes the run's folder (templates and what each file's n8n left; each file stopped its own
 * n8n) and the unit files' queue folder (jest.config.js).
 */
import { rmSync } from 'node:fs';
import { removeRunFolder } from './support/resources';

export default async function globalTeardown(): Promise<void> {
	await removeRunFolder();
	const unitQueue = process.env.IB_BESIDE_E2E;
	if (unitQueue) rmSync(unitQueue, { recursive: true, force: true });
}
