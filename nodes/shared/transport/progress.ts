/**
 * Whether a walk over a list's pages is getting anywhere. The API ends a list
 * only with a null next_cursor (a short page does not end it), so a server that
 * keeps handing out fresh cursors, with empty pages, with records it already
 * sent, with more pages than the records it says it has, or with new records
 * and no `total` (or an absurd or growing one), would keep a Return All going
 * for as long as it liked (a real n8n was still paging after 1,915 requests).
 * A cursor handed out twice is `cursorGuard` (./pages.ts); the rest is judged
 * here, one page at a time, and each ends the walk with an error that names
 * the API's fault:
 *
 * - TRANSPORT_LIMITS.barrenPagesInARow pages in a row that bring nothing new
 *   (`bringsNothingNew`): no record, or only records this walk has read;
 * - more pages with new records than the largest `total` the API gave can
 *   fill: every such page holds at least one of those records;
 * - TRANSPORT_LIMITS.walkPages pages, whatever `total` says: the ceiling
 *   follows from the largest list a real account holds.
 *
 * A sane API never trips any: a page may be short, even empty now and then,
 * but never several in a row, `total` counts every record of the list, and a
 * list fits under the ceiling. A walk over an id list (`wanted`) is complete
 * once every wanted id has come: further pages cannot hold another.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import { idKey } from '../rules/query';
import { TRANSPORT_LIMITS } from './limits';

/** What the judgement reads of one page (a `RecordPage` of ./pages.ts is one). */
export interface WalkedPage {
	records: IDataObject[];
	nextCursor: string | null;
	/** The API's count of every record the list holds, when the answer gave one. */
	total?: number;
}

/**
 * The property that holds a record's id in this list's answers: contact stats
 * are read by contact_ids and each carries its contact's contact_id.
 */
export function idPropertyOf(endpoint: EndpointKey): string {
	const list = (ENDPOINTS[endpoint] as { list?: { idsParam?: string } }).list;
	return list?.idsParam === 'contact_ids' ? 'contact_id' : 'id';
}

/**
 * Whether a page brings nothing new to a walk: it has no record whose id
 * (`idProperty`) is not in `seen` yet. The ids it brings are added to `seen`.
 * A record without an id (a string or a number) is nothing the walk can
 * count on, so it is not new.
 */
export function bringsNothingNew(
	records: IDataObject[],
	idProperty: string,
	seen: Set<string>,
): boolean {
	let fresh = false;
	for (const record of records) {
		const id = (record as IDataObject | null)?.[idProperty];
		if (typeof id !== 'string' && typeof id !== 'number') continue;
		const key = idKey(String(id));
		if (!seen.has(key)) {
			seen.add(key);
			fresh = true;
		}
	}
	return !fresh;
}

const READ_IN_PARTS =
	'Should the account really hold more, read the list in parts with its filters (for example Updated Since, or a date range).';

/** The error that ends a walk the API would not let end; `pages` says what it cost. */
function walkFault(node: INode, endpoint: EndpointKey, fault: string, pages: number, more = '') {
	return new NodeOperationError(node, `The API's pages do not end: ${fault}`, {
		description:
			`Endpoint ${ENDPOINTS[endpoint].path}. Stopped after ${pages} pages, so the list cannot go on forever; nothing of it was output. This is a fault of the API (or of a proxy in front of it), not of the workflow: try again later, and tell the API's support if it persists. ${more}`.trim(),
	});
}

/** One walk's judgement of its pages, page by page; one per cursor loop. */
export class WalkProgress {
	private readonly seen = new Set<string>();
	private readonly idProperty: string;
	private pages = 0;
	private barrenInARow = 0;
	private pagesWithNewRecords = 0;
	private largestTotal: number | undefined;
	/** The ids an id list asks for (by `idKey`), and those of them that have come. */
	private readonly wanted: Set<string> | undefined;
	private readonly found = new Set<string>();

	constructor(
		private readonly node: INode,
		private readonly endpoint: EndpointKey,
		wanted?: string[],
	) {
		this.idProperty = idPropertyOf(endpoint);
		this.wanted = wanted === undefined ? undefined : new Set(wanted.map(idKey));
	}

	/**
	 * Judges each page as it arrives; throws when the walk would go on past what
	 * a sane API sends. True when the walk is complete, a next cursor or not:
	 * every wanted id has come.
	 */
	judge(page: WalkedPage): boolean {
		this.pages++;
		if (typeof page.total === 'number')
			this.largestTotal = Math.max(this.largestTotal ?? 0, page.total);
		this.countWanted(page.records);
		if (bringsNothingNew(page.records, this.idProperty, this.seen)) this.barrenInARow++;
		else {
			this.barrenInARow = 0;
			this.pagesWithNewRecords++;
		}
		if (page.nextCursor === null || this.complete) return true;
		this.checkProgress();
		return false;
	}

	/** Every wanted id has come (never, for a walk without an id list). */
	private get complete(): boolean {
		return this.wanted !== undefined && this.found.size >= this.wanted.size;
	}

	private countWanted(records: IDataObject[]): void {
		if (this.wanted === undefined) return;
		for (const record of records) {
			const id = (record as IDataObject | null)?.[this.idProperty];
			const key = typeof id === 'string' ? idKey(id) : undefined;
			if (key !== undefined && this.wanted.has(key)) this.found.add(key);
		}
	}

	/** Throws the API's fault when the next page would take the walk past a sane API's. */
	private checkProgress(): void {
		if (this.barrenInARow >= TRANSPORT_LIMITS.barrenPagesInARow) {
			const fault = `${this.barrenInARow} pages in a row brought no new record, each with a new cursor`;
			throw walkFault(this.node, this.endpoint, fault, this.pages);
		}
		if (this.largestTotal !== undefined && this.pagesWithNewRecords > this.largestTotal) {
			const fault = `${this.pagesWithNewRecords} pages with records, more than its total of ${this.largestTotal} records can fill, and still a next cursor`;
			throw walkFault(this.node, this.endpoint, fault, this.pages);
		}
		if (this.pages >= TRANSPORT_LIMITS.walkPages) {
			const most = (TRANSPORT_LIMITS.walkPages * LIMITS.pageSizeMax).toLocaleString('en-US');
			const fault = `${this.pages} pages and still a next cursor, more than an account's list fills (${most} records)`;
			throw walkFault(this.node, this.endpoint, fault, this.pages, READ_IN_PARTS);
		}
	}
}
