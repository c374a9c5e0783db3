/**
 * The locators' From List: one API page per call (the editor asks for the next
 * with the cursor as its pagination token). Where the API searches (contacts'
 * `search`), the filter is sent; elsewhere it matches the labels of the page.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';
import { CONTACT_ROLE_GROUPS, LIMITS } from '../../shared/endpoints';
import { idFromRecordUrl } from '../../shared/locators';
import { readAll } from '../../shared/transport/pages';
import { apiRequest } from '../../shared/transport/request';

type Label = (record: IDataObject) => string;

async function searchPage(
	ctx: ILoadOptionsFunctions,
	endpoint: EndpointKey,
	label: Label,
	options: {
		filter?: string;
		paginationToken?: string;
		query?: IDataObject;
		pathParams?: Record<string, string>;
		/** The API searches: the filter is sent as this parameter, not matched locally. */
		searchParam?: string;
	},
): Promise<INodeListSearchResult> {
	const needle = options.filter?.trim() ?? '';
	const query: IDataObject = { ...options.query, limit: LIMITS.pageSizeMax };
	if (options.searchParam && needle) query[options.searchParam] = needle;
	if (options.paginationToken) query.cursor = options.paginationToken;
	const page = await apiRequest.call(ctx, endpoint, { pathParams: options.pathParams, query });
	const lower = needle.toLowerCase();
	const results: INodeListSearchItems[] = ((page.data ?? []) as IDataObject[])
		.map((record) => ({ name: label(record), value: String(record.id) }))
		.filter((item) => options.searchParam || item.name.toLowerCase().includes(lower));
	return { results, paginationToken: (page.next_cursor as string | null) ?? undefined };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const joinedText = (parts: unknown[], separator: string) =>
	parts.map(text).filter(Boolean).join(separator);
/** A date-time as YYYY-MM-DD HH:MM (UTC), the way the API states it. */
const dateTime = (value: unknown) => text(value).slice(0, 16).replace('T', ' ');

/**
 * Agencies for the agency pickers, sorted by name. The agency list has no
 * search or name order (it takes only ids, cursor and limit:
 * tagAndAgencyParams), so each search walks every page once (limit 200:
 * ⌈agencies / 200⌉ requests) and filters the names here; the editor gets the
 * whole answer at once, with no further pages.
 */
export async function searchAgencies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const agencies = await readAll.call(this, 'listAgencies', { query: {} });
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = agencies
		.map((agency) => ({ name: String(agency.name ?? ''), value: String(agency.id) }))
		.filter((agency) => agency.name.toLowerCase().includes(needle))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/** "Jane Doe <jane@example.com>", searched by the API (name, email or phone). */
export async function searchContacts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const label: Label = (contact) => {
		const name = joinedText([contact.first_name, contact.last_name], ' ');
		return contact.email ? `${name} <${text(contact.email)}>` : name;
	};
	return await searchPage(this, 'listContacts', label, {
		filter,
		paginationToken,
		searchParam: 'search',
	});
}

const CLIENT_ROLE_NAMES: readonly string[] = CONTACT_ROLE_GROUPS.client;

/** Most recently updated first, canceled ones too, labelled "address · date · client". */
export async function searchInspections(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const label: Label = (inspection) => {
		const address = text((inspection.address as IDataObject | null)?.full) || 'No address';
		const when = dateTime(inspection.scheduled_for) || 'not scheduled';
		const clients = ((inspection.contacts ?? []) as IDataObject[])
			.filter((contact) => CLIENT_ROLE_NAMES.includes(String(contact.role)))
			.map((contact) => joinedText([contact.first_name, contact.last_name], ' '));
		return joinedText([address, when, clients.join(', ')], ' · ');
	};
	return await searchPage(this, 'listInspections', label, {
		filter,
		paginationToken,
		query: { sort: '-updated_at', include_canceled: true },
	});
}

/** "name · start", in the API's order. */
export async function searchEvents(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const label: Label = (event) =>
		joinedText([event.name || 'Event', dateTime(event.start_at) || 'no start time'], ' · ');
	return await searchPage(this, 'listEvents', label, { filter, paginationToken });
}

/** The attachments of the inspection chosen in the same node, "name (kind)". */
export async function searchAttachments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const inspectionId = currentInspectionId(this);
	if (!inspectionId) return { results: [] };
	const label: Label = (attachment) =>
		`${text(attachment.name) || text(attachment.filename) || `Attachment ${String(attachment.id)}`} (${text(attachment.kind)})`;
	return await searchPage(this, 'listInspectionAttachments', label, {
		filter,
		paginationToken,
		pathParams: { inspection_id: inspectionId },
	});
}

/** The Inspection field's id, whichever mode it is in; empty until one is chosen. */
function currentInspectionId(ctx: ILoadOptionsFunctions): string {
	const value = ctx.getCurrentNodeParameter('inspection_id') as unknown;
	if (value && typeof value === 'object') {
		const { mode, value: raw } = value as IDataObject;
		const id = text(raw);
		return mode === 'url' ? (idFromRecordUrl('inspection', id) ?? '') : id;
	}
	return text(value);
}
