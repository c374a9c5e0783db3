/** Authentication (401), organization isolation (lists and 404), and the per-owner rate limit (sharedRateBudget, sandboxRateWindow). */
import { expectError, ids, SANDBOX_KEYS, useSandbox } from './support';

export function auth(): void {
	const sandbox = useSandbox();

	describe('authentication', () => {
		it.each([
			['no key', null],
			['an unknown key', 'ib_sandbox_nope'],
			['the revoked key', SANDBOX_KEYS.revoked],
		])('answers 401 with %s', async (_label, key) => {
			const res = await fetch(`${sandbox.baseUrl}/v1/contacts`, {
				headers: key ? { Authorization: `Bearer ${key}` } : {},
			});
			expect(res.status).toBe(401);
			const body = (await res.json()) as { error: { code: string; message: string; param: null } };
			expect(body.error).toEqual({
				code: 'unauthorized',
				message: expect.any(String),
				param: null,
			});
		});

		it('answers 401 for a non-bearer scheme', async () => {
			const res = await fetch(`${sandbox.baseUrl}/v1/tags`, {
				headers: { Authorization: `Basic ${SANDBOX_KEYS.acmeOwner}` },
			});
			expect(res.status).toBe(401);
		});

		it('accepts every active key', async () => {
			for (const key of ['acmeOwner', 'acmeOwner2', 'acmeStaff', 'globex'] as const) {
				expect((await sandbox.api(key).get('/v1/tags?limit=1')).status).toBe(200);
			}
		});
	});

	describe('organization isolation', () => {
		it('lists leave out the other organization’s records, even asked for by id', async () => {
			const acme = (await sandbox.api('acmeOwner').walk('/v1/contacts')).records;
			const globex = (await sandbox.api('globex').walk('/v1/contacts')).records;
			expect(globex.length).toBeGreaterThan(0);
			const acmeIds = new Set(ids(acme));
			expect(ids(globex).some((id) => acmeIds.has(id))).toBe(false);
			const asked = await sandbox
				.api('globex')
				.get(`/v1/contacts?ids=${ids(acme).slice(0, 5).join(',')}`);
			expect(asked.body).toMatchObject({ data: [], total: 0 });
			const inspections = await sandbox.api('acmeOwner').get('/v1/inspections?limit=3');
			const crossed = await sandbox
				.api('globex')
				.get(`/v1/inspections?ids=${ids(inspections.body.data).join(',')}`);
			expect(crossed.body.total).toBe(0);
			const agencies = await sandbox.api('acmeOwner').get('/v1/agencies?limit=2');
			expect(
				(await sandbox.api('globex').get(`/v1/agencies?ids=${ids(agencies.body.data).join(',')}`))
					.body.total,
			).toBe(0);
		});

		it('both Acme owners see the same organization', async () => {
			const a = await sandbox.api('acmeOwner').get('/v1/contacts?limit=5');
			const b = await sandbox.api('acmeStaff').get('/v1/contacts?limit=5');
			expect(ids(a.body.data)).toEqual(ids(b.body.data));
		});

		it('paths to another organization’s records answer 404', async () => {
			const contact = (await sandbox.api('acmeOwner').get('/v1/contacts?limit=1')).body.data[0];
			const confirmed = (
				await sandbox.api('acmeOwner').get('/v1/inspections?limit=50')
			).body.data.find((i: { status: string }) => i.status === 'confirmed');
			const globex = sandbox.api('globex');
			expectError(
				await globex.patch(`/v1/contacts/${contact.id}`, { notes: 'x' }),
				404,
				'contact_id',
			);
			expectError(await globex.delete(`/v1/contacts/${contact.id}/photo`), 404, 'contact_id');
			expectError(
				await globex.get(`/v1/inspections/${confirmed.id}/attachments`),
				404,
				'inspection_id',
			);
			const form = new FormData();
			form.append('kind', 'report');
			form.append('name', 'Not yours');
			expectError(
				await globex.upload(`/v1/inspections/${confirmed.id}/attachments`, form),
				404,
				'inspection_id',
			);
			expect(
				(await sandbox.api('acmeOwner').get(`/v1/contacts?ids=${contact.id}`)).body.data[0].notes,
			).toBe(contact.notes);
		});

		it('unknown ids in paths answer 404 (unknownIdAnswers404)', async () => {
			const api = sandbox.api();
			expectError(
				await api.patch('/v1/contacts/00000000-0000-4000-8000-000000000000', { notes: 'x' }),
				404,
				'contact_id',
			);
			expectError(await api.patch('/v1/contacts/not-a-uuid', { notes: 'x' }), 404, 'contact_id');
			expectError(
				await api.get('/v1/inspections/00000000-0000-4000-8000-000000000000/attachments'),
				404,
				'inspection_id',
			);
		});

		it('answers 404 for a path that is no endpoint and 405 for a wrong method', async () => {
			expectError(await sandbox.api().get('/v1/nothing'), 404);
			const res = await sandbox.api().delete('/v1/tags');
			expectError(res, 405);
			expect(res.headers.get('allow')).toBe('GET');
		});
	});

	describe('rate limit', () => {
		afterEach(async () => await sandbox.control.setRateLimit(100_000));

		it('shares one budget between the keys of one owner, and answers 429 with Retry-After past it', async () => {
			await sandbox.control.setRateLimit(5);
			const owner = sandbox.api('acmeOwner');
			const second = sandbox.api('acmeOwner2');
			const statuses: number[] = [];
			for (let i = 0; i < 3; i++) statuses.push((await owner.get('/v1/tags?limit=1')).status);
			for (let i = 0; i < 2; i++) statuses.push((await second.get('/v1/tags?limit=1')).status);
			expect(statuses).toEqual([200, 200, 200, 200, 200]);
			const limited = await second.get('/v1/tags?limit=1');
			expectError(limited, 429);
			const retryAfter = Number(limited.headers.get('retry-after'));
			expect(Number.isInteger(retryAfter)).toBe(true);
			expect(retryAfter).toBeGreaterThanOrEqual(59);
			expect(retryAfter).toBeLessThanOrEqual(60);
			expect((await owner.get('/v1/tags?limit=1')).status).toBe(429);
		});

		it('gives another owner (and another organization) a budget of its own', async () => {
			await sandbox.control.setRateLimit(2);
			for (let i = 0; i < 2; i++) await sandbox.api('acmeOwner').get('/v1/tags?limit=1');
			expect((await sandbox.api('acmeOwner').get('/v1/tags?limit=1')).status).toBe(429);
			expect((await sandbox.api('acmeStaff').get('/v1/tags?limit=1')).status).toBe(200);
			expect((await sandbox.api('globex').get('/v1/tags?limit=1')).status).toBe(200);
		});

		it('counts on real time: moving the sandbox clock does not refill the budget', async () => {
			await sandbox.control.setRateLimit(1);
			expect((await sandbox.api().get('/v1/tags?limit=1')).status).toBe(200);
			await sandbox.control.advanceClock(5 * 60_000);
			expect((await sandbox.api().get('/v1/tags?limit=1')).status).toBe(429);
		});

		it('does not count requests refused with 401, nor control or signed-link requests', async () => {
			const withPhoto = (await sandbox.api().walk('/v1/contacts')).records.find((c) => c.photo_url);
			await sandbox.control.setRateLimit(1);
			expect((await fetch(withPhoto?.photo_url)).status).toBe(200);
			await sandbox.api(null).get('/v1/tags');
			await sandbox.api('revoked').get('/v1/tags');
			await sandbox.control.info();
			expect((await sandbox.api().get('/v1/tags?limit=1')).status).toBe(200);
		});
	});
}
