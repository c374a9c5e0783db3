import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS } from '../../shared/endpoints';
import type { Endpoint, EndpointKey } from '../../shared/endpoints';

/** The list's id-list parameter (`ids` or `contact_ids`), if it has one. */
export function idsParamOf(endpoint: EndpointKey): string | undefined {
	const spec: Endpoint = ENDPOINTS[endpoint];
	return spec.list?.idsParam;
}

/** Return All (undefined) or Limit, checked locally because an expression can bypass the editor's minimum. */
export function maxRecords(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Limit: ${limit} is not a whole number of at least 1`,
			{
				itemIndex,
				description: 'Set Limit to how many records to return, or turn on Return All',
			},
		);
	}
	return limit;
}
