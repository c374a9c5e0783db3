/**
 * `withSandbox(options)`: starts an in-process sandbox (127.0.0.1, port 0) for
 * the calling test file and stops it after. Before each test it clears the
 * request log and the faults (and re-seeds with `withSandbox(options, { reset: true })`).
 *
 * Rate limits: unless the test sets `rateLimit`, the sandbox allows 100,000
 * requests a minute and `credentials()` asks for the same, so ordinary tests
 * never wait on the pacer. Pacing tests set both explicitly.
 */
import type { RunningSandbox, SandboxOptions } from '../../sandbox';
import { SANDBOX_KEYS, startSandbox } from '../../sandbox';
import { SandboxControl } from '../../sandbox/client';
import type { TestCredentials } from './runtime';

export { SANDBOX_KEYS };

/** Far above anything a test sends, so only pacing tests see the limit. */
export const UNLIMITED_RATE = 100_000;

export interface SandboxHandle {
	readonly baseUrl: string;
	readonly control: SandboxControl;
	/** A credential for this sandbox; default key acmeOwner. */
	credentials(
		key?: keyof typeof SANDBOX_KEYS,
		overrides?: Partial<TestCredentials>,
	): TestCredentials;
}

export function withSandbox(
	options: SandboxOptions = {},
	each: { reset?: boolean } = {},
): SandboxHandle {
	let running: RunningSandbox | undefined;
	let control: SandboxControl | undefined;
	const started = () => {
		if (running === undefined || control === undefined)
			throw new Error('withSandbox: the sandbox starts in beforeAll');
		return { running, control };
	};

	beforeAll(async () => {
		running = await startSandbox({
			rateLimit: UNLIMITED_RATE,
			...options,
			port: 0,
			host: '127.0.0.1',
		});
		control = new SandboxControl(running.baseUrl);
	});
	beforeEach(async () => {
		const { control: client } = started();
		if (each.reset) await client.reset();
		await client.clearFaults();
		await client.clearRequests();
	});
	afterAll(async () => await running?.stop());

	return {
		get baseUrl() {
			return started().running.baseUrl;
		},
		get control() {
			return started().control;
		},
		credentials(key = 'acmeOwner', overrides = {}) {
			return {
				apiKey: SANDBOX_KEYS[key],
				baseUrl: started().running.baseUrl,
				requestsPerMinute: options.rateLimit ?? UNLIMITED_RATE,
				...overrides,
			};
		},
	};
}
