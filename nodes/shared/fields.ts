/**
 * Node parameters built from the endpoint table; `InspectionBusiness/helpers/wireValues.ts`
 * turns their values back into wire values. A parameter that maps to a query
 * parameter or a body field carries that wire name as its own `name`, so the
 * request code, the field map and the e2e editor check all read one name. The
 * table says `label`; n8n says `displayName`.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ENDPOINTS, LIMITS } from './endpoints';
import type { BodyField, Endpoint, EndpointKey, QueryParam } from './endpoints';
import { locatorProperty } from './locators';

const UUID_PLACEHOLDER = 'e.g. 3f1c2b9e-8d47-4c1a-9e2f-6b5a4d3c2b1a';
const EMAIL_PLACEHOLDER = 'name@email.com';

/** Query parameters that are never a filter: paging is Return All/Limit, sort has its own pair. */
const NOT_FILTERS = new Set(['cursor', 'limit', 'sort']);

export function queryParam(endpoint: EndpointKey, name: string): QueryParam {
	const query: readonly QueryParam[] = ENDPOINTS[endpoint].query;
	const param = query.find((p) => p.name === name);
	if (!param) throw new Error(`Endpoint table: ${endpoint} has no query parameter ${name}`);
	return param;
}

export function bodyFields(endpoint: EndpointKey): readonly BodyField[] {
	const spec: Endpoint = ENDPOINTS[endpoint];
	return spec.body?.fields ?? [];
}

export function bodyField(endpoint: EndpointKey, name: string): BodyField {
	const field = bodyFields(endpoint).find((f) => f.name === name);
	if (!field) throw new Error(`Endpoint table: ${endpoint} has no body field ${name}`);
	return field;
}

/** 'contact_id' → 'Contact ID': path placeholders have a name only. */
export function labelOf(wireName: string): string {
	return wireName
		.split('_')
		.map((word) =>
			word === 'id' || word === 'url'
				? word.toUpperCase()
				: word.charAt(0).toUpperCase() + word.slice(1),
		)
		.join(' ');
}

const byDisplayName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);
const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

function enumOptions(values: readonly string[]): INodePropertyOptions[] {
	return values
		.map((value) => ({ name: value.charAt(0).toUpperCase() + value.slice(1), value }))
		.sort(byName);
}

type WireEntry = Pick<QueryParam, 'name' | 'label' | 'description'>;

function base(entry: WireEntry): Pick<INodeProperties, 'displayName' | 'name' | 'description'> {
	return entry.description
		? { displayName: entry.label, name: entry.name, description: entry.description }
		: { displayName: entry.label, name: entry.name };
}

function agencyLocator(entry: WireEntry): INodeProperties {
	return locatorProperty('agency', base(entry));
}

/**
 * Tag names picked from the account's tags (loadOptions getTags, value = name).
 * The label says "Names" so it is not mistaken for the Tag IDs picker.
 */
function tagNamesPicker(entry: WireEntry): INodeProperties {
	return {
		...base(entry),
		displayName: 'Tag Names',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTags' },
		default: [],
		description: `${entry.description}. Choose from the list, or specify names (a list or comma-separated text) using an expression.`,
	};
}

/** Tags by ID (value = id, shown by name): unaffected when a tag is renamed. */
function tagIdsPicker(entry: WireEntry): INodeProperties {
	return {
		...base(entry),
		displayName: 'Tag IDs',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTagIds' },
		default: [],
		description: `${entry.description}. Shown by name, sent by ID, so a renamed tag still matches. Choose from the list, or specify IDs using an expression.`,
	};
}

function tagIdPicker(entry: WireEntry): INodeProperties {
	return {
		...base(entry),
		displayName: 'Tag Name or ID',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTagIds' },
		default: '',
		description: `${entry.description}. Choose from the list, or specify an ID using an expression.`,
	};
}

function socialCollection(entry: WireEntry): INodeProperties {
	return {
		...base(entry),
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Profile',
		default: {},
		options: [
			{
				displayName: 'Profile',
				name: 'profiles',
				values: [
					{
						displayName: 'Network',
						name: 'network',
						type: 'string',
						default: '',
						placeholder: 'e.g. linkedin',
					},
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'e.g. https://www.linkedin.com/in/jane',
					},
				],
			},
		],
	};
}

/** Wire names whose field is a picker rather than a plain input. */
const PICKERS: Record<string, (entry: WireEntry) => INodeProperties> = {
	agency_id: agencyLocator,
	tag: tagNamesPicker,
	tags: tagNamesPicker,
	tag_id: tagIdPicker,
	tag_ids: tagIdsPicker,
	social: socialCollection,
};

export function queryProperty(param: QueryParam): INodeProperties {
	const picker = PICKERS[param.name];
	if (picker) return picker(param);
	switch (param.type) {
		case 'boolean':
			return { ...base(param), type: 'boolean', default: false };
		case 'enum': {
			const options = enumOptions(param.values ?? []);
			return { ...base(param), type: 'options', options, default: options[0].value };
		}
		case 'timestamp':
			return {
				...base(param),
				type: 'dateTime',
				default: '',
				hint: "A date or a date and time (ISO 8601), sent in UTC. A time without a time zone is read in the workflow's timezone (in version 1 of the node: as UTC).",
			};
		case 'id-list':
			return { ...base(param), type: 'string', default: '', placeholder: `${UUID_PLACEHOLDER}, …` };
		case 'uuid':
			return { ...base(param), type: 'string', default: '', placeholder: UUID_PLACEHOLDER };
		default:
			return param.name === 'email'
				? { ...base(param), type: 'string', default: '', placeholder: EMAIL_PLACEHOLDER }
				: { ...base(param), type: 'string', default: '' };
	}
}

