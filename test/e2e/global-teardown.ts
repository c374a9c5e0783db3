/** Stops what the global setup started (n8n, the sandbox) and removes its work folder. */
import { stopResources } from './support/resources';

export default async function globalTeardown(): Promise<void> {
	await stopResources();
}
