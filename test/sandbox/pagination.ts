/** Pagination rules (spec "Pagination", cursorBoundToSort, cursorBoundToFilters, orderOfUnsortedLists): order, tie-breaks, cursors bound to sort and filters, short pages, total. */
import { ENDPOINTS, LIMITS } from '../../nodes/shared/endpoints';
import { expectError, ids, type Json, useSandbox } from './support';

export function pagination(): void {
	const sandbox = useSandbox();

	type Value = string | number | null;
	/** Ascending with nulls last (descending flips both), ties by id; ids compare shorter-first (numeric attachment ids). */
	function expectOrder(
		records: Json[],
		value: (r: Json) => Value,
		desc = false,
		id: (r: Json) => string = (r) => r.id,
	) {
		const cmpId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
		for (let i = 1; i < records.length; i++) {
			const [a, b] = [value(records[i - 1]), value(records[i])];
			let c = a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
			if (desc) c = -c;
			if (c === 0) c = cmpId(id(records[i - 1]), id(records[i]));
			if (c >= 0)
				throw new Error(`records ${i - 1} and ${i} are out of order: ${JSON.stringify([a, b])}`);
		}
	}

	function expectComplete(
		walk: { records: Json[]; totals: number[] },
		key = (r: Json) => r.id as string,
	) {
		const keys = walk.records.map(key);
		expect(new Set(keys).size).toBe(keys.length);
		expect(keys.length).toBe(walk.totals[0]);
		expect(new Set(walk.totals).size).toBe(1);
	}

	describe('order and completeness', () => {
		const sorts = (key: 'listContacts' | 'listInspections') =>
			ENDPOINTS[key].list.sortFields.flatMap((f) => [f, `-${f}`]);

		it.each(sorts('listContacts'))(
			'contacts sorted by %s: every record once, ties by id',
			async (sort) => {
				const walk = await sandbox.api().walk(`/v1/contacts?sort=${sort}`, 60);
				expectComplete(walk);
				expectOrder(walk.records, (r) => r[sort.replace('-', '')], sort.startsWith('-'));
			},
		);

		it.each(sorts('listInspections'))(
			'inspections sorted by %s: every record once, ties by id (inspectionSortFields)',
			async (sort) => {
				const walk = await sandbox
					.api()
					.walk(`/v1/inspections?sort=${sort}&include_canceled=true`, 200);
				expectComplete(walk);
				expectOrder(walk.records, (r) => r[sort.replace('-', '')], sort.startsWith('-'));
			},
		);

		it.each(['/v1/contacts', '/v1/inspections', '/v1/tags', '/v1/agencies', '/v1/events'])(
			'%s defaults to id order (cursorBoundToSort, orderOfUnsortedLists)',
			async (path) => {
				const walk = await sandbox.api().walk(path, 37);
				expectComplete(walk);
				expectOrder(walk.records, () => null);
			},
		);

		it('contact stats are ordered by contact id', async () => {
			const walk = await sandbox.api().walk('/v1/contacts/stats', 111);
			expectComplete(walk, (r) => r.contact_id);
			expectOrder(
				walk.records,
				() => null,
				false,
				(r) => r.contact_id,
			);
		});

		it('the account-wide attachment list is newest change first, then inspection id and id (orderOfUnsortedLists)', async () => {
			const walk = await sandbox.api().walk('/v1/attachments', 45);
			expectComplete(walk, (r) => `${r.inspection_id}/${r.id}`);
			const key = (r: Json) => `${r.updated_at}|${r.inspection_id}`;
			for (let i = 1; i < walk.records.length; i++) {
				const [a, b] = [walk.records[i - 1], walk.records[i]];
				expect(a.updated_at >= b.updated_at).toBe(true);
				if (a.updated_at === b.updated_at) expect(a.inspection_id <= b.inspection_id).toBe(true);
				if (key(a) === key(b)) expect(Number(a.id)).toBeLessThan(Number(b.id));
			}
		});

		it('limit=1 gives the count in total', async () => {
			const all = await sandbox.api().walk('/v1/contacts?role=agent');
			const one = await sandbox.api().get('/v1/contacts?role=agent&limit=1');
			expect(one.body.data).toHaveLength(1);
			expect(one.body.total).toBe(all.records.length);
		});
	});

	describe('cursors', () => {
		it('a cursor used with another sort answers 400 naming cursor (cursorBoundToSort)', async () => {
			const first = await sandbox.api().get('/v1/contacts?sort=first_name&limit=10');
			const cursor = encodeURIComponent(first.body.next_cursor);
			expectError(
				await sandbox.api().get(`/v1/contacts?sort=last_name&limit=10&cursor=${cursor}`),
				400,
				'cursor',
			);
			expectError(
				await sandbox.api().get(`/v1/contacts?sort=-first_name&limit=10&cursor=${cursor}`),
				400,
				'cursor',
			);
			expectError(await sandbox.api().get(`/v1/contacts?limit=10&cursor=${cursor}`), 400, 'cursor');
			expect(
				(await sandbox.api().get(`/v1/contacts?sort=first_name&limit=10&cursor=${cursor}`)).status,
			).toBe(200);
		});

		it('a cursor used with other filters answers 400 naming cursor (cursorBoundToFilters)', async () => {
			const first = await sandbox.api().get('/v1/contacts?role=agent&limit=10');
			const cursor = encodeURIComponent(first.body.next_cursor);
			expectError(
				await sandbox.api().get(`/v1/contacts?role=client&limit=10&cursor=${cursor}`),
				400,
				'cursor',
			);
			expectError(await sandbox.api().get(`/v1/contacts?limit=10&cursor=${cursor}`), 400, 'cursor');
			expect(
				(await sandbox.api().get(`/v1/contacts?role=agent&limit=25&cursor=${cursor}`)).status,
			).toBe(200);
		});

		it('a cursor of another list, another organization or no cursor at all answers 400 naming cursor', async () => {
			const tags = await sandbox.api().get('/v1/tags?limit=5');
			const cursor = encodeURIComponent(tags.body.next_cursor);
			expectError(await sandbox.api().get(`/v1/agencies?limit=5&cursor=${cursor}`), 400, 'cursor');
			expectError(
				await sandbox.api('globex').get(`/v1/tags?limit=5&cursor=${cursor}`),
				400,
				'cursor',
			);
			expectError(await sandbox.api().get('/v1/tags?cursor=garbage'), 400, 'cursor');
			expectError(
				await sandbox.api().get(`/v1/tags?cursor=${Buffer.from('{"s":""}').toString('base64url')}`),
				400,
				'cursor',
			);
		});

		it('pages neither skip nor repeat records when records change between pages', async () => {
			const api = sandbox.api();
			const first = await api.get('/v1/contacts?sort=updated_at&limit=100');
			const moved = first.body.data[3];
			await api.patch(`/v1/contacts/${moved.id}`, { notes: `moved ${Date.now()}` });
			const rest = await api.walk('/v1/contacts?sort=updated_at', 100, first.body.next_cursor);
			const seen = [...ids(first.body.data), ...ids(rest.records)];
			const all = ids((await api.walk('/v1/contacts')).records);
			expect(seen.filter((id) => id === moved.id)).toHaveLength(2); // once before, once at its new place
			expect(new Set(seen).size).toBe(all.length);
		});
	});

	describe('short pages', () => {
		afterEach(async () => await sandbox.control.settings({ short_pages: 'tail' }));

		it('by default a Return All walk takes exactly ⌈N/200⌉ pages, one of them short while more follow', async () => {
			const walk = await sandbox.api().walk('/v1/contacts', LIMITS.pageSizeMax);
			const total = walk.totals[0];
			expect(walk.sizes).toHaveLength(Math.ceil(total / LIMITS.pageSizeMax));
			expect(total % LIMITS.pageSizeMax).not.toBe(0);
			expect(walk.sizes.slice(0, -1).some((size) => size < LIMITS.pageSizeMax)).toBe(true);
			expect(walk.sizes.at(-1)).toBe(LIMITS.pageSizeMax);
			expectComplete(walk);
		});

		it('short_pages=always makes every page but the last shorter than limit', async () => {
			await sandbox.control.settings({ short_pages: 'always' });
			const walk = await sandbox.api().walk('/v1/tags', 10);
			expect(walk.sizes.slice(0, -1).every((size) => size > 0 && size < 10)).toBe(true);
			expectComplete(walk);
		});

		it('short_pages=off fills every page', async () => {
			await sandbox.control.settings({ short_pages: 'off' });
			const walk = await sandbox.api().walk('/v1/contacts', LIMITS.pageSizeMax);
			expect(walk.sizes.slice(0, -1).every((size) => size === LIMITS.pageSizeMax)).toBe(true);
			expectComplete(walk);
		});

		it('the last page has a null next_cursor, even when it is empty of more', async () => {
			const res = await sandbox.api().get('/v1/tags?limit=200');
			expect(res.body.next_cursor).toBeNull();
			expect(res.body.data).toHaveLength(res.body.total);
		});
	});
}
