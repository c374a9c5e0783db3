import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { LIMITS } from '../../../shared/endpoints';
import { apiRequest } from '../../../shared/transport';

/**
 * Agencies for the agency pickers, one API page per call (the editor asks for
 * the next with the cursor). The API has no agency search (A10), so the
 * filter matches names within each page.
 */
export async function searchAgencies(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const query: IDataObject = { limit: LIMITS.pageSizeMax };
	if (paginationToken) query.cursor = paginationToken;
	const page = (await apiRequest.call(this, 'listAgencies', { query })) as IDataObject;
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = ((page.data ?? []) as IDataObject[])
		.filter((agency) =>
			String(agency.name ?? '')
				.toLowerCase()
				.includes(needle),
		)
		.map((agency) => ({ name: String(agency.name), value: String(agency.id) }));
	return { results, paginationToken: (page.next_cursor as string | null) ?? undefined };
}
