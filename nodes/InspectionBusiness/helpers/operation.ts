/**
 * What every `actions/<resource>/<op>.operation.ts` exports. The node's
 * `execute` (actionNode.ts) runs `execute` once per input item, or
 * `executeBatch` once for all of them; the node's description gathers
 * `description`; the field-map tests compare the fields with the endpoint
 * table through `endpoint` and `queryScope`.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';

interface OperationFacts {
	description: INodeProperties[];
	/** The endpoint the operation calls; its table entry lists the operation's wire fields. */
	endpoint: EndpointKey;
	/** The query parameters the operation exposes, when it does not expose them all. */
	queryScope?: readonly string[];
}

/** Most operations: one input item's requests and output items; the node adds continue-on-fail. */
export interface ItemOperation extends OperationFacts {
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
}

/** Operations whose items share requests (Get's ids= batches, Create or Update's email lookups). */
export interface BatchOperation extends OperationFacts {
	executeBatch(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

/** Display options that show a field for one operation of one resource only. */
export const shownFor = (resource: string, operation: string) => ({
	show: { resource: [resource], operation: [operation] },
});
