/**
 * Shared by the node tests: run the Inspection Business node through the
 * harness (and check that the API key is nowhere in what comes back), read
 * sandbox fixtures straight from the API, and read the request log.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { InspectionBusiness } from '../../nodes/InspectionBusiness/InspectionBusiness.node';
import type { RunNodeResult, TestItem } from '../helpers/n8n';
import { runNode } from '../helpers/n8n';
import type { SandboxHandle } from '../helpers/sandbox';
import { SANDBOX_KEYS } from '../helpers/sandbox';

export const node = new InspectionBusiness();
export const KEY = SANDBOX_KEYS.acmeOwner;

/** Everything a run produced, as text: output items and the error with its message, description and stack. */
function everything(result: RunNodeResult): string {
	const { error } = result;
	return JSON.stringify({
		items: result.items,
		error,
		message: error?.message,
		description: error?.description,
		stack: error?.stack,
	});
}

export async function run(
	sandbox: SandboxHandle,
	parameters: INodeParameters,
	options: {
		items?: TestItem[];
		continueOnFail?: boolean;
		key?: keyof typeof SANDBOX_KEYS;
		timezone?: string;
		/** The node version the workflow was built with; the latest when left out. */
		typeVersion?: number;
	} = {},
): Promise<RunNodeResult> {
	const key = options.key ?? 'acmeOwner';
	const result = await runNode({
		node,
		parameters,
		credentials: sandbox.credentials(key),
		items: options.items,
		continueOnFail: options.continueOnFail,
		timezone: options.timezone,
		typeVersion: options.typeVersion,
	});
	// The key never appears in an output item or an error.
	expect(everything(result)).not.toContain(SANDBOX_KEYS[key]);
	return result;
}

/** A fixture read straight from the API (not through the node); clears nothing. */
export async function api<T = IDataObject>(
	sandbox: SandboxHandle,
	path: string,
	query: Record<string, string> = {},
) {
	const url = new URL(sandbox.baseUrl + path);
	for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
	const response = await fetch(url, { headers: { Authorization: `Bearer ${KEY}` } });
	if (!response.ok)
		throw new Error(`Fixture ${path} answered ${response.status}: ${await response.text()}`);
	return (await response.json()) as T;
}

/** Every record of a list, and how many pages of 200 the server serves for it. */
export async function allPages(
	sandbox: SandboxHandle,
	path: string,
	query: Record<string, string> = {},
) {
	const records: IDataObject[] = [];
	let pages = 0;
	let cursor: string | null = null;
	do {
		const page: { data: IDataObject[]; next_cursor: string | null } = await api(sandbox, path, {
			...query,
			limit: '200',
			...(cursor ? { cursor } : {}),
		});
		pages++;
		records.push(...page.data);
		cursor = page.next_cursor;
	} while (cursor);
	return { records, pages };
}

/** The request log of /v1 and /files requests since the test began. */
export async function requests(
	sandbox: SandboxHandle,
	filter: { method?: string; pathPrefix?: string } = {},
) {
	return (await sandbox.control.requests(filter)).data;
}

/** The message and hint of a run's error, or of an item's error (continue-on-fail). */
export function errorText(result: RunNodeResult): string {
	return `${result.error?.message ?? ''} ${result.error?.description ?? ''}`;
}
