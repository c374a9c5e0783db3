/** Query parameters are checked against the endpoint table: unknown names, bounds, enums, types (queryValueEncoding, queryValueChecks), ids ≤ 200. */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, LIMITS, type EndpointKey, type QueryParam } from '../../nodes/shared/endpoints';
import { expectError, ids, useSandbox } from './support';

export function query(): void {
	const sandbox = useSandbox();
	const LISTS = (Object.keys(ENDPOINTS) as EndpointKey[]).filter(
		(key) => ENDPOINTS[key].method === 'GET',
	);

	async function listPath(key: EndpointKey): Promise<string> {
		if (!ENDPOINTS[key].pathParams.length) return ENDPOINTS[key].path;
		const inspection = (await sandbox.api().get('/v1/inspections?limit=1')).body.data[0];
		return ENDPOINTS[key].path.replace('{inspection_id}', inspection.id);
	}

	describe.each(LISTS)('%s', (key) => {
		it('answers 400 naming an unknown query parameter', async () => {
			expectError(await sandbox.api().get(`${await listPath(key)}?color=blue`), 400, 'color');
		});

		it('takes limit 1 to 200, default 50, and refuses others naming limit', async () => {
			const path = await listPath(key);
			for (const bad of ['0', '201', '-1', 'ten', '1.5', ''])
				expectError(await sandbox.api().get(`${path}?limit=${bad}`), 400, 'limit');
			expectError(await sandbox.api().get(`${path}?limit=5&limit=6`), 400, 'limit');
			const one = await sandbox.api().get(`${path}?limit=1`);
			expect(one.body.data.length).toBeLessThanOrEqual(1);
			const max = await sandbox.api().get(`${path}?limit=${LIMITS.pageSizeMax}`);
			expect(max.status).toBe(200);
			const byDefault = await sandbox.api().get(path);
			expect(byDefault.body.data.length).toBe(
				Math.min(LIMITS.pageSizeDefault, byDefault.body.total),
			);
		});

		it('answers with the list envelope', async () => {
			const res = await sandbox.api().get(`${await listPath(key)}?limit=2`);
			expect(res.status).toBe(200);
			expect(Object.keys(res.body).sort()).toEqual(['data', 'next_cursor', 'total']);
		});

		it('checks every enum, boolean, uuid and timestamp parameter', async () => {
			const path = await listPath(key);
			for (const param of ENDPOINTS[key].query) {
				const bad = {
					enum: 'nonsense',
					sort: 'nonsense',
					boolean: 'yes',
					uuid: 'not-a-uuid',
					timestamp: '2024-13-45',
					'id-list': 'not-a-uuid',
				}[param.type as string];
				if (bad === undefined) continue;
				expectError(await sandbox.api().get(`${path}?${param.name}=${bad}`), 400, param.name);
				expectError(await sandbox.api().get(`${path}?${param.name}=`), 400, param.name);
			}
		});
	});

	describe('ids and contact_ids', () => {
		const idLists = LISTS.flatMap((key) =>
			ENDPOINTS[key].query.filter((p) => p.type === 'id-list').map((p) => [key, p.name] as const),
		);

		it.each(idLists)('%s takes up to 200 %s, leaving unknown ones out', async (key, name) => {
			const path = ENDPOINTS[key].path;
			const idField = key === 'listContactStats' ? 'contact_id' : 'id';
			const known = (await sandbox.api().get(`${path}?limit=3`)).body.data.map(
				(r: Record<string, string>) => r[idField],
			);
			const unknown = Array.from({ length: LIMITS.idsMax - known.length }, () => randomUUID());
			const res = await sandbox
				.api()
				.get(`${path}?${name}=${[...unknown, ...known].join(',')}&limit=200`);
			expect(res.status).toBe(200);
			expect(res.body.data.map((r: Record<string, string>) => r[idField]).sort()).toEqual(
				[...known].sort(),
			);
			expect(res.body.total).toBe(known.length);
			const tooMany = [...unknown, ...known, randomUUID()].join(',');
			expectError(await sandbox.api().get(`${path}?${name}=${tooMany}`), 400, name);
		});

		it('still applies the other filters with ids', async () => {
			const clients = (await sandbox.api().get('/v1/contacts?role=client&limit=2')).body.data;
			const agents = (await sandbox.api().get('/v1/contacts?role=agent&limit=2')).body.data;
			const res = await sandbox
				.api()
				.get(`/v1/contacts?ids=${[...ids(clients), ...ids(agents)].join(',')}&role=agent`);
			expect(ids(res.body.data).sort()).toEqual(ids(agents).sort());
		});

		it('accepts upper-case ids and repeated ids', async () => {
			const contact = (await sandbox.api().get('/v1/contacts?limit=1')).body.data[0];
			const res = await sandbox
				.api()
				.get(`/v1/contacts?ids=${contact.id.toUpperCase()},${contact.id}`);
			expect(ids(res.body.data)).toEqual([contact.id]);
		});
	});

	describe('value formats', () => {
		it('takes booleans only as true and false (queryValueEncoding)', async () => {
			expect(
				(await sandbox.api().get('/v1/inspections?include_canceled=true&limit=1')).status,
			).toBe(200);
			expect(
				(await sandbox.api().get('/v1/inspections?include_canceled=false&limit=1')).status,
			).toBe(200);
			expectError(
				await sandbox.api().get('/v1/inspections?include_canceled=1'),
				400,
				'include_canceled',
			);
			expectError(
				await sandbox.api().get('/v1/inspections?include_deleted=TRUE'),
				400,
				'include_deleted',
			);
		});

		it('takes ISO 8601 dates and date-times with or without a zone', async () => {
			for (const ok of [
				'2025-01-31',
				'2025-01-31T10:00:00Z',
				'2025-01-31T10:00:00.123+02:00',
				'2025-01-31T10:00',
				'2025-01-31T10:00:00-0500',
			]) {
				expect(
					(await sandbox.api().get(`/v1/contacts?updated_since=${encodeURIComponent(ok)}&limit=1`))
						.status,
				).toBe(200);
			}
			for (const bad of [
				'yesterday',
				'2025-02-30',
				'2025-01-31T25:00:00Z',
				'31/01/2025',
				'1706700000',
			]) {
				expectError(
					await sandbox.api().get(`/v1/contacts?updated_since=${encodeURIComponent(bad)}`),
					400,
					'updated_since',
				);
			}
		});

		it('takes a repeated tag parameter as a list, but not a repeated single-valued one', async () => {
			expect((await sandbox.api().get('/v1/contacts?tag=VIP&tag=Investor&limit=1')).status).toBe(
				200,
			);
			expectError(await sandbox.api().get('/v1/contacts?role=agent&role=client'), 400, 'role');
		});

		it('takes every role filter value of the table', async () => {
			const role: QueryParam | undefined = ENDPOINTS.listContacts.query.find(
				(p) => p.name === 'role',
			);
			for (const value of role?.values ?? []) {
				expect(
					(await sandbox.api().get(`/v1/contacts?role=${encodeURIComponent(value)}&limit=1`))
						.status,
				).toBe(200);
			}
			expectError(await sandbox.api().get('/v1/contacts?role=customer'), 400, 'role');
		});
	});
}
