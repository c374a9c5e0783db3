/**
 * A hostile API's pages never hold the polling trigger: a walk whose pages
 * never end fails the poll with the API's fault after a bounded number of
 * requests, the state stays as it was, and the next poll against a sane API
 * reports what changed meanwhile, once.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { runPoll, withSandbox } from '../helpers/n8n';

export function hostilePolls(): void {
	const sandbox = withSandbox({}, { reset: true });
	const trigger = new InspectionBusinessTrigger();

	async function poll(staticData: IDataObject, baseUrl?: string) {
		const result = await runPoll({
			node: trigger,
			parameters: { events: ['inspection.created'], options: {} },
			credentials: sandbox.credentials(undefined, baseUrl ? { baseUrl } : {}),
			staticData,
		});
		return {
			error: result.error,
			items: result.items.map((item: INodeExecutionData) => item.json),
		};
	}

	it.each(['endless-pages', 'repeated-pages', 'overfull-pages'])(
		'%s: the poll fails naming the API, in a few requests, and the next sane poll loses nothing',
		async (fault) => {
			const staticData: IDataObject = {};
			expect((await poll(staticData)).items).toEqual([]);
			const kept = JSON.stringify(staticData);
			const created = await sandbox.control.createInspection({ org: 'acme' });

			await sandbox.control.clearRequests();
			const hostile = await poll(staticData, `${sandbox.baseUrl}/_hostile/${fault}`);
			expect(hostile.error?.message).toMatch(/The API's pages do not end/);
			expect(hostile.items).toEqual([]);
			const requests = (await sandbox.control.requests({ pathPrefix: '/_hostile/' })).data;
			expect(requests.length).toBeLessThanOrEqual(6);
			expect(JSON.stringify(staticData)).toBe(kept);

			const sane = await poll(staticData);
			expect(sane.items.map((item) => [item.event, (item.record as IDataObject).id])).toEqual([
				['inspection.created', created.id],
			]);
		},
	);
}
