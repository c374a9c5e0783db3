/**
 * An API whose pages never end: every walk over pages (Get Many's Return All, Create or Update's
 * walk of contacts, Get by IDs as the webhook's Re-Fetch uses it) stops with an error that names
 * the API's fault, in a bounded number of requests, counted in the sandbox's log. The sandbox's
 * hostile Base URLs serve each fault: `/_hostile/endless-pages` (empty pages, fresh cursors),
 * `/_hostile/repeated-pages` (the same records on every page), `/_hostile/overfull-pages` (one
 * new record a page, while `total` says 2). A sane API's short and even empty pages still walk
 * to the end, and so do pages whose `total` is not a count or whose ids are numbers; records
 * without an id bring nothing new. An answer that is not a page (no data list, a cursor that is
 * not text) fails the walk naming the endpoint. `/_hostile/fresh-pages` (one new record a page,
 * `total` missing, 10^12 or growing) ends at the page ceiling, shrunk here to 12 pages
 * (`withLimits`). Get by IDs stops once every id it asked for has come.
 */
import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';
import { getByIds, readAll } from '../../nodes/shared/transport/pages';
import { TRANSPORT_LIMITS } from '../../nodes/shared/transport/limits';
import { WalkProgress } from '../../nodes/shared/transport/progress';
import { withLimits } from '../helpers/limits';
import { runNode, withExecuteContext, withSandbox } from '../helpers/n8n';
import { failureOf, inNode, TEST_NODE } from './context';
import { startFakeApi } from './fake-api';

