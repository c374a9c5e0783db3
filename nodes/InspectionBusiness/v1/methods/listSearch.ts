import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { paginate } from '../../../shared/transport';

/**
 * Agencies for the agency pickers, sorted by name. The API has no agency
 * search or name order (A10: ids, cursor and limit only), so each search walks
 * every page once (limit 200: ⌈agencies / 200⌉ requests) and filters the names
 * here; the editor gets the whole answer at once, with no further pages.
 */
export async function searchAgencies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const agencies: IDataObject[] = [];
	for await (const page of paginate.call(this, 'listAgencies', { query: {} }))
		agencies.push(...page);
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = agencies
		.map((agency) => ({ name: String(agency.name ?? ''), value: String(agency.id) }))
		.filter((agency) => agency.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
