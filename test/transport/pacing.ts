/**
 * Pacing per key. The 60-second window is checked on a virtual clock (the
 * Pacer takes its clock), and against the sandbox in real time: a credential
 * of 20/min against a sandbox allowing 20/min, shared by two concurrent
 * executions, sends exactly the budget, sees no 429, and holds the next
 * request back instead of sending it.
 */
import { apiRequest } from '../../nodes/shared/transport/request';
import { Pacer, PACING_WINDOW_MS } from '../../nodes/shared/transport/pacer';
import { withExecuteContext, withSandbox } from '../helpers/n8n';

export function pacing(): void {
	/**
	 * A clock that only moves when every caller is asleep, as time would for a waiting process:
	 * `resultOf` runs until `done`, jumping to the earliest wake-up whenever nobody can run.
	 */
	function virtualTime() {
		let now = 0;
		const sleepers: Array<{ until: number; wake: () => void }> = [];
		return {
			now: () => now,
			nap: (ms: number) => new Promise<void>((wake) => sleepers.push({ until: now + ms, wake })),
			async resultOf(done: () => boolean) {
				for (let round = 0; round < 200_000 && !done(); round++) {
					await new Promise((resolve) => setImmediate(resolve));
					if (sleepers.length === 0) continue;
					sleepers.sort((a, b) => a.until - b.until);
					const next = sleepers.shift()!;
					now = Math.max(now, next.until);
					next.wake();
				}
			},
		};
	}

	describe('Pacer on a virtual clock', () => {
		it('two concurrent callers share 20 per minute and never exceed it in any window', async () => {
			const time = virtualTime();
			const pacer = new Pacer(20, PACING_WINDOW_MS, time.now, time.nap);
			const sent: number[] = [];
			const caller = async (requests: number) => {
				for (let i = 0; i < requests; i++) {
					const release = await pacer.acquire();
					sent.push(time.now());
					release();
				}
			};
			let finished = 0;
			const both = Promise.all([caller(25), caller(25)]).then(() => (finished = 2));
			await time.resultOf(() => finished === 2);
			await both;
			expect(sent).toHaveLength(50);
			for (const start of sent) {
				expect(
					sent.filter((t) => t >= start && t < start + PACING_WINDOW_MS).length,
				).toBeLessThanOrEqual(20);
			}
			// 50 requests at 20 a minute: the last batch goes out after two full windows.
			expect(sent.slice(0, 20).every((t) => t === 0)).toBe(true);
			expect(sent[49]).toBeGreaterThanOrEqual(2 * PACING_WINDOW_MS);
			expect(sent[49]).toBeLessThan(2 * PACING_WINDOW_MS + 1_000);
		});

		it('a request in flight holds its slot until one window after its answer', async () => {
			const time = virtualTime();
			const pacer = new Pacer(1, PACING_WINDOW_MS, time.now, time.nap);
			const first = await pacer.acquire();
			let secondAt: number | undefined;
			const second = pacer.acquire().then((release) => {
				secondAt = time.now();
				release();
			});
			// The answer to the first request takes 5 s; only then does its window start.
			let answered = false;
			void time.nap(5_000).then(() => {
				first();
				answered = true;
			});
			await time.resultOf(() => secondAt !== undefined);
			await second;
			expect(answered).toBe(true);
			expect(secondAt).toBeGreaterThanOrEqual(5_000 + PACING_WINDOW_MS);
		});

		it('a 429 pause holds back every caller of the key', async () => {
			const time = virtualTime();
			const pacer = new Pacer(100, PACING_WINDOW_MS, time.now, time.nap);
			pacer.pause(7_000);
			const times: number[] = [];
			const done = Promise.all(
				[1, 2, 3].map(async () => {
					(await pacer.acquire())();
					times.push(time.now());
				}),
			);
			await time.resultOf(() => times.length === 3);
			await done;
			expect(times.every((t) => t >= 7_000)).toBe(true);
		});
	});

	describe('Pacer on a stepping clock (each nap moves it by the nap)', () => {
		function steppingTime(start: number) {
			const time = { now: start, naps: [] as number[] };
			const nap = async (ms: number) => {
				time.naps.push(ms);
				time.now += ms;
			};
			return {
				time,
				pacer: (limit: number) => new Pacer(limit, PACING_WINDOW_MS, () => time.now, nap),
			};
		}

		it('a caller waiting out a short pause sends the moment it ends', async () => {
			const { time, pacer: paced } = steppingTime(5_000);
			const pacer = paced(10);
			pacer.pause(5_300);
			(await pacer.acquire())();
			expect(time.naps).toEqual([300]);
			expect(time.now).toBe(5_300);
		});

		it('a slot released twice is freed once: the limit still holds after its window', async () => {
			const { time, pacer: paced } = steppingTime(0);
			const pacer = paced(1);
			const release = await pacer.acquire();
			release();
			release();
			time.now += PACING_WINDOW_MS;
			await pacer.acquire();
			// The one slot is in flight, so a second caller waits (and gives up when told to).
			await expect(pacer.acquire({ stopped: () => time.naps.length >= 3 })).rejects.toThrow();
		});
	});

	describe('pacing against the sandbox (20 per minute on both sides)', () => {
		const sandbox = withSandbox({ rateLimit: 20 });

		it('two concurrent executions share the budget: 20 requests, no 429, and the 21st waits', async () => {
			const credentials = sandbox.credentials('acmeOwner', { requestsPerMinute: 20 });
			const tenRequests = async () =>
				await withExecuteContext(
					async function () {
						for (let i = 0; i < 10; i++)
							await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
					},
					{ credentials },
				);
			const started = Date.now();
			const results = await Promise.all([tenRequests(), tenRequests()]);
			expect(results.map((r) => r.error)).toEqual([undefined, undefined]);
			// Well under the minute a 21st request would have to wait (loose: the machine may be busy).
			expect(Date.now() - started).toBeLessThan(30_000);

			const stop = new AbortController();
			const third = withExecuteContext(
				async function () {
					return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
				},
				{ credentials, signal: stop.signal },
			);
			await new Promise((resolve) => setTimeout(resolve, 1_500));
			const log = (await sandbox.control.requests()).data;
			expect(log).toHaveLength(20);
			expect(log.filter((r) => r.status === 429)).toHaveLength(0);
			// Stopping the execution ends the wait (the window would free only after a minute).
			stop.abort();
			await third;
			expect((await sandbox.control.requests()).data).toHaveLength(20);
		});
	});

	describe('pacing under contention (virtual clock)', () => {
		it('a 429 pauses every caller of the key until Retry-After and halves the rate; answers bring it back', async () => {
			const time = virtualTime();
			const pacer = new Pacer(120, PACING_WINDOW_MS, time.now, time.nap);
			const limited = await pacer.acquire();
			const other = await pacer.acquire();
			limited({ kind: 'rate-limited', untilMs: 5_000 });
			// The second request was sent before the halving: its 429 is the same congestion event.
			other({ kind: 'rate-limited', untilMs: 5_000 });
			expect(pacer.rate).toBe(60);
			const sent: number[] = [];
			const callers = Promise.all(
				Array.from({ length: 70 }, async () => {
					const release = await pacer.acquire();
					sent.push(time.now());
					release({ kind: 'answered' });
				}),
			);
			await time.resultOf(() => sent.length === 70);
			await callers;
			// Nobody before Retry-After; then this process keeps to its halved share of the window
			// (60, plus the additive recovery its answers earn), not the credential's 120.
			expect(Math.min(...sent)).toBeGreaterThanOrEqual(5_000);
			const firstWindow = sent.filter((t) => t < PACING_WINDOW_MS).length;
			expect(firstWindow).toBeGreaterThanOrEqual(58);
			expect(firstWindow).toBeLessThan(80);
			// Additive increase: answered requests bring the rate back to the credential's limit.
			const recovering = (async () => {
				while (pacer.rate < 120) (await pacer.acquire())({ kind: 'answered' });
			})();
			await time.resultOf(() => pacer.rate >= 120);
			await recovering;
			expect(pacer.rate).toBe(120);
			// About +12 a minute (a tenth of the limit): from 60 back to 120 in minutes, not at once.
			expect(time.now()).toBeGreaterThan(3 * PACING_WINDOW_MS);
		});

		it('four processes under one key (four pacers, one server window) end near the shared budget', async () => {
			const time = virtualTime();
			const LIMIT = 120;
			const admitted: number[] = [];
			let limitedCount = 0;
			/** The server: a sliding window of LIMIT a minute; a 429 says when the oldest slot frees. */
			const server = (): number | null => {
				const now = time.now();
				while (admitted.length > 0 && admitted[0] + PACING_WINDOW_MS <= now) admitted.shift();
				if (admitted.length >= LIMIT) {
					limitedCount++;
					return Math.ceil((admitted[0] + PACING_WINDOW_MS - now) / 1000) * 1000;
				}
				admitted.push(now);
				return null;
			};
			const PAGES = 150;
			let finished = 0;
			const walk = async (pacer: Pacer) => {
				for (let page = 0; page < PAGES; ) {
					const release = await pacer.acquire();
					await time.nap(20); // the answer takes 20 ms
					const retryAfter = server();
					if (retryAfter === null) {
						release({ kind: 'answered' });
						page++;
					} else release({ kind: 'rate-limited', untilMs: time.now() + retryAfter });
				}
				finished++;
			};
			const pacers = [1, 2, 3, 4].map(() => new Pacer(LIMIT, PACING_WINDOW_MS, time.now, time.nap));
			const all = Promise.all(pacers.map(walk));
			await time.resultOf(() => finished === pacers.length);
			await all;
			const total = pacers.length * PAGES;
			const floor = Math.floor((total - 1) / LIMIT) * PACING_WINDOW_MS;
			// Goals of the contention bench: at most 5 % of requests answered 429, wall time within 1.1× the floor.
			expect(limitedCount / (total + limitedCount)).toBeLessThanOrEqual(0.05);
			expect(time.now()).toBeLessThanOrEqual(1.1 * floor + 1_000);
		});
	});
}