export function bodyProperty(field: BodyField): INodeProperties {
	const picker = PICKERS[field.name];
	if (picker) return picker(field);
	switch (field.type) {
		case 'boolean':
			return { ...base(field), type: 'boolean', default: false };
		case 'enum': {
			const options = enumOptions(field.values ?? []);
			return { ...base(field), type: 'options', options, default: options[0].value };
		}
		case 'email':
			return { ...base(field), type: 'string', default: '', placeholder: EMAIL_PLACEHOLDER };
		case 'email-list':
			return {
				...base(field),
				type: 'string',
				default: '',
				placeholder: 'e.g. office@example.com, assistant@example.com',
			};
		case 'uuid-array':
			return { ...base(field), type: 'string', default: '', placeholder: `${UUID_PLACEHOLDER}, …` };
		case 'date':
			return { ...base(field), type: 'string', default: '', placeholder: 'e.g. 1980-05-31' };
		case 'country':
			return { ...base(field), type: 'string', default: '', placeholder: 'e.g. US' };
		default:
			return { ...base(field), type: 'string', default: '' };
	}
}

/** Every query parameter of the endpoint that filters records, as one Filters collection. */
export function filtersCollection(endpoint: EndpointKey): INodeProperties {
	const params = ENDPOINTS[endpoint].query.filter((p) => !NOT_FILTERS.has(p.name));
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: params.map(queryProperty).sort(byDisplayName),
	};
}

/** The endpoint's `sort` as a field plus a direction (Descending sends the `-` prefix). */
export function sortFields(endpoint: EndpointKey): INodeProperties[] {
	const param = queryParam(endpoint, 'sort');
	return [
		{
			displayName: 'Sort By',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Default (ID)', value: '' },
				...(param.values ?? []).map((value) => ({ name: labelOf(value), value })),
			].sort(byName),
			default: '',
			description: param.description,
		},
		{
			displayName: 'Sort Direction',
			name: 'sortDirection',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'asc' },
				{ name: 'Descending', value: 'desc' },
			],
			default: 'asc',
			displayOptions: { hide: { sort: [''] } },
		},
	];
}

export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50, // n8n's convention, and LIMITS.pageSizeDefault (a test keeps them equal)
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The binary property an upload reads its file from (the multipart `file` field). */
export const binaryInputField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field containing the file to be uploaded',
};

/** A path placeholder such as `contact_id`, validated as a UUID before sending. */
export function pathIdField(wireName: string, description: string): INodeProperties {
	return {
		displayName: labelOf(wireName),
		name: wireName,
		type: 'string',
		required: true,
		default: '',
		placeholder: UUID_PLACEHOLDER,
		description,
	};
}

/** An attachment, identified together with its inspection's `inspection_id`. */
export const attachmentIdField: INodeProperties = {
	displayName: 'Attachment ID',
	name: 'attachment_id',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 2',
	description: 'The attachment; attachment IDs are unique within their inspection only',
};

/**
 * The record ID a Get reads from each input item. The API has no path for one
 * record, so the IDs of all items are sent together in the list's ids
 * parameter, which is why the field's name is not a wire name.
 */
export function batchedIdField(record: string): INodeProperties {
	return {
		displayName: `${record} ID`,
		name: 'id',
		type: 'string',
		required: true,
		default: '',
		placeholder: UUID_PLACEHOLDER,
		description: `ID of the ${record.toLowerCase()} to get. All input items are fetched together, ${LIMITS.idsMax} IDs per request.`,
	};
}

/** Additional or Update Fields: the endpoint's body fields, less the ones shown on their own. */
export function bodyCollection(
	endpoint: EndpointKey,
	collection: Pick<INodeProperties, 'displayName' | 'name'> & { description?: string },
	shownOnTheirOwn: readonly string[] = [],
): INodeProperties {
	const fields = bodyFields(endpoint).filter((f) => !shownOnTheirOwn.includes(f.name));
	return {
		...collection,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: fields.map(bodyProperty).sort(byDisplayName),
	};
}

export function bodyProperties(endpoint: EndpointKey, names: readonly string[]): INodeProperties[] {
	return bodyFields(endpoint)
		.filter((f) => names.includes(f.name))
		.map((f) => (f.required ? { ...bodyProperty(f), required: true } : bodyProperty(f)));
}

/**
 * Update's "Fields to Clear": the nullable body fields. Of an exclusive pair
 * (tags / tag_ids) only the first is offered, as clearing either clears the same.
 */
export function fieldsToClear(endpoint: EndpointKey): INodeProperties {
	const spec: Endpoint = ENDPOINTS[endpoint];
	const seconds = new Set((spec.body?.exclusive ?? []).map((pair) => pair[1]));
	const options = bodyFields(endpoint)
		.filter((f) => f.nullable && !seconds.has(f.name))
		.map((f) => ({ name: f.label, value: f.name }))
		.sort(byName);
	return {
		displayName: 'Fields to Clear',
		name: 'fieldsToClear',
		type: 'multiOptions',
		options,
		default: [],
		description:
			'Fields to empty on the record: sent as null, or as an empty list for tags. A field cannot be both updated and cleared.',
	};
}
