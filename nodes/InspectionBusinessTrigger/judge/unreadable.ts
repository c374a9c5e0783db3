/**
 * Records the trigger cannot read: `null` or another non-object where a
 * record belongs, a record without an id, an updated_at that is not a time, a
 * record nested deeper than any API record is. One such record must never
 * fail a poll (a failed poll saves nothing, so the same record would fail
 * every poll after it): it is reported once as an item of its own, with a
 * `problem` that says what could not be read, and remembered by its content,
 * so the next poll reports it again only if it changes.
 *
 * Why an item and not n8n's error output: a polling trigger has no error
 * output, and a thrown error fails the whole poll, the other changes with it.
 * An item shows in the execution, and the workflow can route it on `problem`.
 *
 * Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { hashText } from '../memory';
import type { Resource } from '../memory';

/**
 * API records nest a few levels (an inspection's price, its reports). Past
 * this depth a record is not one the API sends, and it is cut here before it
 * goes into an item: JSON.stringify, which n8n runs on every item it saves,
 * overflows the stack a few thousand levels down.
 */
export const MAX_DEPTH = 64;

/** Whether `value` nests deeper than `limit` levels; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 1]];
	while (stack.length > 0) {
		const [node, depth] = stack.pop()!;
		if (typeof node !== 'object' || node === null) continue;
		if (depth > limit) return true;
		for (const child of Object.values(node)) stack.push([child, depth + 1]);
	}
	return false;
}

/** `value` with everything below `limit` levels replaced by a marker, so it serialises safely. */
export function cutBelow(value: unknown, limit: number): unknown {
	if (typeof value !== 'object' || value === null) return value;
	if (limit <= 0) return '[cut: nested too deep]';
	if (Array.isArray(value)) return value.map((child) => cutBelow(child, limit - 1));
	return Object.fromEntries(
		Object.entries(value).map(([key, child]) => [key, cutBelow(child, limit - 1)]),
	);
}

const isTimeText = (value: unknown) =>
	typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value));

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/**
 * What makes a listed record unreadable, or null when it can be read. A
 * missing updated_at is not a problem here (attachments may lack it, and
 * created_at stands in); one that is present and not a time is.
 */
export function readProblem(resource: Resource, record: unknown): string | null {
	if (typeof record !== 'object' || record === null || Array.isArray(record))
		return `the list held ${kindOf(record)} where a record belongs`;
	if (nestsDeeperThan(record, MAX_DEPTH))
		return `the record nests deeper than ${MAX_DEPTH} levels (cut below that in this item)`;
	const fields = record as IDataObject;
	if (typeof fields.id !== 'string' && typeof fields.id !== 'number') return 'the record has no id';
	if (resource === 'attachments' && typeof fields.inspection_id !== 'string')
		return 'the attachment has no inspection_id';
	for (const field of ['updated_at', 'created_at']) {
		const value = fields[field];
		if (value !== undefined && value !== null && !isTimeText(value))
			return `${field} is not a time: ${JSON.stringify(cutBelow(value, 2))}`;
	}
	return null;
}

/** The record as an item may carry it, and its content hash (both safe at any depth). */
export function asReceived(record: unknown): { shown: unknown; contentHash: string } {
	const shown = cutBelow(record, MAX_DEPTH);
	return { shown, contentHash: hashText(JSON.stringify(shown) ?? 'undefined') };
}

/**
 * The key an unreadable record is remembered under among the records: its
 * id when it has a usable one, else its content. Packed keys are base64url or
 * start with `~` (memory/records.ts), so `!` cannot clash with a record's.
 */
export function unreadableKey(contentHash: string): string {
	return `!${contentHash}`;
}
