/**
 * Removes the run's folder: the templates and what each file's n8n left (each file stopped
 * its own n8n).
 */
import { removeRunFolder } from './support/resources';

export default function globalTeardown(): void {
	removeRunFolder();
}
