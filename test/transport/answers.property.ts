/**
 * Property: whatever the API answers, every call ends, within its deadlines, with a value or a
 * clear error; memory stays within the answer cap; and the key's next request still goes out.
 *
 * fast-check draws a script of hostile answers (./hostile-server.ts): pages of new or repeated
 * records with a missing, counted, absurd or growing `total`, bodies many times the cap (plain,
 * gzip, deflate or br, their length announced or not), drips, silence, resets, 5xx and 4xx, 429s
 * with and without Retry-After, JSON that breaks off; and a tail that repeats forever once the
 * script is spent (endless pages, a 429 storm, a drip). It runs one of the action node's
 * operations through n8n's real execution (Contact → Get Many with Return All or a Limit,
 * Inspection → Get, Contact → Create), or the webhook trigger's Re-Fetch, against it, with the
 * limits shrunk (`withLimits`) so that a run takes a second or two. Checked after each run:
 *
 * - the server held no request longer than the attempt deadline (plus room for a busy machine),
 *   and the call ended at all (within a bound far above what its deadlines allow);
 * - each item is a value or a clear error of the transport (a headline below, never a bare
 *   runtime error), and the key appears nowhere;
 * - the process's memory for data rose less than the cap times a small factor;
 * - no slot of the key's pacer is held, and a request of the key to a sane API is answered.
 *
 * Six fixed scripts (one per kind of hostility) and ANSWERS_FUZZ_RUNS drawn ones (default 12,
 * from a fixed seed) in the normal test run; more as a bench:
 * `ANSWERS_FUZZ_RUNS=300 ANSWERS_FUZZ_SEED=<n> SKIP_E2E=1 npx jest test/transport/hostile.test.ts -t '^answers.property '`.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';
import { InspectionBusinessWebhookTrigger } from '../../nodes/InspectionBusinessWebhookTrigger/InspectionBusinessWebhookTrigger.node';
import { pacerFor } from '../../nodes/shared/transport/pacer';
import { apiRequest } from '../../nodes/shared/transport/request';
import { RETRY } from '../../nodes/shared/transport/retry';
import { withLimits } from '../helpers/limits';
import { peakGrowth } from '../helpers/memory';
import { runNode, runWebhook, type TestCredentials } from '../helpers/n8n';
import { containsSecret, inNode } from './context';
import {
	type Behaviour,
	type Encoding,
	ENCODINGS,
	type HostileServer,
	type Script,
	startHostileServer,
	WANTED,
} from './hostile-server';

export function answersProperty(): void {
	const KB = 1024;
	const limits = withLimits({
		answerBytes: 256 * KB,
		attemptMs: 150,
		walkPages: 8,
		refetchBatchMs: 1_500,
	});
	const RUNS = Number(process.env.ANSWERS_FUZZ_RUNS ?? 12);
	const SEED = Number(process.env.ANSWERS_FUZZ_SEED ?? 20261207);
	/** The credential's Wait for Rate Limit: 1.2 s. */
	const WAIT_MINUTES = 0.02;
	/** Room for a busy, shared machine on top of a deadline. */
	const SLACK_MS = 1_500;

	let server: HostileServer;
	/** The hostile bodies' sizes, in answer caps. */
	const SIZES = [0.5, 2, 64];
	beforeAll(async () => (server = await startHostileServer(256 * KB, SIZES)));
	afterAll(async () => await server.close());

	const encoding = fc.constantFrom<Encoding>(...ENCODINGS);
	const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
		{
			weight: 6,
			arbitrary: fc.record({
				kind: fc.constant('page' as const),
				records: fc.integer({ min: 0, max: 3 }),
				fresh: fc.boolean(),
				next: fc.boolean(),
				total: fc.constantFrom(
					'none' as const,
					'count' as const,
					'huge' as const,
					'growing' as const,
				),
				encoding,
			}),
		},
		{
			weight: 2,
			arbitrary: fc.record({
				kind: fc.constant('big' as const),
				times: fc.constantFrom(...SIZES),
				encoding,
				announced: fc.boolean(),
			}),
		},
		{ weight: 1, arbitrary: fc.constant({ kind: 'drip' as const }) },
		{ weight: 1, arbitrary: fc.constant({ kind: 'silent' as const }) },
		{ weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
		{
			weight: 1,
			arbitrary: fc.record({
				kind: fc.constant('status' as const),
				status: fc.constantFrom(400 as const, 404 as const, 500 as const, 503 as const),
			}),
		},
		{
			weight: 2,
			arbitrary: fc.record(
				{ kind: fc.constant('limited' as const), retryAfterS: fc.constantFrom(0, 1) },
				{ requiredKeys: ['kind'] },
			),
		},
		{ weight: 1, arbitrary: fc.constant({ kind: 'malformed' as const }) },
	);
	/** What repeats once the script is spent: the last page, or something without end. */
	const tail: fc.Arbitrary<Behaviour> = fc.oneof(
		{
			weight: 4,
			arbitrary: fc.constant<Behaviour>({
				kind: 'page',
				records: 1,
				fresh: false,
				next: false,
				total: 'count',
				encoding: 'identity',
			}),
		},
		{
			weight: 3,
			arbitrary: fc.record({
				kind: fc.constant('page' as const),
				records: fc.integer({ min: 0, max: 2 }),
				fresh: fc.boolean(),
				next: fc.constant(true),
				total: fc.constantFrom('none' as const, 'huge' as const, 'growing' as const),
				encoding: fc.constant('identity' as const),
			}),
		},
		{ weight: 1, arbitrary: fc.constant<Behaviour>({ kind: 'limited', retryAfterS: 0 }) },
		{ weight: 1, arbitrary: fc.constant<Behaviour>({ kind: 'drip' }) },
	);
	const script: fc.Arbitrary<Script> = fc.record({
		steps: fc.array(behaviour, { maxLength: 6 }),
		tail,
	});

	const OPERATIONS = {
		returnAll: { resource: 'contact', operation: 'getAll', returnAll: true },
		limit: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 3 },
		get: { resource: 'inspection', operation: 'get', id: WANTED },
		create: { resource: 'contact', operation: 'create', first_name: 'Ada', email: 'ada@x.io' },
		refetch: undefined,
	} as const;
	type Operation = keyof typeof OPERATIONS;

	/** The headlines a failed call may end with: each names what happened. */
	const CLEAR_ERRORS = [
		/^The API's answer is larger than 256 kB|^The API's answer is larger than 0\.3 MB/,
		/^The API accepted the request \(HTTP \d+\), but its answer is larger than/,
		/^The API did not answer within /,
		/^The request may have been applied/,
		/^The connection to the API failed$/,
		/^The API answered with data that could not be read$/,
		/^The API's pages do not end: /,
		/^The API returned the same page cursor twice$/,
		/^The API answered a list request without a data array$/,
		/^No free slot of the key's rate limit came within /,
		/ \(HTTP \d{3}\)$/,
		/^Inspection \S+ not found$/,
		new RegExp(`^Could not re-fetch inspection ${WANTED} of delivery \\S+ \\(.+\\)$`),
	];

	const clear = (message: unknown) =>
		typeof message === 'string' && CLEAR_ERRORS.some((headline) => headline.test(message));

	let run = 0;
	const trigger = new InspectionBusinessWebhookTrigger();
	const SECRET = 'fuzz-secret';

	/** One operation against the hostile API: its items' json, or its error's message. */
	async function operate(operation: Operation, credentials: TestCredentials): Promise<unknown[]> {
		const parameters = OPERATIONS[operation];
		if (parameters === undefined) {
			const { result, error } = await runWebhook({
				node: trigger,
				parameters: { refetchRecord: true },
				webhookSecret: SECRET,
				credentials,
				workflowId: `fuzz-${run}`,
				request: {
					headers: { 'X-Webhook-Secret': SECRET },
					body: { id: `delivery-${run}`, event: 'inspection.confirmed', data: { id: WANTED } },
				},
			});
			return error
				? [{ error: error.message }]
				: (result?.workflowData?.[0] ?? []).map((i) => i.json);
		}
		const { items, error } = await runNode({
			node: new InspectionBusiness(),
			parameters: { ...parameters },
			credentials,
			continueOnFail: true,
		});
		return error ? [{ error: error.message }] : items.map((item) => item.json);
	}

	/** A run's key: its own, so that no run inherits another's pause or learned rate. */
	const keyOf = (n: number) => `fuzz-key-${n}-secret`;

	async function check(operation: Operation, played: Script): Promise<void> {
		run++;
		server.play(played);
		const credentials: TestCredentials = {
			apiKey: keyOf(run),
			baseUrl: `${server.baseUrl}/hostile`,
			requestsPerMinute: 100_000,
			rateLimitWaitMinutes: WAIT_MINUTES,
		};
		// Far above what the deadlines allow: 8 pages, each with its attempts, backoff and 429 wait.
		const bound =
			limits.walkPages *
			(RETRY.maxAttempts * limits.attemptMs + 1_750 + WAIT_MINUTES * 60_000 + SLACK_MS);
		let timer: NodeJS.Timeout | undefined;
		const { value: outputs, growth } = await peakGrowth(
			async () =>
				await Promise.race([
					operate(operation, credentials),
					new Promise<never>((_, reject) => {
						timer = setTimeout(() => reject(new Error(`no end within ${bound} ms`)), bound);
					}),
				]).finally(() => clearTimeout(timer)),
		);

		// The server hears of a connection the client closed a moment later.
		for (let waited = 0; waited < SLACK_MS && server.served.some((h) => h.heldMs === undefined); )
			waited += await new Promise<number>((resolve) => setTimeout(() => resolve(20), 20));
		for (const held of server.served)
			expect(held.heldMs ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(
				limits.attemptMs + SLACK_MS,
			);
		// A list may be empty; a Get, a Create and a delivery give one item each.
		if (operation !== 'returnAll' && operation !== 'limit') expect(outputs).toHaveLength(1);
		for (const json of outputs as IDataObject[]) {
			if (json.error !== undefined && !clear(json.error))
				throw new Error(`Not a clear error: ${String(json.error)}`);
		}
		expect(containsSecret(outputs, credentials.apiKey)).toBe(false);
		// The largest hostile body is 64 times the cap, 16 MB: read whole it would hold several times that.
		expect(growth).toBeLessThan(48 * limits.answerBytes);
		expect(pacerFor(credentials.apiKey, 100_000).inFlightCount).toBe(0);
		const sane = { ...credentials, baseUrl: `${server.baseUrl}/sane` };
		const answer = await inNode(sane, async function () {
			return await apiRequest.call(this, 'listTags');
		});
		expect(answer).toMatchObject({ data: [] });
	}

	const LAST_PAGE: Behaviour = {
		kind: 'page',
		records: 1,
		fresh: false,
		next: false,
		total: 'count',
		encoding: 'identity',
	};
	const big = (encoding: Encoding, announced: boolean): Behaviour => ({
		kind: 'big',
		times: 64,
		encoding,
		announced,
	});
	/** Run every time besides the drawn ones, so that a normal run meets each kind of hostility. */
	const EXAMPLES: Array<[Operation, Script]> = [
		['returnAll', { steps: [big('identity', false)], tail: LAST_PAGE }],
		['get', { steps: [big('gzip', false)], tail: LAST_PAGE }],
		['create', { steps: [big('br', true)], tail: LAST_PAGE }],
		['refetch', { steps: [], tail: { kind: 'drip' } }],
		['returnAll', { steps: [], tail: { ...LAST_PAGE, fresh: true, next: true, total: 'growing' } }],
		[
			'limit',
			{ steps: [{ kind: 'silent' }, { kind: 'reset' }], tail: { kind: 'limited', retryAfterS: 0 } },
		],
	];

	it(`${RUNS} hostile scripts and ${EXAMPLES.length} fixed ones: every call ends in time with a value or a clear error, within the cap, the key free`, async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom<Operation>('returnAll', 'limit', 'get', 'create', 'refetch'),
				script,
				check,
			),
			{
				numRuns: RUNS,
				seed: SEED,
				examples: EXAMPLES,
				endOnFailure: process.env.ANSWERS_FUZZ_SHRINK !== '1',
			},
		);
	}, 600_000);
}
