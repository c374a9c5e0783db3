import type { AddressInfo } from 'node:net';
import { LIMITS } from '../nodes/shared/endpoints';
import { parseFaultSpec } from './faults';
import { HANDLERS } from './handlers';
import { SANDBOX_KEYS } from './keys';
import type { ShortPageMode } from './paging';
import { isSeedName, SEED_NAMES } from './seed';
import { createSandboxServer } from './server';
import { SandboxState } from './state';

export { SANDBOX_KEYS };

export interface SandboxOptions {
	port?: number;
	host?: string;
	/** Requests per minute per key owner (default 120). */
	rateLimit?: number;
	/** Added to every v1 answer. */
	latencyMs?: number;
	/** Fault probabilities, e.g. `500=0.05,reset=0.02,slow=0.1,slow-ms=2000`. */
	faults?: string;
	/** `demo` (default) or `large`. */
	seed?: string;
	/** How pages come back short (default `tail`; see paging.ts). */
	shortPages?: ShortPageMode;
}

export interface RunningSandbox {
	baseUrl: string;
	port: number;
	stop(): Promise<void>;
}

/** Starts a sandbox in this process. Tests use port 0 and stop it when done. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const seed = options.seed ?? 'demo';
	if (!isSeedName(seed)) throw new Error(`Unknown seed ${seed}: use ${SEED_NAMES}`);
	const faults = options.faults ? parseFaultSpec(options.faults) : null;
	const state = new SandboxState(
		{ shortPages: options.shortPages ?? 'tail', latencyMs: options.latencyMs ?? 0 },
		options.rateLimit ?? LIMITS.ratePerMinute,
		seed,
	);
	if (faults)
		state.faults.configure({
			probabilities: faults.probabilities,
			...(faults.slowMs !== undefined ? { slowMs: faults.slowMs } : {}),
		});
	const server = createSandboxServer(state, HANDLERS);
	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 4010, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const shownHost =
		host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	return {
		baseUrl: `http://${shownHost}:${port}`,
		port,
		stop: () =>
			new Promise<void>((resolve, reject) => {
				state.webhooks.clear();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
