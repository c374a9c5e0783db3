/** Runs transport code inside a real n8n execute context (see test/helpers/n8n.ts). */
import type { ExecutionError, IExecuteFunctions } from 'n8n-workflow';

import { type DownloadedFile, downloadSignedLink } from '../../nodes/shared/transport/download';
import { type TestCredentials, withExecuteContext } from '../helpers/n8n';

export { containsSecret, expectNoSecret, TEST_NODE } from './plain';

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
