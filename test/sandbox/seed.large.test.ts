/**
 * The large seed: another seed gives other ids, its size, and a sorted walk
 * over it. Building it is seconds of CPU, so this file is in the heavy lane
 * (jest.config.js), not the unit lane.
 */
import { startSandbox } from '../../sandbox';
import { SandboxControl } from '../../sandbox/client';
import { buildSeed } from '../../sandbox/seed';
import { V1, SANDBOX_KEYS } from './support';

const ANCHOR = Date.UTC(2026, 2, 1);

it('another seed gives other ids than the demo seed', () => {
	const demoIds = new Set(buildSeed('demo', ANCHOR).contacts.keys());
	const large = buildSeed('large', ANCHOR);
	expect([...large.contacts.keys()].some((id) => demoIds.has(id))).toBe(false);
}, 120_000);

describe('large seed', () => {
	// How fast it builds is a bench figure, not a test: wall time depends on the machine's load.
	it('builds ≥50,000 contacts and 20,000 inspections', () => {
		const store = buildSeed('large', ANCHOR);
		expect(store.list(store.contacts, 'acme').length).toBeGreaterThanOrEqual(50_000);
		expect(store.list(store.inspections, 'acme').length).toBeGreaterThanOrEqual(20_000);
	}, 120_000);

	it('serves a sorted walk over 50,000 contacts page by page without re-sorting', async () => {
		const running = await startSandbox({ port: 0, seed: 'large', rateLimit: 100_000 });
		try {
			const api = new V1(running.baseUrl, SANDBOX_KEYS.acmeOwner);
			expect((await new SandboxControl(running.baseUrl).info()).seed).toBe('large');
			let res = await api.get('/v1/contacts?sort=last_name&limit=200');
			expect(res.body.total).toBeGreaterThanOrEqual(50_000);
			// Counted, not timed (timing fails under load): the sandbox runs in this process, so
			// every sort of a large array during the walk is seen.
			const sort = jest.spyOn(Array.prototype, 'sort');
			try {
				for (let page = 0; page < 25; page++) {
					res = await api.get(
						`/v1/contacts?sort=last_name&limit=200&cursor=${encodeURIComponent(res.body.next_cursor)}`,
					);
					expect(res.status).toBe(200);
				}
				const large = sort.mock.contexts.filter((array) => (array as unknown[]).length > 1000);
				expect(large).toHaveLength(0);
			} finally {
				sort.mockRestore();
			}
		} finally {
			await running.stop();
		}
		// Building the seed is seconds of CPU: a loaded machine needs longer than the default 30 s.
	}, 120_000);
});
