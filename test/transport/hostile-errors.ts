/**
 * Error answers a hostile or broken server sends: JSON nested 200,000 levels deep (the sandbox's
 * `/_hostile/deep-error`), megabytes of text, a megabyte-long message, thousands of entries. The
 * error always carries the status and the API's message, and keeps a bounded copy of the body
 * (ERROR_BODY_LIMITS), so n8n can show and save it; before, the deep body ended as "Maximum call
 * stack size exceeded" without either. What the copy leaves out is counted (entries) or marked
 * where it was cut (levels, values). A bearer token the text echoes is not kept, the text around
 * it is.
 */
import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';
import { ERROR_BODY_LIMITS, redact } from '../../nodes/shared/transport/error-body';
import { apiRequest } from '../../nodes/shared/transport/request';
import { DEEP_ERROR_LEVELS, DEEP_ERROR_MESSAGE } from '../../sandbox/hostile';
import { runNode, withSandbox } from '../helpers/n8n';
import { failureOf } from './context';
import { startFakeApi } from './fake-api';
import { withRetry } from '../helpers/limits';

export function hostileErrors(): void {
	const sandbox = withSandbox();
	withRetry();
	const deepError = () =>
		sandbox.credentials('acmeOwner', { baseUrl: `${sandbox.baseUrl}/_hostile/deep-error` });

	/** How deep a parsed value nests (a loop, so it cannot overflow itself). */
	function depthOf(value: unknown): number {
		let deepest = 0;
		const stack: Array<[unknown, number]> = [[value, 0]];
		while (stack.length > 0) {
			const [next, depth] = stack.pop()!;
			deepest = Math.max(deepest, depth);
			if (next !== null && typeof next === 'object')
				for (const entry of Object.values(next)) stack.push([entry, depth + 1]);
		}
		return deepest;
	}

	/** The body the error keeps, as n8n would save it. */
	const keptBody = (error: object) =>
		(JSON.parse(JSON.stringify(error)) as { errorResponse?: { body?: unknown } }).errorResponse
			?.body;

	it(`an error body nested ${DEEP_ERROR_LEVELS} levels deep: the status and the API's message come through`, async () => {
		const error = await failureOf(deepError(), async function () {
			return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
		});
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe(`${DEEP_ERROR_MESSAGE} (HTTP 400)`);
		expect(error.description).toBe('Check the parameter "limit".');
		const body = keptBody(error);
		expect(body).toMatchObject({ error: { message: DEEP_ERROR_MESSAGE, param: 'limit' } });
		expect(depthOf(body)).toBeLessThanOrEqual(ERROR_BODY_LIMITS.depth + 1);
	});

	it('the same error fails Get Many in the node, and the execution n8n saves keeps status and message', async () => {
		const { error, run } = await runNode({
			node: new InspectionBusiness(),
			parameters: { resource: 'tag', operation: 'getAll', returnAll: true },
			credentials: deepError(),
			items: [{ json: {} }],
		});
		expect(error?.message).toBe(`${DEEP_ERROR_MESSAGE} (HTTP 400)`);
		// n8n saves the execution, its error included, as JSON.
		const saved = JSON.parse(JSON.stringify(run)) as typeof run;
		expect(saved.data.resultData.error).toMatchObject({
			message: `${DEEP_ERROR_MESSAGE} (HTTP 400)`,
			httpCode: '400',
		});
	});

	describe('bodies too large to keep', () => {
		const bigMessage = 'm'.repeat(1024 * 1024);
		test.each([
			['5 MB of text', { status: 502, text: 'x'.repeat(5 * 1024 * 1024) }, 502, 'x'.repeat(500)],
			[
				'a 1 MB message',
				{ status: 422, body: { error: { code: 'invalid', message: bigMessage } } },
				422,
				undefined,
			],
			[
				'100,000 errors',
				{
					status: 400,
					body: { errors: Array.from({ length: 100_000 }, (_, i) => ({ title: `e${i}` })) },
				},
				400,
				undefined,
			],
		])(
			'%s: the status comes through and the kept body stays small',
			async (_what, answer, status, message) => {
				const api = await startFakeApi(answer);
				try {
					const error = await failureOf(
						sandbox.credentials('acmeOwner', { baseUrl: api.baseUrl }),
						async function () {
							return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
						},
					);
					expect(error.httpCode).toBe(String(status));
					if (message !== undefined) expect(error.message).toBe(`${message} (HTTP ${status})`);
					expect(error.message.length).toBeLessThan(ERROR_BODY_LIMITS.textLength + 100);
					expect(JSON.stringify(keptBody(error)).length).toBeLessThan(64 * 1024);
				} finally {
					await api.close();
				}
			},
		);
	});

	describe('a bearer token an error text echoes (a proxy, an upstream) is not kept, the key or not', () => {
		const TOKEN = 'sk_live.other-Token_123';
		it.each([
			['after Bearer', `upstream refused Bearer ${TOKEN}`],
			['in lower case, before a semicolon', `authorization: bearer   ${TOKEN}; retry later`],
			['in a quoted header, before a comma', `{"auth":"Bearer ${TOKEN}", "ok":false}`],
		])('%s', (_where, text) => {
			const redacted = redact(text, 'the-credential-key');
			expect(redacted).not.toContain(TOKEN);
			expect(redacted).not.toContain(TOKEN.slice(1));
			// Only the token goes: the text on either side of it stays.
			const at = text.indexOf(TOKEN);
			expect(redacted.startsWith(text.slice(0, at))).toBe(true);
			expect(redacted.endsWith(text.slice(at + TOKEN.length))).toBe(true);
		});
	});

	describe('what the kept body leaves out is counted, or marked where it was cut', () => {
		const { depth, entries, values } = ERROR_BODY_LIMITS;
		/** The body the error keeps when the API answers a 400 with `body`. */
		async function keptBodyOf(body: unknown): Promise<unknown> {
			const api = await startFakeApi({ status: 400, body });
			try {
				const error = await failureOf(
					sandbox.credentials('acmeOwner', { baseUrl: api.baseUrl }),
					async function () {
						return await apiRequest.call(this, 'listTags', { query: { limit: 1 } });
					},
				);
				return keptBody(error);
			} finally {
				await api.close();
			}
		}
		/** The numbers a text gives. */
		const numbersIn = (text: unknown) => String(text).match(/\d+/g)?.map(Number);

		it(`a list of exactly ${entries} is kept whole, with nothing added`, async () => {
			const list = Array.from({ length: entries }, (_, i) => i);
			expect(await keptBodyOf(list)).toEqual(list);
		});

		it('a text past its bound: its start kept, then how many more characters there were', async () => {
			const text = 'x'.repeat(ERROR_BODY_LIMITS.textLength + 10);
			const kept = (await keptBodyOf({ note: text })) as { note: string };
			expect(kept.note.startsWith('x'.repeat(ERROR_BODY_LIMITS.textLength))).toBe(true);
			expect(numbersIn(kept.note)).toEqual([10]);
		});

		it(`a list of ${entries + 10}: the first ${entries} kept, then how many more there were`, async () => {
			const list = Array.from({ length: entries + 10 }, (_, i) => i);
			const kept = (await keptBodyOf(list)) as unknown[];
			expect(kept).toHaveLength(entries + 1);
			expect(kept.slice(0, entries)).toEqual(list.slice(0, entries));
			expect(numbersIn(kept[entries])).toEqual([10]);
		});

		it(`an object of ${entries + 10} entries: ${entries} kept, and one more saying how many more there were`, async () => {
			const object = Object.fromEntries(
				Array.from({ length: entries + 10 }, (_, i) => [`k${i}`, i]),
			);
			const kept = (await keptBodyOf(object)) as Record<string, unknown>;
			const added = Object.keys(kept).filter((key) => !(key in object));
			expect(Object.keys(kept)).toHaveLength(entries + 1);
			expect(added).toHaveLength(1);
			expect(numbersIn(kept[added[0]])).toEqual([10]);
		});

		it(`${entries} lists of ${entries} numbers: ${values} values kept in all, in order, each cut one marked`, async () => {
			const lists = Array.from({ length: entries }, (_, i) =>
				Array.from({ length: entries }, (_, j) => i * entries + j),
			);
			const kept = (await keptBodyOf(lists)) as unknown[];
			const leaves = kept.flatMap((entry) =>
				Array.isArray(entry) ? (entry as unknown[]) : [entry],
			);
			const numbers = leaves.filter((leaf) => typeof leaf === 'number');
			// The body, each list kept and each number kept count as one value.
			expect(1 + kept.filter(Array.isArray).length + numbers.length).toBe(values);
			expect(numbers).toEqual(lists.flat().slice(0, numbers.length));
			const cuts = leaves.filter((leaf) => typeof leaf !== 'number');
			expect(cuts.length).toBeGreaterThan(0);
			expect(cuts.every((cut) => typeof cut === 'string' && cut.trim() !== '')).toBe(true);
		});

		it(`a body nested ${depth + 4} levels: where the levels are cut, a text says so`, async () => {
			let body: unknown = 'bottom';
			for (let level = 0; level < depth + 4; level++) body = { a: body };
			let kept = await keptBodyOf(body);
			while (kept !== null && typeof kept === 'object') kept = (kept as { a: unknown }).a;
			expect(kept).not.toBe('bottom');
			expect(typeof kept === 'string' && kept.trim() !== '').toBe(true);
		});
	});
}
