/** Runs transport code inside a real n8n execute context (see test/helpers/n8n.ts). */
import type { ExecutionError, IExecuteFunctions, INode } from 'n8n-workflow';

import { type DownloadedFile, downloadSignedLink } from '../../nodes/shared/transport/download';
import { type TestCredentials, withExecuteContext } from '../helpers/n8n';

/** The node that transport code outside an execution (a pure step, an error builder) is given. */
export const TEST_NODE: INode = {
	id: 'n',
	name: 'Inspection Business',
	type: 'inspectionBusiness',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The function's value; throws the execution error if it failed. */
export async function inNode<T>(
	credentials: TestCredentials,
	fn: (this: IExecuteFunctions) => Promise<T>,
): Promise<T> {
	const { value, error } = await withExecuteContext(fn, { credentials });
	if (error) throw error;
	return value as T;
}

/** The execution error the function ends with; fails the test if it succeeded. */
export async function failureOf(
	credentials: TestCredentials,
	fn: (this: IExecuteFunctions) => Promise<unknown>,
): Promise<ExecutionError & { description?: string; httpCode?: string }> {
	const { error } = await withExecuteContext(fn, { credentials });
	if (!error) throw new Error('Expected the call to fail, but it succeeded');
	return error as ExecutionError & { description?: string; httpCode?: string };
}

/** Collects every record of an async page stream. */
export async function drain<T>(pages: AsyncGenerator<T[]>): Promise<T[]> {
	const all: T[] = [];
	for await (const page of pages) all.push(...page);
	return all;
}

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

/**
 * What a signed-link download ends with when `stop` is the execution's Stop, through n8n's own
 * helper or, when given, an `httpRequest` that stands in for it (one that hands back what n8n's
 * never does). A stopped execution reports no node error, so the download's own error is taken
 * where it is thrown.
 */
export async function downloadThrough(
	credentials: TestCredentials,
	link: string,
	httpRequest?: () => Promise<unknown>,
	stop = new AbortController(),
): Promise<{ value?: DownloadedFile; error?: Error & { description?: unknown } }> {
	let ended: (outcome: { value?: DownloadedFile; error?: Error }) => void = () => undefined;
	const outcome = new Promise<{ value?: DownloadedFile; error?: Error }>((r) => (ended = r));
	const running = withExecuteContext(
		async function () {
			const helpers = { ...this.helpers, ...(httpRequest && { httpRequest }) };
			const context = Object.create(this, { helpers: { value: helpers } }) as typeof this;
			await downloadSignedLink.call(context, link).then(
				(value) => ended({ value }),
				(error: Error) => ended({ error }),
			);
		},
		{ credentials, signal: stop.signal },
	);
	const result = await outcome;
	await running;
	return result;
}
