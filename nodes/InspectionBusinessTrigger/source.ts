/**
 * The trigger's pages, one request each, through the transport's listPage
 * (validation, pacing, retries, error mapping). The poll core decides before
 * every page whether its budget allows it, and a walk cut short continues next
 * poll from the cursor it stored, so the core drives the walk page by page
 * instead of using the transport's paginate loop.
 */
import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { EndpointKey } from '../shared/endpoints';
import { cursorGuard, listPage } from '../shared/transport';
import type { Resource } from './core/events';
import type { ListPage, ListSource } from './core/types';

const ENDPOINT_OF: Record<Resource, EndpointKey> = {
	contacts: 'listContacts',
	inspections: 'listInspections',
	events: 'listEvents',
	attachments: 'listAttachments',
};

/** The transport throws n8n errors already; anything else (a bug) still reaches the user as one. */
const asNodeError = (node: INode, error: unknown) =>
	error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(node, error instanceof Error ? error : String(error));

export function apiSource(context: IPollFunctions): ListSource {
	let issued = new Set<string>();
	let checkCursor = cursorGuard(context.getNode());
	return {
		async fetch({ resource, query, cursor }): Promise<ListPage> {
			// A cursor this source did not hand out was kept from an earlier poll.
			const stored = cursor !== null && !issued.has(cursor);
			if (cursor === null || stored) {
				// A walk starts: the repeated-cursor check is per walk.
				issued = new Set();
				checkCursor = cursorGuard(context.getNode());
			}
			let page: ListPage;
			try {
				page = await listPage.call(context, ENDPOINT_OF[resource], { query, cursor });
			} catch (error) {
				// With the rest of the query as before, a 400 can only be the stored cursor refused.
				if (stored && error instanceof NodeApiError && error.httpCode === '400') {
					return { records: [], nextCursor: null, staleCursor: true };
				}
				throw asNodeError(context.getNode(), error);
			}
			if (page.nextCursor !== null) {
				checkCursor(page.nextCursor);
				issued.add(page.nextCursor);
			}
			// Without a Date header the local clock stands in for the server's.
			return { ...page, serverTime: page.serverTime ?? Date.now() };
		},
	};
}

/**
 * The test run's look at the account: the newest page of each watched
 * resource. Inspection events cannot be sorted (A9): one full page stands in.
 */
export async function newestRecords(
	source: ListSource,
	resources: Resource[],
): Promise<Array<{ resource: Resource; records: IDataObject[] }>> {
	const pages = [];
	for (const resource of resources) {
		const query: IDataObject = { limit: resource === 'events' ? 200 : 20 };
		// The attachments list is newest first already.
		if (resource === 'contacts' || resource === 'inspections') query.sort = '-updated_at';
		if (resource === 'inspections')
			Object.assign(query, { include_deleted: true, include_canceled: true });
		const page = await source.fetch({ resource, query, cursor: null });
		pages.push({ resource, records: page.records });
	}
	return pages;
}
