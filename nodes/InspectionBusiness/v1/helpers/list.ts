import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, LIMITS } from '../../../shared/endpoints';
import type { Endpoint, EndpointKey } from '../../../shared/endpoints';
import { paginate } from '../../../shared/transport';

/** The list's id-list parameter (`ids` or `contact_ids`), if it has one. */
export function idsParamOf(endpoint: EndpointKey): string | undefined {
	const spec: Endpoint = ENDPOINTS[endpoint];
	return spec.list?.idsParam;
}

function chunks<T>(values: T[], size: number): T[][] {
	const result: T[][] = [];
	for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size));
	return result;
}

/** Return All (undefined) or Limit, checked locally because an expression can bypass the editor's minimum. */
function maxRecords(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(ctx.getNode(), `Limit: ${limit} is not a whole number of at least 1`, {
			itemIndex,
			description: 'Set Limit to how many records to return, or turn on Return All',
		});
	}
	return limit;
}

/**
 * Reads one item's list: everything (Return All) or up to Limit, page by page
 * through the transport's cursor loop. A list of more IDs than one request may
 * carry is split into requests of LIMITS.idsMax IDs each, and Limit counts
 * across them, so no request is made that the Limit does not need.
 */
export async function listRecords(
	this: IExecuteFunctions,
	endpoint: EndpointKey,
	itemIndex: number,
	request: { pathParams?: Record<string, string>; query: IDataObject },
): Promise<IDataObject[]> {
	const max = maxRecords(this, itemIndex);
	const idsParam = idsParamOf(endpoint);
	const ids = idsParam ? (request.query[idsParam] as string[] | undefined) : undefined;
	const queries =
		idsParam && ids
			? chunks(ids, LIMITS.idsMax).map((chunk) => ({ ...request.query, [idsParam]: chunk.join(',') }))
			: [request.query];
	const records: IDataObject[] = [];
	for (const query of queries) {
		const remaining = max === undefined ? undefined : max - records.length;
		if (remaining === 0) break;
		for await (const page of paginate.call(this, endpoint, { pathParams: request.pathParams, query, max: remaining })) {
			for (const record of page) {
				if (records.length === max) break;
				records.push(record);
			}
		}
	}
	return records;
}
