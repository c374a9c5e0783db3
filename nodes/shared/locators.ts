/**
 * Resource locators (From List · By ID · By URL) for the records a user
 * picks. The API does not say what its links look like; the package assumes
 * (recordLinks) that the id is the UUID that follows the resource's path
 * segment in a link to the business tools, or an inspection's `portal_url`
 * (`…/reports/<uuid>`).
 */
import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { UUID_PATTERN } from './endpoints';

export type LocatorKind = 'contact' | 'inspection' | 'agency' | 'event' | 'attachment';

interface LocatorSpec {
	/** The record's name in labels and messages. */
	record: string;
	/** The listSearch method that pages through the records. */
	searchListMethod: string;
	/** Path segments a record link carries the id after (recordLinks); none: no By URL mode. */
	urlSegments: readonly string[];
	/** Attachment ids are not UUIDs (unique within their inspection only). */
	uuid: boolean;
	urlPlaceholder?: string;
}

const LOCATORS: Record<LocatorKind, LocatorSpec> = {
	contact: {
		record: 'Contact',
		searchListMethod: 'searchContacts',
		urlSegments: ['contacts'],
		uuid: true,
		urlPlaceholder: 'e.g. https://app.example.com/contacts/3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a',
	},
	inspection: {
		record: 'Inspection',
		searchListMethod: 'searchInspections',
		urlSegments: ['inspections', 'reports'],
		uuid: true,
		urlPlaceholder:
			'e.g. https://portal.example.com/reports/3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a (the portal link)',
	},
	agency: {
		record: 'Agency',
		searchListMethod: 'searchAgencies',
		urlSegments: ['agencies'],
		uuid: true,
		urlPlaceholder: 'e.g. https://app.example.com/agencies/3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a',
	},
	event: {
		record: 'Appointment',
		searchListMethod: 'searchEvents',
		urlSegments: ['events'],
		uuid: true,
		urlPlaceholder: 'e.g. https://app.example.com/events/3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a',
	},
	attachment: {
		record: 'Attachment',
		searchListMethod: 'searchAttachments',
		urlSegments: [],
		uuid: false,
	},
};

const UUID = UUID_PATTERN.slice(1, -1);
const WHOLE_UUID = new RegExp(UUID_PATTERN);
const UUID_LENGTH = 36;
/** A UUID anywhere in a link, not part of a longer run of hex digits. */
const UUID_IN_TEXT = new RegExp(`(?<![0-9a-fA-F])${UUID}(?![0-9a-fA-F])`, 'g');
/**
 * An http(s) link: a scheme, a host, no whitespace. One character of host,
 * then anything without whitespace: no two quantifiers compete for the same
 * characters, so a hostile value fails in time linear in its length (see
 * test/node/hostile-text.test.ts).
 */
const HTTP_LINK = /^https?:\/\/[^/\s]\S*$/i;

