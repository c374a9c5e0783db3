/**
 * Posting deliveries to a webhook trigger in a real n8n and reading what they started, for the
 * webhook e2e test and `npm run bench:webhook`.
 */
import type { N8nDatabase, StoredExecution } from '../../../scripts/n8n-database';
import { waitFor } from '../../../scripts/processes';
import { WEBHOOK_SECRET } from '../workflows/webhooks';

export interface Answer {
	status: number;
	body: string;
	/** From sending the request to the end of the answer. */
	ms: number;
}

/** A delivery as the sandbox sends it: its own id, the event, and the record in `data`. */
export const deliveryBody = (
	deliveryId: string,
	recordId: string,
	event = 'inspection.confirmed',
) =>
	JSON.stringify({
		id: deliveryId,
		event,
		occurred_at: new Date().toISOString(),
		data: { id: recordId },
	});

export async function post(
	url: string,
	body: string,
	secret: string = WEBHOOK_SECRET.value,
): Promise<Answer> {
	const started = performance.now();
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [WEBHOOK_SECRET.header]: secret },
		body,
		signal: AbortSignal.timeout(120_000),
	});
	const text = (await response.text()).trim();
	return { status: response.status, body: text, ms: performance.now() - started };
}

/** Posts every body at the same moment, as a sender's burst does. */
export async function postAtOnce(url: string, bodies: string[]): Promise<Answer[]> {
	return await Promise.all(bodies.map(async (body) => await post(url, body)));
}

/** Median, 99th percentile and maximum, in whole milliseconds. */
export function latency(answers: Answer[]): { median: number; p99: number; max: number } {
	const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
	const at = (share: number) =>
		sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
	return {
		median: Math.round(at(0.5)),
		p99: Math.round(at(0.99)),
		max: Math.round(sorted[sorted.length - 1]),
	};
}

interface RunData {
	resultData: {
		error?: { message?: string };
		runData?: Record<
			string,
			Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> } }>
		>;
	};
}

/** The item the trigger node emitted in an execution, or undefined (a failed trigger emits none). */
export function triggerItem(
	execution: StoredExecution,
	node: string,
): Record<string, unknown> | undefined {
	const run = (execution.data as RunData | null)?.resultData.runData?.[node]?.[0];
	return run?.data?.main[0]?.[0]?.json;
}

/** The items a node passed on (its first output) in an execution; none when it did not run. */
export function nodeItems(
	execution: StoredExecution,
	node: string,
): Array<Record<string, unknown>> {
	const run = (execution.data as RunData | null)?.resultData.runData?.[node]?.[0];
	return (run?.data?.main[0] ?? []).map((item) => item.json);
}

/** A delivery whose only id is its record's: at the top level and again under `data`. */
export const recordOnlyBody = (recordId: string, event = 'inspection.confirmed') =>
	JSON.stringify({ id: recordId, event, data: { id: recordId } });

/** The error a failed execution recorded. */
export const executionError = (execution: StoredExecution) =>
	(execution.data as RunData | null)?.resultData.error?.message;

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * The workflow's executions once at least `count` exist and all have finished, then a little
 * longer, so that an extra (doubled) execution would be seen too.
 */
export async function settledExecutions(
	database: N8nDatabase,
	workflowId: string,
	count: number,
	timeoutMs = 120_000,
): Promise<StoredExecution[]> {
	const finished = async () => {
		const executions = await database.executions(workflowId);
		return executions.length >= count && executions.every((e) => FINISHED.has(e.status))
			? executions
			: undefined;
	};
	await waitFor(`${count} finished executions of ${workflowId}`, finished, {
		timeoutMs,
		intervalMs: 500,
	});
	await new Promise((resolve) => setTimeout(resolve, 2000));
	return await waitFor(`the executions of ${workflowId} to finish`, finished, {
		timeoutMs,
		intervalMs: 500,
	});
}

/** How many executions each delivery id started. */
export function executionsPerDelivery(
	executions: StoredExecution[],
	node: string,
): Map<string, number> {
	const counts = new Map<string, number>();
	for (const execution of executions) {
		const id = String(triggerItem(execution, node)?.deliveryId ?? `(failed ${execution.id})`);
		counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}
