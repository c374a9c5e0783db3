/**
 * An API whose answers have no end (docs/reliability.md, "Limits"), served by the sandbox's
 * hostile routes, with the transport's limits shrunk for this part (`withLimits`: a 1 MB cap, a
 * 1 s deadline per attempt, 250 ms for the GET tried four times, 2 s per webhook batch; `withRetry`:
 * backoffs of milliseconds) so that each case ends in seconds:
 *
 * 1. a gzip body that unpacks to 64 MB: read to the cap and refused, not asked again;
 * 2. a body too large to be text (`huge-answer`, chunked or announced); a throw between taking and
 *    giving back the key's slot (the helper's answer cannot be read) still gives the slot back;
 * 3. headers, then a blank at a time: each attempt ends at its deadline (a GET is tried 4 times,
 *    a write once), Stop ends it at once, and the webhook trigger's Re-Fetch fails the delivery
 *    at its batch deadline while the next delivery of the node still runs;
 * 5. a wait for a free slot ends at the credential's Wait for Rate Limit, and at Stop.
 *
 * After each, nothing of the key's budget is held (no slot in flight) and its next request goes
 * out. Pages that never end (4) are test/transport/hostile-pages.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { duration } from '../../nodes/shared/transport/limits';
import { pacerFor } from '../../nodes/shared/transport/pacer';
import { readAll } from '../../nodes/shared/transport/pages';
import { apiRequest } from '../../nodes/shared/transport/request';
import { RETRY } from '../../nodes/shared/transport/retry';
import { withLimits, withRetry } from '../helpers/limits';
import { peakGrowth } from '../helpers/memory';
import {
	runNode,
	runWebhook,
	SANDBOX_KEYS,
	type TestCredentials,
	UNLIMITED_RATE,
	withExecuteContext,
	withSandbox,
} from '../helpers/n8n';
import { expectNoSecret, failureOf, inNode } from './context';

export function hostileAnswers(): void {
	const MB = 1024 * 1024;
	const sandbox = withSandbox();
	const limits = withLimits({ answerBytes: MB, attemptMs: 1_000, refetchBatchMs: 2_000 });
	withRetry();

	const hostile = (fault: string, overrides: Partial<TestCredentials> = {}) =>
		sandbox.credentials('acmeOwner', {
			baseUrl: `${sandbox.baseUrl}/_hostile/${fault}`,
			...overrides,
		});
	const requestsTo = async (fault: string) =>
		(await sandbox.control.requests({ pathPrefix: `/_hostile/${fault}/` })).count;

	/** The call's outcome, or a failure of the test when it has not ended within `ms`. */
	async function within<T>(ms: number, run: () => Promise<T>): Promise<T> {
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`Still running after ${ms} ms`)), ms);
		});
		try {
			return await Promise.race([run(), late]);
		} finally {
			clearTimeout(timer);
		}
	}

	/** Nothing of the key's budget is held, and its next request goes out and is answered. */
	async function keyGoesOn(credentials: TestCredentials) {
		const pacer = pacerFor(credentials.apiKey, credentials.requestsPerMinute ?? UNLIMITED_RATE);
		expect(pacer.inFlightCount).toBe(0);
		const sane = sandbox.credentials('acmeOwner', { apiKey: credentials.apiKey });
		const tags = await inNode(sane, async function () {
			return await apiRequest.call(this, 'listTags');
		});
		expect(Array.isArray(tags.data)).toBe(true);
	}

	// A first request loads n8n's HTTP client: not within the first hostile attempt's deadline.
	beforeAll(async () => await keyGoesOn(sandbox.credentials()));

	const readContacts = async function (this: IExecuteFunctions) {
		return await readAll.call(this, 'listContacts');
	};

	const TOO_LARGE = "The API's answer is larger than 1 MB, the most an answer may be";

	describe('1. an answer that unpacks to far more than the cap (a gzip bomb)', () => {
		// The sandbox packs the bomb once, which can take longer than an attempt's deadline here.
		beforeAll(async () => {
			const answer = await fetch(`${sandbox.baseUrl}/_hostile/gzip-bomb/64/packed`);
			await answer.body?.cancel();
		});

		it('Get Many fails after one request, naming the cap; memory stays near the cap; the key goes on', async () => {
			const credentials = hostile('gzip-bomb/64');
			const { value: error, growth } = await peakGrowth(
				async () => await within(20_000, async () => await failureOf(credentials, readContacts)),
			);
			expect(error.message).toBe(TOO_LARGE);
			expect(error.description).toMatch(/not asked again/);
			expectNoSecret(error, credentials.apiKey);
			expect(await requestsTo('gzip-bomb')).toBe(1);
			// 64 MB unpacked, read whole, would hold twice that; the cap holds a megabyte.
			expect(growth).toBeLessThan(24 * MB);
			await keyGoesOn(credentials);
		});
	});

	describe('2. an answer too large to be made into text', () => {
		it.each([
			['streamed without a length: read to the cap', 'huge-answer/64', TOO_LARGE],
			[
				'with its length announced: refused before a byte of it is read',
				'huge-answer/64/announced',
				`${TOO_LARGE} (it announced 64 MB)`,
			],
		])('%s', async (_case, fault, message) => {
			const credentials = hostile(fault);
			const { value: error, growth } = await peakGrowth(
				async () => await within(20_000, async () => await failureOf(credentials, readContacts)),
			);
			expect(error.message).toBe(message);
			expect(await requestsTo('huge-answer')).toBe(1);
			expect(growth).toBeLessThan(24 * MB);
			await keyGoesOn(credentials);
		});

		it('a write answered so: done, said so, not sent again', async () => {
			const { items } = await runNode({
				node: new InspectionBusiness(),
				parameters: {
					resource: 'contact',
					operation: 'create',
					first_name: 'Ada',
					email: 'a@x.io',
				},
				credentials: hostile('huge-answer/64'),
				continueOnFail: true,
			});
			expect(items[0].json.error).toBe(
				'The API accepted the request (HTTP 200), but its answer is larger than 1 MB, the most an answer may be',
			);
			expect(await requestsTo('huge-answer')).toBe(1);
		});

		it('a throw between taking the slot and giving it back (an answer that cannot be read) gives it back', async () => {
			const credentials = sandbox.credentials('acmeOwner', { apiKey: 'key-of-a-broken-answer' });
			const { error } = await withExecuteContext(
				async function () {
					// What V8 throws when an answer is too long to become a string.
					const unreadable = {
						statusCode: 200,
						get headers(): never {
							throw new RangeError('Cannot create a string longer than 0x1fffffe8 characters');
						},
					};
					const helpers = {
						...this.helpers,
						httpRequestWithAuthentication: async () => unreadable,
					};
					const broken = Object.create(this, { helpers: { value: helpers } }) as typeof this;
					return await apiRequest.call(broken, 'listTags');
				},
				{ credentials },
			);
			expect(error?.message).toBe('The request failed unexpectedly');
			expect((error as { description?: string }).description).toMatch(/longer than/);
			expectNoSecret(error, credentials.apiKey);
			expect(pacerFor(credentials.apiKey, UNLIMITED_RATE).inFlightCount).toBe(0);
		});
	});

	describe('3. headers, then a blank at a time (a drip)', () => {
		// The write below waits out one whole attempt's deadline; the GET's four are shorter.
		describe('with a deadline of 250 ms an attempt', () => {
			withLimits({ attemptMs: 250 });
			it(`a GET: each attempt ends at its deadline, ${RETRY.maxAttempts} attempts, then a clear error`, async () => {
				const credentials = hostile('drip-answer/50');
				const started = Date.now();
				const error = await within(15_000, async () => await failureOf(credentials, readContacts));
				expect(error.message).toBe(`The API did not answer within ${duration(limits.attemptMs)}`);
				expect(error.description).toMatch(`Tried ${RETRY.maxAttempts} times`);
				expect(await requestsTo('drip-answer')).toBe(RETRY.maxAttempts);
				// The attempts' deadlines and the backoff between them, with room for a busy machine.
				expect(Date.now() - started).toBeLessThan(RETRY.maxAttempts * limits.attemptMs + 8_000);
				await keyGoesOn(credentials);
			});
		});

		it('a write: one attempt, ended at its deadline, not sent again', async () => {
			const { items } = await within(10_000, async () =>
				runNode({
					node: new InspectionBusiness(),
					parameters: {
						resource: 'contact',
						operation: 'create',
						first_name: 'Ada',
						email: 'a@x.io',
					},
					credentials: hostile('drip-answer/50'),
					continueOnFail: true,
				}),
			);
			expect(items[0].json.error).toBe(
				`The request may have been applied: the API did not finish answering within ${duration(limits.attemptMs)}`,
			);
			expect(await requestsTo('drip-answer')).toBe(1);
		});

		it("n8n's Stop ends it at once, the connection closed", async () => {
			const stop = new AbortController();
			const started = Date.now();
			setTimeout(() => stop.abort(), 100);
			await within(5_000, async () =>
				withExecuteContext(readContacts, {
					credentials: hostile('drip-answer/50'),
					signal: stop.signal,
				}),
			);
			// Before the attempt's own deadline could have ended it.
			expect(Date.now() - started).toBeLessThan(limits.attemptMs);
			expect(await requestsTo('drip-answer')).toBe(1);
		});
	});

	describe("3. the webhook trigger's Re-Fetch against a drip", () => {
		const trigger = new InspectionBusinessWebhookTrigger();
		const SECRET = 'a-secret-for-the-refetch';
		const delivery = (record: string, credentials: TestCredentials) =>
			runWebhook({
				node: trigger,
				parameters: { refetchRecord: true },
				webhookSecret: SECRET,
				credentials,
				// One workflow: the deliveries share the trigger's batches.
				workflowId: 'refetch-drip',
				request: {
					headers: { 'X-Webhook-Secret': SECRET },
					body: { id: crypto.randomUUID(), event: 'inspection.confirmed', data: { id: record } },
				},
			});

		it('the delivery, acknowledged at once, fails its execution at the batch deadline; the next one runs', async () => {
			const inspection = (await sandbox.control.createInspection({ org: 'acme' })) as IDataObject;
			const id = String(inspection.id);
			const started = Date.now();
			const failed = await within(
				10_000,
				async () => await delivery(id, hostile('drip-answer/50')),
			);
			expect(failed.response).toMatchObject({ statusCode: 200, body: { received: true } });
			expect(failed.error?.message).toMatch(
				new RegExp(
					`^Could not re-fetch inspection ${id} of delivery \\S+ \\(the API did not give the record within ${duration(limits.refetchBatchMs)}, the most a re-fetch may take\\)$`,
				),
			);
			// The batch's deadline, not the attempts' (4 × 1 s and the backoff between them).
			expect(Date.now() - started).toBeLessThan(limits.refetchBatchMs + 1_500);

			const next = await within(10_000, async () => await delivery(id, sandbox.credentials()));
			expect(next.error).toBeUndefined();
			expect(next.result?.workflowData?.[0][0].json.record).toMatchObject({ id });
		});
	});

	describe('5. a wait for a free slot of the key', () => {
		// One request a minute: the first takes the slot, so the second must wait out the window.
		// A key of each test's own, so that no other test sees its full window.
		const paced = (key: 'acmeStaff' | 'globex', rateLimitWaitMinutes: number) =>
			sandbox.credentials(key, { requestsPerMinute: 1, rateLimitWaitMinutes });
		const twoRequests = async function (this: IExecuteFunctions) {
			await apiRequest.call(this, 'listTags');
			return await apiRequest.call(this, 'listTags');
		};

		it("ends at the credential's Wait for Rate Limit with a clear error; nothing more is sent", async () => {
			// 3 seconds: far less than the minute the slot takes to free.
			const credentials = paced('acmeStaff', 0.05);
			const error = await within(10_000, async () => await failureOf(credentials, twoRequests));
			expect(error.message).toBe(
				"No free slot of the key's rate limit came within 3 seconds; the request was not sent",
			);
			expect(error.description).toMatch(/Wait for Rate Limit/);
			expect((await sandbox.control.requests({ pathPrefix: '/v1/tags' })).count).toBe(1);
			expect(pacerFor(credentials.apiKey, 1).inFlightCount).toBe(0);
		});

		it("ends at n8n's Stop, whatever the deadline", async () => {
			const stop = new AbortController();
			const started = Date.now();
			setTimeout(() => stop.abort(), 300);
			await within(10_000, async () =>
				withExecuteContext(twoRequests, { credentials: paced('globex', 10), signal: stop.signal }),
			);
			expect(Date.now() - started).toBeLessThan(3_000);
			expect((await sandbox.control.requests({ pathPrefix: '/v1/tags' })).count).toBe(1);
		});

		it('a storm of 429s: each request gives up at its deadline, the key is not held after', async () => {
			const credentials = hostile('rate-limited/1', {
				apiKey: SANDBOX_KEYS.acmeOwner2,
				rateLimitWaitMinutes: 0.05,
			});
			const started = Date.now();
			const errors = await within(20_000, async () =>
				Promise.all([1, 2, 3].map(async () => await failureOf(credentials, readContacts))),
			);
			for (const error of errors) expect(error.message).toMatch(/\(HTTP 429\)$|^No free slot/);
			expect(Date.now() - started).toBeLessThan(3_000 + 5_000);
			await keyGoesOn(credentials);
		});
	});
}