/** The path segments of an http(s) link, without its query and fragment. */
function pathSegments(link: string): string[] {
	const afterScheme = link.slice(link.indexOf('//') + 2);
	const hostEnd = afterScheme.indexOf('/');
	if (hostEnd < 0) return [];
	const rest = afterScheme.slice(hostEnd + 1);
	const pathEnd = rest.search(/[?#]/);
	return (pathEnd < 0 ? rest : rest.slice(0, pathEnd)).split('/');
}

/**
 * recordLinks: the id after one of `segments` in an http(s) link's path, e.g.
 * `https://host/contacts/<uuid>` or a portal link `https://host/reports/<uuid>`;
 * anything after the id (a sub-page, a query, a fragment) is ignored. Read from
 * the split path, not by one pattern over the whole link, so the time is
 * linear in the link's length; the last such pair in the path wins.
 */
function idAfterSegment(segments: readonly string[], parts: readonly string[]): string | undefined {
	for (let index = parts.length - 2; index >= 0; index--) {
		const id = parts[index + 1];
		if (id.length !== UUID_LENGTH || !WHOLE_UUID.test(id)) continue;
		if (segments.includes(parts[index].toLowerCase())) return id;
	}
	return undefined;
}

/** What By URL reads, as its hint and its errors say it. */
export function linkForms(kind: LocatorKind): string {
	const { record, urlSegments } = LOCATORS[kind];
	const paths = urlSegments.map((segment) => `…/${segment}/<ID>`).join(' or ');
	return `a link to the ${record.toLowerCase()} (${paths}), or any http(s) link that holds exactly one ID (a UUID)`;
}

/**
 * The record id a By URL link carries, or why it carries none. The UUID after
 * the record's own path segment (recordLinks) wins. A link to another kind of record is
 * refused rather than looked up as this one. Any other http(s) link is read
 * when it holds exactly one UUID, so a portal link of a shape the package has
 * not seen still works.
 */
export function readRecordLink(
	kind: LocatorKind,
	link: string,
): { id: string } | { problem: string } {
	const url = link.trim();
	if (!HTTP_LINK.test(url)) return { problem: 'is not an http(s) link' };
	const parts = pathSegments(url);
	const own = idAfterSegment(LOCATORS[kind].urlSegments, parts);
	if (own) return { id: own };
	const other = (Object.keys(LOCATORS) as LocatorKind[]).find(
		(candidate) => candidate !== kind && idAfterSegment(LOCATORS[candidate].urlSegments, parts),
	);
	if (other) return { problem: `is a link to another kind of record (${LOCATORS[other].record})` };
	const ids = [...new Set((url.match(UUID_IN_TEXT) ?? []).map((id) => id.toLowerCase()))];
	if (ids.length === 1) return { id: ids[0] };
	return { problem: ids.length === 0 ? 'holds no ID (a UUID)' : `holds ${ids.length} IDs` };
}

/** The record's name in labels and messages, e.g. "Appointment". */
export const recordName = (kind: LocatorKind): string => LOCATORS[kind].record;

/** The id a record link carries, or undefined when it carries none (see `readRecordLink`). */
export function idFromRecordUrl(kind: LocatorKind, url: string): string | undefined {
	const read = readRecordLink(kind, url);
	return 'id' in read ? read.id : undefined;
}

/** A locator mode; modes have no default, unlike the parameters lint takes them for. */
const mode = (
	displayName: string,
	name: string,
	type: INodePropertyMode['type'],
	rest: Omit<INodePropertyMode, 'displayName' | 'name' | 'type'> = {},
): INodePropertyMode => ({ displayName, name, type, ...rest });

function modes(kind: LocatorKind): INodePropertyMode[] {
	const spec = LOCATORS[kind];
	const list = mode('From List', 'list', 'list', {
		typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
	});
	const id = mode('By ID', 'id', 'string', {
		placeholder: spec.uuid ? 'e.g. 3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a' : 'e.g. 2',
		...(spec.uuid
			? {
					validation: [
						{
							type: 'regex' as const,
							properties: {
								regex: UUID_PATTERN,
								errorMessage: `Not a valid ${spec.record.toLowerCase()} ID (a UUID)`,
							},
						},
					],
				}
			: {}),
	});
	if (spec.urlSegments.length === 0) return [list, id];
	// No validation or extractValue regex: n8n refuses to start the whole run when a typed
	// value fails one, so the node reads the link itself and fails only the item.
	const url = mode('By URL', 'url', 'string', {
		placeholder: spec.urlPlaceholder,
		hint: `Takes ${linkForms(kind)}`,
	});
	return [list, id, url];
}

/** A locator field for `kind`, keeping the name, label and description of `base`. */
export function locatorProperty(
	kind: LocatorKind,
	base: Pick<INodeProperties, 'displayName' | 'name'> &
		Partial<Pick<INodeProperties, 'description' | 'required' | 'displayOptions'>>,
): INodeProperties {
	const property: INodeProperties = {
		...base,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: modes(kind),
	};
	return property;
}
