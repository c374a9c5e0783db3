/**
 * The spec's Errors table, through the node: what the node refuses itself
 * (with no request) and what it shows from the server, each with a hint and
 * never the API key (every run is checked for the key in `run`).
 */
import type { IDataObject } from 'n8n-workflow';

import { SAMPLE_FILES } from '../../sandbox/samples';
import { SANDBOX_KEYS, withSandbox } from '../helpers/n8n';
import { allPages, api, errorText, requests, run } from './support';

export function errorTable(): void {
	const sandbox = withSandbox();

	let contactId: string;
	let confirmedId: string;
	beforeAll(async () => {
		contactId = String(
			(await api<{ data: IDataObject[] }>(sandbox, '/v1/contacts', { limit: '1' })).data[0].id,
		);
		confirmedId = String(
			(await allPages(sandbox, '/v1/inspections')).records.find((i) => i.status === 'confirmed')
				?.id,
		);
	});

	test('401: an invalid key is shown with a hint about the key, and the key is not in the error', async () => {
		const result = await run(
			sandbox,
			{ resource: 'tag', operation: 'getAll', limit: 1 },
			{ key: 'revoked' },
		);
		expect(result.error?.message).toContain('401');
		expect(result.error?.description).toMatch(/API key/);
		expect(errorText(result)).not.toContain(SANDBOX_KEYS.revoked);
		expect(await requests(sandbox)).toHaveLength(1);
	});

	test('429: the node waits as told and carries on; the user sees nothing', async () => {
		await sandbox.control.queueFaults({ kind: '429', path: '/v1/tags', retry_after: 1 });
		const { items, error } = await run(sandbox, { resource: 'tag', operation: 'getAll', limit: 3 });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect((await requests(sandbox)).map((entry) => entry.status)).toEqual([429, 200]);
	});

	test('500 on a read: repeated, then answered', async () => {
		await sandbox.control.queueFaults({ kind: '500', path: '/v1/agencies' });
		const { items, error } = await run(sandbox, {
			resource: 'agency',
			operation: 'getAll',
			limit: 2,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect((await requests(sandbox)).map((entry) => entry.status)).toEqual([500, 200]);
	});

	test('a write that may have been received is not repeated: a reset report upload fails once, clearly', async () => {
		await sandbox.control.queueFaults({ kind: 'reset', method: 'POST', path: '/v1/inspections/' });
		const result = await run(
			sandbox,
			{
				resource: 'attachment',
				operation: 'upload',
				inspection_id: confirmedId,
				kind: 'report',
				name: 'Once',
			},
			{
				items: [
					{
						json: {},
						binary: {
							data: { data: SAMPLE_FILES.pdf, fileName: 'once.pdf', mimeType: 'application/pdf' },
						},
					},
				],
			},
		);
		expect(result.error).toBeDefined();
		expect(await requests(sandbox, { method: 'POST' })).toHaveLength(1);
	});

	test('400 invalid query parameter: caught locally, naming the parameter, nothing sent', async () => {
		const result = await run(sandbox, {
			resource: 'contactStats',
			operation: 'getAll',
			limit: 5,
			filters: { contact_ids: 'abc' },
		});
		expect(result.error?.message).toContain('contact_ids');
		expect(await requests(sandbox)).toHaveLength(0);
	});

	test('400 attachment content type not matching its extension: caught locally', async () => {
		const result = await run(
			sandbox,
			{ resource: 'attachment', operation: 'upload', inspection_id: confirmedId, kind: 'document' },
			{
				items: [
					{
						json: {},
						binary: { data: { data: SAMPLE_FILES.pdf, fileName: 'r.pdf', mimeType: 'text/plain' } },
					},
				],
			},
		);
		expect(result.error?.message).toMatch(/"file".*does not match/);
		expect(await requests(sandbox)).toHaveLength(0);
	});

	test('404: an unknown inspection in a path names the inspection and its ID', async () => {
		const unknown = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
		const result = await run(sandbox, {
			resource: 'attachment',
			operation: 'getAllForInspection',
			inspection_id: unknown,
			limit: 5,
		});
		expect(result.error?.message).toContain('404');
		expect(result.error?.description).toContain(`inspection "${unknown}"`);
	});

	test('errors are item-level: continue-on-fail gives each failed item its error, paired', async () => {
		const { items, error } = await run(
			sandbox,
			{ resource: 'contact', operation: 'deletePhoto', contact_id: '={{ $json.id }}' },
			{ items: [{ json: { id: 'bad' } }, { json: { id: contactId } }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0]).toMatchObject({
			json: { error: expect.stringContaining('contact_id') },
			pairedItem: { item: 0 },
		});
		expect(items[1]).toMatchObject({
			json: { id: contactId, photo_url: null },
			pairedItem: { item: 1 },
		});
	});

	test('without continue-on-fail the error carries the index of the failing item', async () => {
		const result = await run(
			sandbox,
			{ resource: 'contact', operation: 'deletePhoto', contact_id: '={{ $json.id }}' },
			{ items: [{ json: { id: contactId } }, { json: { id: 'bad' } }] },
		);
		expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);
	});
}
