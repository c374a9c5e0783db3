/**
 * The trigger's pages, one request each, through the transport's listPage
 * (validation, pacing, retries, error mapping). The poll core decides before
 * every page whether its budget allows it, and a walk cut short continues next
 * poll from the cursor it stored, so the core drives the walk page by page
 * instead of using the transport's paginate loop.
 */
import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';
import { cursorGuard, listPage } from '../../shared/transport/pages';
import { WalkProgress } from '../../shared/transport/progress';
import type { ListPage, ListSource } from './types';
import type { Resource } from '../memory';

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

/**
 * The first page of a poll may take this long even when the budget is
 * shorter, so that a tiny budget still makes progress.
 */
const MIN_PAGE_MS = 1_000;

/**
 * The context the transport sees during a poll: its cancel signal fires when
 * the poll's time is up. n8n's durable scheduler abandons a poll that runs past
 * its timeout (N8N_SCHEDULER_POLL_TIMEOUT, 45 s by default) and keeps nothing
 * of it, so no wait for the rate limit (a 429's Retry-After, the pacer) and no
 * slow answer may outlast the budget n8n gives, which ends before the timeout.
 * On this signal the transport stops waiting and retrying, and n8n's HTTP
 * helper aborts the request.
 */
function endingWith(context: IPollFunctions, budgetMs: number) {
	const signal = AbortSignal.timeout(Math.max(budgetMs, MIN_PAGE_MS));
	const timed = Object.create(context) as IPollFunctions;
	Object.defineProperty(timed, 'getExecutionCancelSignal', { value: () => signal });
	return { timed, signal };
}

/**
 * `budgetMs`: a poll's time; the test run's look at the account has none. A
 * walk whose pages never end (a cursor handed out twice, pages that bring
 * nothing new, more pages than the API's total can fill) fails the poll with
 * the API's fault, as the transport's own walk does: n8n keeps nothing of a
 * failed poll, so the next poll reads the same window again and goes on by
 * itself once the API answers sanely.
 */
export function apiSource(context: IPollFunctions, budgetMs?: number): ListSource {
	const { timed, signal } =
		budgetMs === undefined ? { timed: context, signal: undefined } : endingWith(context, budgetMs);
	let issued = new Set<string>();
	let checkCursor = cursorGuard(context.getNode());
	let progress: WalkProgress | undefined;
	return {
		async fetch({ resource, query, cursor }): Promise<ListPage> {
			// A cursor this source did not hand out was kept from an earlier poll.
			const stored = cursor !== null && !issued.has(cursor);
			if (cursor === null || stored) {
				// A walk starts: its checks are per walk.
				issued = new Set();
				checkCursor = cursorGuard(context.getNode());
				progress = new WalkProgress(context.getNode(), ENDPOINT_OF[resource]);
			}
			let page: ListPage;
			try {
				page = await listPage.call(timed, ENDPOINT_OF[resource], { query, cursor });
			} catch (error) {
				// With the rest of the query as before, a 400 can only be the stored cursor refused.
				if (stored && error instanceof NodeApiError && error.httpCode === '400') {
					return { records: [], nextCursor: null, staleCursor: true };
				}
				// The poll's time is up: this page failing now is not the poll failing.
				if (signal?.aborted) return { records: [], nextCursor: null, outOfTime: true };
				throw asNodeError(context.getNode(), error);
			}
			if (page.nextCursor !== null) {
				checkCursor(page.nextCursor);
				issued.add(page.nextCursor);
			}
			progress?.judge(page);
			// Without a Date header the local clock stands in for the server's.
			return { ...page, serverTime: page.serverTime ?? Date.now() };
		},
	};
}

/**
 * The test run's look at the account: the newest page of each watched
 * resource. The event list takes no sort (eventsPath), so one full page of it
 * stands in.
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
