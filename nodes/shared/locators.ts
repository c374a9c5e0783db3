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
		record: 'Inspection Event',
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

/**
 * A record link (recordLinks): an http(s) link whose path has `/<segment>/<uuid>`, e.g.
 * `https://host/contacts/<uuid>` or a portal link `https://host/reports/<uuid>`;
 * anything after the id (a sub-page, a query, a fragment) is ignored.
 */
function recordUrlRegex(kind: LocatorKind): string {
	const segments = LOCATORS[kind].urlSegments.join('|');
	return `^https?://[^/\\s]+(?:/[^\\s?#]*)?/(?:${segments})/(${UUID})(?:[/?#]\\S*)?$`;
}

/** The id a record link carries, or undefined when the link has none. */
export function idFromRecordUrl(kind: LocatorKind, url: string): string | undefined {
	return new RegExp(recordUrlRegex(kind)).exec(url.trim())?.[1];
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
	const regex = recordUrlRegex(kind);
	const url = mode('By URL', 'url', 'string', {
		placeholder: spec.urlPlaceholder,
		validation: [
			{
				type: 'regex',
				properties: {
					regex,
					errorMessage: `Not a link to ${spec.record.toLowerCase()}: it needs /${spec.urlSegments.join('/ or /')}/ followed by the ID`,
				},
			},
		],
		extractValue: { type: 'regex', regex },
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