export function hostilePages(): void {
	const sandbox = withSandbox();
	const hostile = (fault: string) =>
		sandbox.credentials('acmeOwner', { baseUrl: `${sandbox.baseUrl}/_hostile/${fault}` });
	const requestsTo = async (fault: string) =>
		(await sandbox.control.requests({ pathPrefix: `/_hostile/${fault}/` })).count;

	const BARREN = TRANSPORT_LIMITS.barrenPagesInARow;
	const CEILING = 12;
	withLimits({ walkPages: CEILING });
	/** An id the hostile pages never hand out: a Get by IDs of it cannot end by finding it. */
	const NEVER_LISTED = '00000000-0000-4000-8000-0000000000ff';

	describe.each([
		[
			'endless-pages',
			`${BARREN} pages in a row brought no new record, each with a new cursor`,
			BARREN,
		],
		[
			'repeated-pages',
			`${BARREN} pages in a row brought no new record, each with a new cursor`,
			BARREN + 1,
		],
		[
			'overfull-pages',
			'3 pages with records, more than its total of 2 records can fill, and still a next cursor',
			3,
		],
	])('%s', (fault, says, requests) => {
		it(`Return All stops after ${requests} requests, naming the API's fault`, async () => {
			const error = await failureOf(hostile(fault), async function () {
				return await readAll.call(this, 'listContacts');
			});
			expect(error.message).toBe(`The API's pages do not end: ${says}`);
			expect(error.description).toMatch(/fault of the API/);
			expect(await requestsTo(fault)).toBe(requests);
		});

		it("Get by IDs (the webhook trigger's Re-Fetch) stops the same way", async () => {
			const error = await failureOf(hostile(fault), async function () {
				return await getByIds.call(this, 'listInspections', [NEVER_LISTED]);
			});
			expect(error.message).toBe(`The API's pages do not end: ${says}`);
			expect(await requestsTo(fault)).toBe(requests);
		});
	});

	describe.each(['none', 'huge', 'growing'])(
		'fresh-pages/%s: one new record a page, total missing, absurd or growing',
		(total) => {
			const ceiling = `${CEILING} pages and still a next cursor, more than an account's list fills (${(CEILING * 200).toLocaleString('en-US')} records)`;

			it(`Return All stops at the page ceiling, ${CEILING} requests`, async () => {
				const error = await failureOf(hostile(`fresh-pages/${total}`), async function () {
					return await readAll.call(this, 'listContacts');
				});
				expect(error.message).toBe(`The API's pages do not end: ${ceiling}`);
				expect(error.description).toMatch(/read the list in parts/);
				expect(await requestsTo('fresh-pages')).toBe(CEILING);
			});

			it('Get by IDs of an id never listed stops there too', async () => {
				const error = await failureOf(hostile(`fresh-pages/${total}`), async function () {
					return await getByIds.call(this, 'listContacts', [NEVER_LISTED]);
				});
				expect(error.message).toBe(`The API's pages do not end: ${ceiling}`);
				expect(await requestsTo('fresh-pages')).toBe(CEILING);
			});
		},
	);

	it('Get by IDs stops paging once every id it asked for has come, whatever the next cursor', async () => {
		// repeated-pages hands out these records on every page, each with a new cursor.
		const ids = ['00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001'];
		const found = await inNode(hostile('repeated-pages'), async function () {
			return await getByIds.call(this, 'listContacts', ids);
		});
		expect([...found.keys()]).toEqual(ids);
		expect(await requestsTo('repeated-pages')).toBe(1);
	});

	it('Contact → Get Many (Return All) in the node fails its item with the fault, in bounded requests', async () => {
		const { items, error } = await runNode({
			node: new InspectionBusiness(),
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
			credentials: hostile('endless-pages'),
			items: [{ json: {} }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe(
			`The API's pages do not end: ${BARREN} pages in a row brought no new record, each with a new cursor`,
		);
		expect(await requestsTo('endless-pages')).toBe(BARREN);
	});

	it('Create or Update (its walk of every contact for several emails) stops the same way', async () => {
		const { items } = await runNode({
			node: new InspectionBusiness(),
			parameters: {
				resource: 'contact',
				operation: 'upsert',
				email: '={{ $json.email }}',
				first_name: 'Ada',
			},
			credentials: hostile('repeated-pages'),
			items: ['a@example.com', 'b@example.com', 'c@example.com'].map((email) => ({
				json: { email },
			})),
			continueOnFail: true,
		});
		expect(items.map((item) => item.json.error)).toEqual(
			Array(3).fill(
				`The API's pages do not end: ${BARREN} pages in a row brought no new record, each with a new cursor`,
			),
		);
		// One count of the contacts (limit=1) chose the walk; then the walk's pages.
		expect(await requestsTo('repeated-pages')).toBe(1 + BARREN + 1);
	});

	it('a sane API: short and empty pages now and then, fewer in a row than the limit, walk to the end', async () => {
		const contact = (n: number) => ({
			id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		});
		const empty = (cursor: string) => ({
			status: 200,
			body: { data: [], next_cursor: cursor, total: 3 },
		});
		const api = await startFakeApi();
		api.answer(
			...Array.from({ length: BARREN - 1 }, (_, i) => empty(`a${i}`)),
			{ status: 200, body: { data: [contact(1)], next_cursor: 'b', total: 3 } },
			...Array.from({ length: BARREN - 1 }, (_, i) => empty(`c${i}`)),
			{ status: 200, body: { data: [contact(2), contact(3)], next_cursor: null, total: 3 } },
		);
		try {
			const records = await inNode(
				sandbox.credentials('acmeOwner', { baseUrl: api.baseUrl }),
				async function () {
					return await readAll.call(this, 'listContacts');
				},
			);
			expect(records.map((r) => r.id)).toEqual([contact(1).id, contact(2).id, contact(3).id]);
			expect(api.requests).toHaveLength(2 * BARREN);
		} finally {
			await api.close();
		}
	});

	/** Reads every contact from a fake API that answers these pages in turn. */
	async function walkOf(
		pages: Array<{ data: unknown[]; next_cursor: string | null; total?: unknown }>,
	) {
		const api = await startFakeApi();
		api.answer(...pages.map((body) => ({ status: 200, body })));
		const credentials = sandbox.credentials('acmeOwner', { baseUrl: api.baseUrl });
		try {
			const { value, error } = await withExecuteContext(
				async function () {
					return await readAll.call(this, 'listContacts');
				},
				{ credentials },
			);
			return { records: value, error, requests: api.requests.length };
		} finally {
			await api.close();
		}
	}

	it.each([-1, 1.5, '3'])(
		'a total that is not a count (%j) is not held against the pages: a sane walk reads every record',
		async (total) => {
			const walk = await walkOf([
				{ data: [{ id: 'a' }], next_cursor: 'b', total },
				{ data: [{ id: 'b' }], next_cursor: 'c', total },
				{ data: [{ id: 'c' }], next_cursor: null, total },
			]);
			expect(walk.error).toBeUndefined();
			expect(walk.records).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
		},
	);

	it(`numeric ids count as new records: ${BARREN + 1} pages of one new record each walk to the end`, async () => {
		const pages = Array.from({ length: BARREN + 1 }, (_, i) => ({
			data: [{ id: i + 1 }],
			next_cursor: i === BARREN ? null : `c${i}`,
		}));
		const walk = await walkOf(pages);
		expect(walk.error).toBeUndefined();
		expect(walk.records).toEqual(pages.map((page) => page.data[0]));
	});

	// The trigger's walk (apiSource) judges every page, the last one too; a last page is never a fault.
	it.each([
		[`the ${BARREN}th empty page in a row`, Array.from({ length: BARREN }, () => [])],
		['a second page of new records while total says 1', [[{ id: 'a' }], [{ id: 'b' }]]],
	])('a last page (no next cursor) ends the walk without a fault: %s', (_case, pages) => {
		const progress = new WalkProgress(TEST_NODE, 'listContacts');
		const last = pages.length - 1;
		pages
			.slice(0, last)
			.forEach((records, i) => progress.judge({ records, nextCursor: `c${i}`, total: 1 }));
		expect(() =>
			progress.judge({ records: pages[last], nextCursor: null, total: 1 }),
		).not.toThrow();
	});

	it(`records without an id are nothing new: ${BARREN} such pages end the walk with the API's fault`, async () => {
		const walk = await walkOf(
			Array.from({ length: BARREN + 2 }, (_, i) => ({
				data: [{ name: `no id ${i}` }],
				next_cursor: `c${i}`,
			})),
		);
		expect(walk.error?.description).toContain('/v1/contacts');
		expect(walk.requests).toBe(BARREN);
	});

	describe('an answer that is not a page fails the walk, and nothing is read as an empty list', () => {
		const contact = { id: '00000000-0000-4000-8000-000000000001' };
		it.each([
			['no data', { next_cursor: null }],
			['data that is not a list', { data: { 0: contact }, next_cursor: null }],
			['a next cursor that is a number', { data: [contact], next_cursor: 2 }],
			['a next cursor that is an object', { data: [contact], next_cursor: { after: 'x' } }],
			['no answer at all', null],
		])('%s', async (_name, body) => {
			const api = await startFakeApi();
			api.answer({ status: 200, body });
			try {
				const error = await failureOf(
					sandbox.credentials('acmeOwner', { baseUrl: api.baseUrl }),
					async function () {
						return await readAll.call(this, 'listContacts');
					},
				);
				expect(error.message).toMatch(/\S/);
				expect(error.description).toContain('/v1/contacts');
				expect(api.requests).toHaveLength(1);
			} finally {
				await api.close();
			}
		});

		it('a page without a next cursor is the last', async () => {
			const api = await startFakeApi();
			api.answer({ status: 200, body: { data: [contact] } });
			try {
				const records = await inNode(
					sandbox.credentials('acmeOwner', { baseUrl: api.baseUrl }),
					async function () {
						return await readAll.call(this, 'listContacts');
					},
				);
				expect(records).toEqual([contact]);
			} finally {
				await api.close();
			}
		});
	});
}
