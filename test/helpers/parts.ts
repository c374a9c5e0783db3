/**
 * `part(name, tests)`: the tests of one part of a file that holds several, as a describe block.
 *
 * Files that run code through n8n-core hold several parts each, by theme, because jest loads
 * n8n-core anew in every file (over a second of CPU each time). A part is a module of its own
 * whose exported function registers its tests; what it sets up at its top (`withSandbox`,
 * `withLimits`, its servers, its mocks) is scoped to its describe block, as it was to its file.
 * What the package keeps per process is put back before each part's first test: every sandbox
 * key's pacer starts afresh, as it did in a file of its own (a part that filled a key's budget
 * or met a 429 would otherwise slow the next part down).
 */
import { Pacer, pacerFor } from '../../nodes/shared/transport/pacer';
import { SANDBOX_KEYS } from '../../sandbox/keys';

export function part(name: string, tests: () => void): void {
	describe(name, () => {
		beforeAll(freshPacers);
		tests();
	});
}

/**
 * Each sandbox key's pacer as a new one is: nothing sent, nothing in flight, no pause, and no
 * rate learned from a 429 (an endless one, so the credential's Requests per Minute, which
 * `pacerFor` sets on every use, is the rate).
 */
export function freshPacers(): void {
	for (const key of Object.values(SANDBOX_KEYS))
		Object.assign(pacerFor(key, Number.POSITIVE_INFINITY), new Pacer(Number.POSITIVE_INFINITY));
}
