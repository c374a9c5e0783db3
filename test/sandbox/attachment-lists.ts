/** Attachment lists: per inspection (kind, visible_to_client, deletedInspectionGone) and account-wide (orderOfUnsortedLists, attachmentListsPaginate), ids repeated across inspections. */
import { SAMPLE_FILES } from '../../sandbox/samples';
import { expectError, fields, file, ids, type Json, useSandbox } from './support';

export function attachmentLists(): void {
	const sandbox = useSandbox();
	const api = () => sandbox.api();
	let inspections: Json[] = [];
	let confirmed: Json;

	beforeAll(async () => {
		inspections = (await api().walk('/v1/inspections?include_canceled=true')).records;
		confirmed = inspections.find((i) => i.status === 'confirmed') as Json;
	});
	const path = (i: Json) => `/v1/inspections/${i.id}/attachments`;
	const pdf = (
		name = 'Report.pdf',
		extra: Record<string, string> = { kind: 'report', name: 'Radon' },
	) => file(SAMPLE_FILES.pdf, name, 'application/pdf', extra);

	describe('per-inspection list', () => {
		it('lists an inspection’s attachments by id, filtered by kind and visible_to_client', async () => {
			const info = await sandbox.control.info();
			const withBoth = await (async () => {
				for (const i of inspections) {
					const list = (await api().get(`${path(i)}?limit=200`)).body.data as Json[];
					if (list.some((a) => a.kind === 'report') && list.some((a) => !a.visible_to_client))
						return { i, list };
				}
				throw new Error(`no inspection with both kinds among ${info.orgs.acme.inspections}`);
			})();
			const { i, list } = withBoth;
			expect(list.every((a) => a.inspection_id === i.id)).toBe(true);
			expect(ids(list)).toEqual([...ids(list)].sort((a, b) => Number(a) - Number(b)));
			expect(ids((await api().get(`${path(i)}?kind=report`)).body.data)).toEqual(
				ids(list.filter((a) => a.kind === 'report')),
			);
			expect(ids((await api().get(`${path(i)}?kind=document`)).body.data)).toEqual(
				ids(list.filter((a) => a.kind === 'document')),
			);
			const hidden = (await api().get(`${path(i)}?visible_to_client=false`)).body.data as Json[];
			expect(hidden.length).toBeGreaterThan(0);
			expect(hidden.every((a) => a.kind === 'document' && a.visible_to_client === false)).toBe(
				true,
			);
			expect(ids((await api().get(`${path(i)}?visible_to_client=true`)).body.data)).toEqual(
				ids(list.filter((a) => a.visible_to_client)),
			);
		});

		it('answers 404 for a deleted inspection (deletedInspectionGone)', async () => {
			const [deleted] = (await sandbox.control.info()).orgs.acme.deleted_inspection_ids;
			expectError(await api().get(`/v1/inspections/${deleted}/attachments`), 404, 'inspection_id');
			expectError(
				await api().upload(`/v1/inspections/${deleted}/attachments`, fields({ kind: 'document' })),
				404,
				'inspection_id',
			);
		});

		it('repeats attachment ids across inspections: an attachment is identified by inspection_id plus id', async () => {
			const all = (await api().walk('/v1/attachments')).records;
			const byId = new Map<string, Set<string>>();
			for (const a of all) byId.set(a.id, (byId.get(a.id) ?? new Set()).add(a.inspection_id));
			expect(byId.get('1')?.size).toBeGreaterThan(10);
			expect(new Set(all.map((a) => `${a.inspection_id}/${a.id}`)).size).toBe(all.length);
		});
	});

	describe('account-wide list', () => {
		it('leaves out attachments of deleted and sample inspections', async () => {
			const info = (await sandbox.control.info()).orgs.acme;
			const all = (await api().walk('/v1/attachments')).records;
			const excluded = new Set([...info.sample_inspection_ids, ...info.deleted_inspection_ids]);
			expect(all.some((a) => excluded.has(a.inspection_id))).toBe(false);
			const sample = info.sample_inspection_ids[0];
			expect((await api().get(`/v1/inspections/${sample}/attachments`)).body.total).toBeGreaterThan(
				0,
			);
			expect((await api().get(`/v1/attachments?inspection_id=${sample}`)).body.total).toBe(0);
			expect(all.length).toBeGreaterThan(300);
		});

		it('filters by kind, visible_to_client, inspection_id and updated_since (inclusive)', async () => {
			const all = (await api().walk('/v1/attachments')).records;
			const key = (a: Json) => `${a.inspection_id}/${a.id}`;
			const check = async (query: string, keep: (a: Json) => boolean) =>
				expect((await api().walk(`/v1/attachments?${query}`)).records.map(key)).toEqual(
					all.filter(keep).map(key),
				);
			await check('kind=report', (a) => a.kind === 'report');
			await check('kind=document', (a) => a.kind === 'document');
			await check('visible_to_client=false', (a) => !a.visible_to_client);
			await check(
				`inspection_id=${all[5].inspection_id}`,
				(a) => a.inspection_id === all[5].inspection_id,
			);
			await check(
				`updated_since=${encodeURIComponent(all[40].updated_at)}`,
				(a) => a.updated_at >= all[40].updated_at,
			);
		});

		it('puts a new upload first', async () => {
			await sandbox.control.advanceClock(1000);
			const made = (await api().upload(path(confirmed), pdf())).body;
			expect((await api().get('/v1/attachments?limit=1')).body.data[0]).toEqual({
				...made,
				url: expect.any(String),
			});
		});
	});
}
