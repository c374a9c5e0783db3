/**
 * What makes a listed record unreadable (judge/unreadable.ts), at each edge:
 * the id's kinds, an attachment's inspection, a time that is not one, the
 * nesting limit; and the cut that keeps a too-deep record safe to save. Whole
 * polls with such records are in poll.unreadable.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	cutBelow,
	MAX_DEPTH,
	nestsDeeperThan,
	readProblem,
} from '../../nodes/InspectionBusinessTrigger/judge/unreadable';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';

export function unreadable(): void {
	const TIME = '2026-03-01T10:00:00Z';
	/** `levels` objects inside one another: {a: {a: … 1}}. */
	const nested = (levels: number): IDataObject =>
		JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as IDataObject;

	test.each<[string, Resource, unknown, boolean]>([
		['a text id', 'contacts', { id: 'c1', updated_at: TIME }, false],
		['a number id', 'contacts', { id: 7, updated_at: TIME }, false],
		['no id', 'contacts', { updated_at: TIME }, true],
		['an id that is an object', 'contacts', { id: { v: 1 } }, true],
		['null where a record belongs', 'contacts', null, true],
		['a list where a record belongs', 'contacts', [{ id: 'c1' }], true],
		['text where a record belongs', 'contacts', 'c1', true],
		['an attachment with its inspection', 'attachments', { id: 'f1', inspection_id: 'i1' }, false],
		['an attachment without it', 'attachments', { id: 'f1' }, true],
		['another record without inspection_id', 'contacts', { id: 'c1' }, false],
		['updated_at missing or null', 'contacts', { id: 'c1', updated_at: null }, false],
		['updated_at not a time', 'contacts', { id: 'c1', updated_at: 'soon' }, true],
		['updated_at empty', 'contacts', { id: 'c1', updated_at: '' }, true],
		['updated_at a number', 'contacts', { id: 'c1', updated_at: 5 }, true],
		['created_at not a time', 'contacts', { id: 'c1', updated_at: TIME, created_at: 'x' }, true],
		['nested to the limit', 'contacts', { id: 'c1', n: nested(MAX_DEPTH - 1) }, false],
		['nested past it', 'contacts', { id: 'c1', n: nested(MAX_DEPTH) }, true],
	])('%s: unreadable %s', (_case, resource, record, unreadable) => {
		expect(readProblem(resource, record) !== null).toBe(unreadable);
	});

	test('nesting is counted in objects, the outermost being level 1', () => {
		expect(nestsDeeperThan(nested(3), 3)).toBe(false);
		expect(nestsDeeperThan(nested(4), 3)).toBe(true);
		expect(nestsDeeperThan([[[1]]], 3)).toBe(false);
		expect(nestsDeeperThan('text', 0)).toBe(false);
	});

	test('a cut keeps `limit` levels and puts a marker text below them', () => {
		const cut = cutBelow({ a: { b: { c: 1 } }, list: [{ d: 2 }] }, 2) as IDataObject;
		const marker = (cut.a as IDataObject).b;
		expect(typeof marker).toBe('string');
		expect(marker).not.toBe('');
		expect(cut.list).toEqual([marker]);
		expect(cutBelow({ a: 1 }, 0)).toBe(marker);
		expect(cutBelow({ a: 1 }, 1)).toEqual({ a: 1 });
		expect(cutBelow('plain', 0)).toBe('plain');
		expect(nestsDeeperThan(cutBelow(nested(5000), MAX_DEPTH), MAX_DEPTH)).toBe(false);
	});
}
