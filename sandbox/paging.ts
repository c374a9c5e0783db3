import { createHash } from 'node:crypto';
import type { OrgId } from './keys';
import { badRequest } from './http';
import type { ParsedQuery } from './query';
import { filtersOf } from './query';
import type { Store } from './store';

export type SortValue = string | number | null;
/** How one part of a sort key compares: `id` parts order shorter ids first (numeric attachment ids). */
export interface KeyPart {
	desc?: boolean;
	id?: boolean;
}

/**
 * How pages may come back shorter than `limit` while more follow (spec rule 3):
 * `tail` (default) shortens the page before the last by the remainder, so a walk
 * still takes the fewest pages, ⌈N/limit⌉; `always` halves every page that has a
 * successor; `off` always fills pages.
 */
export const SHORT_PAGE_MODES = ['tail', 'always', 'off'] as const;
export type ShortPageMode = (typeof SHORT_PAGE_MODES)[number];

export interface ListSpec<T> {
	endpoint: string;
	org: OrgId;
	query: ParsedQuery;
	/** The matching records, in any order. */
	build: () => T[];
	/** The full sort key, ending with the tie-breaking id part(s). */
	key: (rec: T) => SortValue[];
	parts: readonly KeyPart[];
}

export interface Page<T> {
	data: T[];
	next_cursor: string | null;
	total: number;
}

function compareValue(a: SortValue, b: SortValue, part: KeyPart): number {
	let c: number;
	if (a === b) c = 0;
	else if (a === null)
		c = 1; // nulls last ascending, first descending
	else if (b === null) c = -1;
	else if (part.id && typeof a === 'string' && typeof b === 'string' && a.length !== b.length)
		c = a.length - b.length;
	else c = a < b ? -1 : 1;
	return part.desc ? -c : c;
}

function compareKeys(a: SortValue[], b: SortValue[], parts: readonly KeyPart[]): number {
	for (let i = 0; i < parts.length; i++) {
		const c = compareValue(a[i], b[i], parts[i]);
		if (c !== 0) return c;
	}
	return 0;
}

interface SortedView<T> {
	records: T[];
	keys: SortValue[][];
}

interface CursorBody {
	s: string;
	b: string;
	k: SortValue[];
}

const encodeCursor = (body: CursorBody) => Buffer.from(JSON.stringify(body)).toString('base64url');

function decodeCursor(text: string, parts: readonly KeyPart[]): CursorBody {
	try {
		const body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorBody;
		const validKey =
			Array.isArray(body.k) &&
			body.k.length === parts.length &&
			body.k.every((v) => v === null || typeof v === 'string' || typeof v === 'number');
		if (typeof body.s === 'string' && typeof body.b === 'string' && validKey) return body;
	} catch {
		// fall through to the 400 below
	}
	throw badRequest('cursor', 'cursor is not a cursor this list issued', 'invalid_cursor');
}

function pageSize(mode: ShortPageMode, limit: number, remaining: number): number {
	if (remaining <= limit) return remaining;
	if (mode === 'always') return Math.ceil(limit / 2);
	if (mode === 'tail' && remaining < 2 * limit) return remaining - limit;
	return limit;
}

/** One page of a list: sorted view cached per store version, keyset cursor bound to sort and filters (cursorBoundToSort, cursorBoundToFilters). */
export function servePage<T>(store: Store, mode: ShortPageMode, spec: ListSpec<T>): Page<T> {
	const filters = filtersOf(spec.query);
	const sort = typeof spec.query.sort === 'string' ? spec.query.sort : '';
	const binding = createHash('sha1')
		.update(JSON.stringify([spec.endpoint, spec.org, filters]))
		.digest('base64url')
		.slice(0, 16);
	const view = store.derive(`list:${binding}`, (): SortedView<T> => {
		const decorated = spec.build().map((rec) => ({ rec, key: spec.key(rec) }));
		decorated.sort((a, b) => compareKeys(a.key, b.key, spec.parts));
		return { records: decorated.map((d) => d.rec), keys: decorated.map((d) => d.key) };
	});
	let start = 0;
	if (typeof spec.query.cursor === 'string') {
		const cursor = decodeCursor(spec.query.cursor, spec.parts);
		if (cursor.s !== sort) {
			throw badRequest(
				'cursor',
				`cursor was made with sort "${cursor.s || 'id'}", not "${sort || 'id'}"`,
				'cursor_mismatch',
			);
		}
		if (cursor.b !== binding) {
			throw badRequest(
				'cursor',
				'cursor was made with other filters; send the same filters as the first page',
				'cursor_mismatch',
			);
		}
		let lo = 0;
		let hi = view.keys.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (compareKeys(view.keys[mid], cursor.k, spec.parts) <= 0) lo = mid + 1;
			else hi = mid;
		}
		start = lo;
	}
	const limit = Number(spec.query.limit);
	const count = pageSize(mode, limit, view.records.length - start);
	const end = start + count;
	const more = end < view.records.length;
	return {
		data: view.records.slice(start, end),
		next_cursor: more ? encodeCursor({ s: sort, b: binding, k: view.keys[end - 1] }) : null,
		total: view.records.length,
	};
}
