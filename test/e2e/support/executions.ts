/** Reads what trigger workflows did in the running n8n, through its REST API. */
import type { N8nRestClient } from '../../../scripts/n8n-rest';

type Json = Record<string, unknown>;

interface RunData {
	resultData: {
		runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Json }> | null> } }>>;
	};
}

/** Collects the items a trigger node emitted, one new execution at a time. */
export class ExecutionWatcher {
	private readonly seen = new Set<string>();

	private constructor(
		private readonly rest: N8nRestClient,
		private readonly workflowId: string,
		private readonly nodeName: string,
	) {}

	/** Starts watching: executions that exist already are not reported. */
	static async start(
		rest: N8nRestClient,
		workflowId: string,
		nodeName: string,
	): Promise<ExecutionWatcher> {
		const watcher = new ExecutionWatcher(rest, workflowId, nodeName);
		for (const execution of await rest.executions(workflowId)) watcher.seen.add(execution.id);
		return watcher;
	}

	/** Executions started since the last call (finished ones only), as the trigger items they carry. */
	async newItems(): Promise<Json[]> {
		const items: Json[] = [];
		const executions = await this.rest.executions(this.workflowId);
		for (const execution of executions.reverse()) {
			if (
				this.seen.has(execution.id) ||
				!['success', 'error', 'crashed'].includes(execution.status)
			)
				continue;
			this.seen.add(execution.id);
			const data = await this.rest.executionData<RunData>(execution.id);
			const runs = data.resultData.runData[this.nodeName] ?? [];
			for (const run of runs) items.push(...(run.data?.main[0] ?? []).map((item) => item.json));
		}
		return items;
	}

	/**
	 * How many executions exist now (started ones included), by id: n8n's list can show a
	 * running execution twice (stored and in progress), which counted it twice.
	 */
	async count(): Promise<number> {
		return new Set((await this.rest.executions(this.workflowId)).map((e) => e.id)).size;
	}
}
