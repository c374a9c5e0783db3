import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS } from '../../../shared/endpoints';
import type { Endpoint, EndpointKey } from '../../../shared/endpoints';
import { paginate } from '../../../shared/transport';

/** The list's id-list parameter (`ids` or `contact_ids`), if it has one. */
export function idsParamOf(endpoint: EndpointKey): string | undefined {
	const spec: Endpoint = ENDPOINTS[endpoint];
	return spec.list?.idsParam;
}

/** Return All (undefined) or Limit, checked locally because an expression can bypass the editor's minimum. */
function maxRecords(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
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

/**
 * Reads one item's list: everything (Return All) or up to Limit, page by page
 * through the transport's cursor loop, which also splits an id list longer
 * than one request may carry and counts Limit across the requests.
 */
export async function listRecords(
	this: IExecuteFunctions,
	endpoint: EndpointKey,
	itemIndex: number,
	request: { pathParams?: Record<string, string>; query: IDataObject },
): Promise<IDataObject[]> {
	const max = maxRecords(this, itemIndex);
	const records: IDataObject[] = [];
	for await (const page of paginate.call(this, endpoint, { ...request, max })) {
		for (const record of page) records.push(record);
	}
	return records;
}
