/**
 * The trigger's pages, one request each, through the transport's apiRequest
 * (validation, pacing, retries, error mapping). The poll core decides before
 * every page whether its budget allows it, and an attachments walk cut short
 * continues next poll from the cursor it stored; the transport's paginate can
 * neither stop on such a decision nor start from a stored cursor.
 */
import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { EndpointKey } from '../shared/endpoints';
import { apiRequest } from '../shared/transport';
import type { Resource } from './core/events';
import type { ListPage, ListSource } from './core/poll';

const ENDPOINT_OF: Record<Resource, EndpointKey> = {
	contacts: 'listContacts',
	inspections: 'listInspections',
	attachments: 'listAttachments',
};

/** The transport throws n8n errors already; anything else (a bug) still reaches the user as one. */
const asNodeError = (node: INode, error: unknown) =>
	error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(node, error instanceof Error ? error : String(error));

export function apiSource(context: IPollFunctions): ListSource {
	const issued = new Set<string>();
	return {
		async fetch({ resource, query, cursor }): Promise<ListPage> {
			// A cursor this source did not hand out was kept from an earlier poll.
			const stored = cursor !== null && !issued.has(cursor);
			if (cursor === null || stored) issued.clear(); // a walk starts: the repeat check is per walk
			let answer: IDataObject;
			try {
				answer = (await apiRequest.call(context, ENDPOINT_OF[resource], {
					query: cursor === null ? query : { ...query, cursor },
				})) as IDataObject;
			} catch (error) {
				// With the rest of the query as before, a 400 can only be the stored cursor refused.
				if (stored && error instanceof NodeApiError && error.httpCode === '400') {
					return { records: [], nextCursor: null, staleCursor: true };
				}
				throw asNodeError(context.getNode(), error);
			}
			if (!Array.isArray(answer.data)) {
				throw new NodeOperationError(context.getNode(), 'The API answered a list request without a data array');
			}
			const next = typeof answer.next_cursor === 'string' ? answer.next_cursor : null;
			if (next !== null && issued.has(next)) {
				throw new NodeOperationError(context.getNode(), 'The API returned the same page cursor twice', {
					description: 'The poll stopped to avoid an endless loop; its state is unchanged and the next poll tries again.',
				});
			}
			if (next !== null) issued.add(next);
			return { records: answer.data as IDataObject[], nextCursor: next };
		},
	};
}

/** The test run's look at the account: the newest page of each watched resource. */
export async function newestRecords(
	source: ListSource,
	resources: Resource[],
): Promise<Array<{ resource: Resource; records: IDataObject[] }>> {
	const pages = [];
	for (const resource of resources) {
		const query: IDataObject = { limit: 20 };
		if (resource !== 'attachments') query.sort = '-updated_at'; // the attachments list is newest first already
		if (resource === 'inspections') Object.assign(query, { include_deleted: true, include_canceled: true });
		const page = await source.fetch({ resource, query, cursor: null });
		pages.push({ resource, records: page.records });
	}
	return pages;
}
