/**
 * Pagination (spec "Pagination", all rules) and batching, counted in the
 * sandbox request log.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { LIMITS } from '../../nodes/shared/endpoints';
import { getByIds, listPage, paginate, pageQueries } from '../../nodes/shared/transport/pages';
import { withSandbox } from '../helpers/n8n';
import { drain, failureOf, inNode, TEST_NODE } from './context';
import { startFakeApi } from './fake-api';

export function pagination(): void {
	const sandbox = withSandbox();
	const listed = async (path = '/v1/contacts') =>
		(await sandbox.control.requests({ method: 'GET', pathPrefix: path })).data;

	async function allContacts(): Promise<IDataObject[]> {
		return await inNode(sandbox.credentials(), async function () {
			return await drain(paginate.call(this, 'listContacts', {}));
		});
	}

	afterEach(async () => await sandbox.control.settings({ short_pages: 'tail' }));

	describe('paginate', () => {
		it('Return All asks for limit=200 and makes exactly as many requests as the server has pages', async () => {
			const records = await allContacts();
			const requests = await listed();
			const total = (await sandbox.control.info()).orgs.acme.contacts;
			expect(records).toHaveLength(total);
			expect(new Set(records.map((r) => r.id)).size).toBe(total);
			expect(requests).toHaveLength(Math.ceil(total / LIMITS.pageSizeMax));
			expect(requests.every((r) => r.query.limit === '200')).toBe(true);
			expect(requests[0].query.cursor).toBeUndefined();
			expect(requests.slice(1).every((r) => typeof r.query.cursor === 'string')).toBe(true);
		});

		it.each([
			[5, ['200']],
			[200, ['200']],
			[250, ['200', '200']],
		])('Limit %i makes ⌈L/200⌉ requests, each asking for a full page', async (max, limits) => {
			const records = await inNode(sandbox.credentials(), async function () {
				return await drain(paginate.call(this, 'listContacts', { max }));
			});
			expect(records).toHaveLength(max);
			expect((await listed()).map((r) => r.query.limit)).toEqual(limits);
		});

		it('a short page does not end the walk; only a null next_cursor does', async () => {
			await sandbox.control.settings({ short_pages: 'always' });
			const total = (await sandbox.control.info()).orgs.acme.contacts;
			const sizes: number[] = await inNode(sandbox.credentials(), async function () {
				const seen: number[] = [];
				for await (const page of paginate.call(this, 'listContacts', {})) seen.push(page.length);
				return seen;
			});
			expect(sizes.slice(0, -1).every((size) => size < LIMITS.pageSizeMax)).toBe(true);
			expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
			expect(await listed()).toHaveLength(sizes.length);
		});

		it.each(['always', 'tail'] as const)(
			'with short pages (%s) a Limit takes exactly the pages Return All needs to reach that record',
			async (mode) => {
				await sandbox.control.settings({ short_pages: mode });
				// tail: 300 matching contacts come as pages of 100 and 200, so a Limit of 250 needs both.
				const query =
					mode === 'tail'
						? {
								ids: (await allContacts())
									.slice(0, 300)
									.map((c) => c.id)
									.join(','),
							}
						: {};
				await sandbox.control.clearRequests();
				const walk = async (max?: number) =>
					await inNode(sandbox.credentials(), async function () {
						const seen: number[] = [];
						for await (const page of paginate.call(this, 'listContacts', { query, max }))
							seen.push(page.length);
						return seen;
					});
				const everything = await walk();
				await sandbox.control.clearRequests();
				for (const max of [250, 437]) {
					const sizes = await walk(max);
					expect(sizes.reduce((a, b) => a + b, 0)).toBe(
						Math.min(
							max,
							everything.reduce((a, b) => a + b, 0),
						),
					);
					let reached = 0;
					let pagesToReach = 0;
					while (reached < max && pagesToReach < everything.length)
						reached += everything[pagesToReach++];
					const requests = await listed();
					expect(requests).toHaveLength(pagesToReach);
					expect(requests.every((r) => r.query.limit === '200')).toBe(true);
					await sandbox.control.clearRequests();
				}
			},
		);

		it('reads the credential once per walk, not once per page', async () => {
			const { reads, records } = await inNode(
				sandbox.credentials(),
				async function (this: IExecuteFunctions) {
					const context = this as { getCredentials: IExecuteFunctions['getCredentials'] };
					const read = context.getCredentials.bind(this);
					let count = 0;
					context.getCredentials = async (...args: Parameters<typeof read>) => {
						count++;
						return await read(...args);
					};
					const walked = await drain(paginate.call(this, 'listContacts', { max: 450 }));
					return { reads: count, records: walked.length };
				},
			);
			expect(records).toBe(450);
			const requests = (await listed()).length;
			expect(requests).toBeGreaterThanOrEqual(3);
			// n8n's authenticated request helper reads it once per request itself; the walk adds one read.
			expect(reads).toBe(requests + 1);
		});

		it('sends the same filters and sort with every cursor', async () => {
			const query = { role: 'client', sort: '-updated_at', updated_since: '2000-01-01' };
			await sandbox.control.settings({ short_pages: 'always' });
			await inNode(sandbox.credentials(), async function () {
				return await drain(paginate.call(this, 'listContacts', { query, max: 450 }));
			});
			const requests = await listed();
			expect(requests.length).toBeGreaterThanOrEqual(2);
			for (const request of requests) {
				expect(request.status).toBe(200);
				expect(request.query).toMatchObject(query);
			}
		});

		it('sends a list filter as a repeated parameter (tag=a&tag=b)', async () => {
			await inNode(sandbox.credentials(), async function () {
				return await drain(
					paginate.call(this, 'listContacts', { query: { tag: ['Investor', 'VIP'] }, max: 1 }),
				);
			});
			expect((await listed())[0].query.tag).toEqual(['Investor', 'VIP']);
		});

		it('a repeated cursor raises an error instead of looping', async () => {
			const api = await startFakeApi({
				status: 200,
				body: { data: [{ id: 'a' }], next_cursor: 'same', total: 9 },
			});
			try {
				const error = await failureOf({ apiKey: 'k', baseUrl: api.baseUrl }, async function () {
					return await drain(paginate.call(this, 'listTags', {}));
				});
				expect(error.message).toMatch(/same page cursor twice/);
				// What was read and what to do now.
				expect(error.description).toEqual(expect.any(String));
				expect(api.requests).toHaveLength(2);
			} finally {
				await api.close();
			}
		});
	});

	describe("listPage (the polling trigger's one page at a time)", () => {
		it('sends its query on the first page, and the same query with the cursor on the next', async () => {
			const query = { sort: 'updated_at', limit: 2 };
			const [first, second] = await inNode(sandbox.credentials(), async function () {
				const page = await listPage.call(this, 'listContacts', { query, cursor: null });
				const next = await listPage.call(this, 'listContacts', { query, cursor: page.nextCursor });
				return [page, next];
			});
			expect(first.records).toHaveLength(2);
			expect(second.records.map((r) => r.id)).not.toContain(first.records[0].id);
			expect((await listed()).map((r) => r.query)).toEqual([
				{ sort: 'updated_at', limit: '2' },
				{ sort: 'updated_at', limit: '2', cursor: first.nextCursor },
			]);
		});

		it('a list that matches nothing has a total of 0, not an unknown total (Count answers 0)', async () => {
			const page = await inNode(sandbox.credentials(), async function () {
				return await listPage.call(this, 'listContacts', {
					query: { search: 'no contact is named this', limit: 1 },
				});
			});
			expect(page).toMatchObject({ records: [], nextCursor: null, total: 0 });
		});
	});

	describe('getByIds', () => {
		it('dedupes, batches 450 ids into 3 requests of ≤200 and keeps the order of the ids', async () => {
			const contacts = await allContacts();
			await sandbox.control.clearRequests();
			const ids = contacts
				.slice(0, 450)
				.map((c) => String(c.id))
				.reverse();
			const unknown = '00000000-0000-4000-8000-000000000000';
			const found = await inNode(sandbox.credentials(), async function () {
				return await getByIds.call(this, 'listContacts', [...ids, ...ids.slice(0, 50), unknown]);
			});
			expect([...found.keys()]).toEqual(ids);
			const requests = await listed();
			expect(requests).toHaveLength(3);
			const sent = requests.flatMap((r) => String(r.query.ids).split(','));
			expect(sent.length).toBe(451);
			expect(new Set(sent).size).toBe(451);
			expect(
				requests.every(
					(r) => String(r.query.ids).split(',').length <= 200 && r.query.limit === '200',
				),
			).toBe(true);
		});

		it.each([
			[LIMITS.idsMax, 1],
			[0, 0],
		])('%i unique ids take %i request(s): ⌈M/200⌉, never one more', async (count, calls) => {
			const ids = (await allContacts()).slice(0, count).map((c) => String(c.id));
			await sandbox.control.clearRequests();
			const found = await inNode(sandbox.credentials(), async function () {
				return await getByIds.call(this, 'listContacts', ids);
			});
			expect([...found.keys()]).toEqual(ids);
			expect(await listed()).toHaveLength(calls);
		});

		it('uses contact_ids for contact stats and keys the records by contact_id', async () => {
			const contacts = await allContacts();
			await sandbox.control.clearRequests();
			const ids = contacts.slice(0, 250).map((c) => String(c.id));
			const stats = await inNode(sandbox.credentials(), async function () {
				return await getByIds.call(this, 'listContactStats', ids, {
					query: { from: '2020-01-01' },
				});
			});
			expect([...stats.keys()]).toEqual(ids);
			const requests = await listed('/v1/contacts/stats');
			expect(requests).toHaveLength(2);
			expect(
				requests.every((r) => r.query.ids === undefined && r.query.from === '2020-01-01'),
			).toBe(true);
			expect(requests.map((r) => String(r.query.contact_ids).split(',').length)).toEqual([200, 50]);
		});
	});

	describe('pageQueries (the first-page query of each walk, built once)', () => {
		const uuid = (i: number) => `7d4c2a8e-59a1-4b7e-9d1f-${String(i).padStart(12, '0')}`;

		it('without ids: the checked filters and a full page', () => {
			expect(pageQueries(TEST_NODE, 'listContacts', { role: 'client', search: '' })).toEqual([
				{ role: 'client', limit: LIMITS.pageSizeMax },
			]);
		});

		it('with ids: repeats dropped ignoring case, runs of 200, each with the filters and a full page', () => {
			const ids = Array.from({ length: 450 }, (_, i) => uuid(i));
			const repeated = [...ids, ...ids.slice(0, 30).map((id) => id.toUpperCase())];
			const queries = pageQueries(TEST_NODE, 'listContacts', { ids: repeated, role: 'client' });
			expect(queries.map((q) => String(q.ids).split(',').length)).toEqual([200, 200, 50]);
			expect(queries.flatMap((q) => String(q.ids).split(','))).toEqual(ids);
			expect(queries.every((q) => q.role === 'client' && q.limit === LIMITS.pageSizeMax)).toBe(
				true,
			);
		});

		it('contact stats walk their contact_ids the same way', () => {
			const queries = pageQueries(TEST_NODE, 'listContactStats', {
				contact_ids: [uuid(1), uuid(1)],
				from: '2020-01-01',
			});
			expect(queries).toEqual([
				{ from: '2020-01-01', contact_ids: uuid(1), limit: LIMITS.pageSizeMax },
			]);
		});

		it('a bad id or a bad filter is refused before any walk', () => {
			expect(() => pageQueries(TEST_NODE, 'listContacts', { ids: [uuid(1), 'x'] })).toThrow(
				/"ids": "x" is not an ID/,
			);
			expect(() =>
				pageQueries(TEST_NODE, 'listContacts', { ids: [uuid(1)], role: 'Plumber' }),
			).toThrow(/"role": must be one of/);
		});
	});
}
