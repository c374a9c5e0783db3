/**
 * Poll ticks the way n8n 2.41 runs a poll node with a durable cursor, around
 * n8n-core's real PollContext and PollTriggerExecutor (the harness's runPoll
 * calls the node on a PollContext without cursor staging):
 * - the executor enters `__runPoll`; inside it the node's static data is a
 *   copy of the committed cursor;
 * - the copy is committed when the poll emits (`__emit`) or, when it returns
 *   null, through `__commitCursor`; a poll that throws commits nothing and its
 *   error goes to `__emitError`.
 * Written from the IPollFunctions contract in n8n-workflow's interfaces.d.ts.
 */
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IPollFunctions,
} from 'n8n-workflow';

import {
	additionalData,
	bootN8nCore,
	buildWorkflow,
	coreContainer,
	credentialData,
	NodeTypeRegistry,
	nodeCredentials,
	type TestCredentials,
	typeName,
} from '../helpers/runtime';

export interface TickResult {
	/** What the tick emitted (the first output), or null. */
	items: INodeExecutionData[] | null;
	error?: Error;
}

let pollers = 0;

export class StagedPoller {
	/** The durable cursor: what survives a restart. */
	committed: IDataObject = {};
	commits = 0;
	/** Each poller is a workflow of its own, as n8n tells trigger nodes apart. */
	private readonly workflowId = `staged-workflow-${++pollers}`;

	constructor(
		private readonly node: INodeType,
		private readonly parameters: IDataObject,
		private readonly credentials: TestCredentials,
	) {}

	/**
	 * One occurrence. `readCursor`: the cursor n8n read when the occurrence
	 * started, if that was before the last commit (default: the committed one).
	 */
	async tick(pollBudgetMs?: number, readCursor?: IDataObject): Promise<TickResult> {
		const core = await bootN8nCore();
		const type = typeName(this.node);
		const definition: INode = {
			id: 'staged-trigger',
			name: 'Trigger',
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters: this.parameters as INode['parameters'],
			credentials: nodeCredentials(this.credentials),
		};
		const workflow = buildWorkflow(
			[definition],
			{},
			new NodeTypeRegistry().add(type, this.node),
			undefined,
			undefined,
			this.workflowId,
		);
		const node = workflow.getNode(definition.name) as INode;

		let staged: { snapshot: IDataObject; seed: string } | undefined;
		const commit = () => {
			if (staged === undefined || JSON.stringify(staged.snapshot) === staged.seed) return;
			this.committed = structuredClone(staged.snapshot);
			staged.seed = JSON.stringify(staged.snapshot);
			this.commits++;
		};
		const result: TickResult = { items: null };
		const context = new core.PollContext(
			workflow,
			node,
			additionalData(credentialData(this.credentials)),
			'trigger',
			'activate',
			(data: INodeExecutionData[][]) => {
				commit();
				result.items = data[0] ?? [];
			},
			(error: Error) => {
				result.error = error;
			},
			async () => commit(),
			async <T>(poll: () => Promise<T>) => {
				const cursor = readCursor ?? this.committed;
				staged = { snapshot: structuredClone(cursor), seed: JSON.stringify(cursor) };
				try {
					return await poll();
				} finally {
					staged = undefined;
				}
			},
			() => {
				if (staged === undefined) throw new Error('static data read outside __runPoll');
				return staged.snapshot;
			},
			pollBudgetMs === undefined ? undefined : () => pollBudgetMs,
		) as IPollFunctions;
		const executor = coreContainer().get(core.PollTriggerExecutor);
		await executor.create(workflow, node, context, () => true)();
		return result;
	}
}
