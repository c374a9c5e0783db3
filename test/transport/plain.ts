/**
 * What transport tests share that needs no n8n-core (loading it costs every jest file over a
 * second of CPU): the node a pure step is given, and the check that an error carries no key.
 * ./context.ts re-exports them beside the helpers that run code in a real execute context.
 */
import type { INode } from 'n8n-workflow';

/** The node that transport code outside an execution (a pure step, an error builder) is given. */
export const TEST_NODE: INode = {
	id: 'n',
	name: 'Inspection Business',
	type: 'inspectionBusiness',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Walks an error (or any value) including non-enumerable fields and causes; true if `secret` occurs anywhere. */
export function containsSecret(value: unknown, secret: string, seen = new Set<unknown>()): boolean {
	if (typeof value === 'string') return value.includes(secret);
	if (value === null || typeof value !== 'object' || seen.has(value)) return false;
	seen.add(value);
	if (Buffer.isBuffer(value)) return value.includes(secret);
	const names = new Set([
		...Object.getOwnPropertyNames(value),
		'message',
		'stack',
		'description',
		'cause',
		'context',
	]);
	for (const name of names) {
		let field: unknown;
		try {
			field = (value as Record<string, unknown>)[name];
		} catch {
			continue;
		}
		if (containsSecret(field, secret, seen)) return true;
	}
	return false;
}

/** The checks a test makes on any error: message, description, stack, causes and the JSON n8n would store. */
export function expectNoSecret(value: unknown, secret: string): void {
	expect(containsSecret(value, secret)).toBe(false);
	let json = '';
	try {
		json = JSON.stringify(value) ?? '';
	} catch {
		json = '';
	}
	expect(json.includes(secret)).toBe(false);
}
