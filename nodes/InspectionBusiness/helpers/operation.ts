/**
 * What every `actions/<resource>/<op>.operation.ts` exports. The router runs
 * `execute`; the node's description gathers `description`; the field-map
 * tests compare the fields with the endpoint table through `endpoint` and
 * `queryScope`.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';

export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
	/** The endpoint the operation calls; its table entry lists the operation's wire fields. */
	endpoint: EndpointKey;
	/** The query parameters the operation exposes, when it does not expose them all. */
	queryScope?: readonly string[];
}

/** Display options that show a field for one operation of one resource only. */
export const shownFor = (resource: string, operation: string) => ({
	show: { resource: [resource], operation: [operation] },
});
