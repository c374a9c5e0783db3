/** Runs transport code inside a real n8n execute context (see test/helpers/n8n.ts). */
import type { ExecutionError, IExecuteFunctions } from 'n8n-workflow';

import { type TestCredentials, withExecuteContext } from '../helpers/n8n';

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
