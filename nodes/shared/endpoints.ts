/**
 * The single table of endpoint facts for API v1: methods, paths, every query
 * parameter and body field with type, bounds and allowed values, and the
 * assumptions each endpoint rests on (by name, see `assumptions.ts`). The node
 * builds its fields and requests from it, the sandbox validates against it,
 * and the tests and the OpenAPI document are checked against it.
 */
import type { AssumptionName } from './assumptions';

export const LIMITS = {
	pageSizeMax: 200,
	pageSizeDefault: 50,
	idsMax: 200,
	ccEmailMax: 10,
	ratePerMinute: 120, // per key owner: all keys of one user share it (sharedRateBudget)
	signedLinkTtlMs: 60 * 60 * 1000, // how long the sandbox's signed links last (signedLinksWithoutKey)
	photoMaxBytes: 10 * 1024 * 1024,
	documentMaxBytes: 10 * 1024 * 1024,
	reportMaxBytes: 25 * 1024 * 1024,
} as const;

/** Allowed file extensions and the content types that match each (upload rules). */
const IMAGE_TYPES = {
	jpg: ['image/jpeg'],
	jpeg: ['image/jpeg'],
	png: ['image/png'],
	gif: ['image/gif'],
	webp: ['image/webp'],
} as const;
const OFFICE_TYPES = {
	pdf: ['application/pdf'],
	doc: ['application/msword'],
	docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	xls: ['application/vnd.ms-excel'],
	xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
	jpg: IMAGE_TYPES.jpg,
	png: IMAGE_TYPES.png,
	gif: IMAGE_TYPES.gif,
} as const;

type FileRule = {
	maxBytes: number;
	types: Readonly<Record<string, readonly string[]>>;
};

export const FILE_RULES = {
	photo: { maxBytes: LIMITS.photoMaxBytes, types: IMAGE_TYPES },
	report: { maxBytes: LIMITS.reportMaxBytes, types: OFFICE_TYPES },
	document: {
		maxBytes: LIMITS.documentMaxBytes,
		types: {
			...OFFICE_TYPES,
			txt: ['text/plain'],
			csv: ['text/csv'],
			webp: IMAGE_TYPES.webp,
		},
	},
} as const satisfies Record<'photo' | 'report' | 'document', FileRule>;

/** The id format of every record (`uuid` in the spec); the editor and the local checks share it. */
export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const CONTACT_ROLES = [
	'Customer',
	'Buyer Agent',
	'Listing Agent',
	'Sub Contractor',
	'Insurance Agent',
	'Lender',
	'Builder',
	'Transaction Coordinator',
	'Attorney',
	'Title Company',
	'Others',
] as const;

export type ContactRole = (typeof CONTACT_ROLES)[number];

/** The role groups the `role` filter takes besides exact roles: an agent is a buyer's or listing agent, a client the customer. */
export const CONTACT_ROLE_GROUPS = {
	agent: ['Buyer Agent', 'Listing Agent'],
	client: ['Customer'],
} as const satisfies Record<string, readonly ContactRole[]>;

/** `role` filter values: the two groups plus every exact role. */
const CONTACT_ROLE_FILTERS = [
	...(Object.keys(CONTACT_ROLE_GROUPS) as (keyof typeof CONTACT_ROLE_GROUPS)[]),
	...CONTACT_ROLES,
] as const;

export const INSPECTION_STATUSES = ['draft', 'waiting', 'review', 'confirmed', 'canceled'] as const;
export const REPORT_STATUSES = ['na', 'pending', 'partial', 'published'] as const;
export const ATTACHMENT_KINDS = ['report', 'document'] as const;

/** The webhook events the sandbox sends, and the webhook trigger filters on, with their labels. */
export const WEBHOOK_EVENT_LABELS = {
	'inspection.confirmed': 'Inspection Confirmed',
	'inspection.rescheduled': 'Inspection Rescheduled',
	'inspection.canceled': 'Inspection Canceled',
	'inspection.published': 'Inspection Report Published',
	'contact.changed': 'Contact Changed',
} as const;
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_LABELS) as Array<
	keyof typeof WEBHOOK_EVENT_LABELS
>;

/**
 * Where a webhook payload carries its event name and its record id, first found wins
 * (webhookPayloadFields). In an envelope the top-level `id` is the delivery's own id, so it is
 * the record id only as a last resort; whenever the record id came from another field and differs
 * from it, it is the delivery id, the same on every repeat of one delivery. A top-level `id` equal
 * to the record id names the record: such a delivery has no delivery id.
 */
export const WEBHOOK_PAYLOAD_KEYS = {
	event: ['event', 'type', 'kind'],
	recordId: [
		'data.id',
		'data.inspection_id',
		'data.contact_id',
		'inspection_id',
		'contact_id',
		'id',
	],
	deliveryId: 'id',
} as const;

/**
 * Wire types. `id-list` is a comma-separated list of ids (at most LIMITS.idsMax);
 * `string-array` is repeated (`tag=a&tag=b`, queryValueEncoding); `timestamp` is an ISO 8601
 * date or date-time; `sort` is a field name from `sortFields`, `-` for descending.
 */
type ParamType =
	| 'string'
	| 'uuid'
	| 'id-list'
	| 'string-array'
	| 'integer'
	| 'boolean'
	| 'enum'
	| 'timestamp'
	| 'cursor'
	| 'sort';

export interface QueryParam {
	name: string;
	type: ParamType;
	label: string;
	description: string;
	min?: number;
	max?: number;
	default?: number;
	maxItems?: number;
	values?: readonly string[];
	assumption?: AssumptionName;
}

type FieldType =
	| 'string'
	| 'email'
	| 'email-list'
	| 'country'
	| 'date'
	| 'uuid'
	| 'uuid-array'
	| 'string-array'
	| 'string-map'
	| 'boolean'
	| 'enum'
	| 'file';

export interface BodyField {
	name: string;
	type: FieldType;
	label: string;
	description: string;
	required?: boolean;
	nullable: boolean;
	maxItems?: number;
	values?: readonly string[];
}

export interface Endpoint {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	path: string;
	summary: string;
	/** Path placeholders, in order; an unknown id answers 404 (unknownIdAnswers404). */
	pathParams: readonly string[];
	query: readonly QueryParam[];
	body?: {
		encoding: 'json' | 'multipart';
		schema: string;
		fields: readonly BodyField[];
		/** Mutually exclusive pairs: sending both is a 400. */
		exclusive?: readonly (readonly [string, string])[];
	};
	/**
	 * For list endpoints: the record schema, and the id-list parameter by which Get reads
	 * records, as the API has no path for one record (noSingleRecordPath).
	 */
	list?: { record: string; idsParam?: 'ids' | 'contact_ids'; sortFields?: readonly string[] };
	response: { status: 200 | 201; schema: string };
	assumptions: readonly AssumptionName[];
}

const CURSOR: QueryParam = {
	name: 'cursor',
	type: 'cursor',
	label: 'Cursor',
	description: 'The next_cursor of the previous page',
};
const LIMIT: QueryParam = {
	name: 'limit',
	type: 'integer',
	label: 'Limit',
	description: 'Page size',
	min: 1,
	max: LIMITS.pageSizeMax,
	default: LIMITS.pageSizeDefault,
};
const PAGING = [CURSOR, LIMIT] as const;

const ids = (what: string): QueryParam => ({
	name: 'ids',
	type: 'id-list',
	label: 'IDs',
	description: `Comma-separated ${what} IDs, up to ${LIMITS.idsMax}; unknown IDs are left out`,
	maxItems: LIMITS.idsMax,
});
const updatedSince = (what: string): QueryParam => ({
	name: 'updated_since',
	type: 'timestamp',
	label: 'Updated Since',
	description: `Only ${what} created or changed at or after this time`,
	assumption: 'updatedSinceInclusive',
});
const sort = (fields: readonly string[], assumption?: AssumptionName): QueryParam => ({
	name: 'sort',
	type: 'sort',
	label: 'Sort',
	description: 'Field to sort by; default order is by ID',
	values: fields,
	assumption,
});
const boolParam = (name: string, label: string, description: string): QueryParam => ({
	name,
	type: 'boolean',
	label,
	description,
});
const kindParam: QueryParam = {
	name: 'kind',
	type: 'enum',
	label: 'Kind',
	description: 'Additional report or additional document',
	values: ATTACHMENT_KINDS,
};
const visibleToClient = boolParam(
	'visible_to_client',
	'Visible to Client',
	'Whether to list only client-visible attachments (true) or only inspector-only documents (false)',
);

const CONTACT_SORT_FIELDS = [
	'first_name',
	'last_name',
	'agency_name',
	'created_at',
	'updated_at',
] as const;
const INSPECTION_SORT_FIELDS = [
	'scheduled_for',
	'ends_at',
	'created_at',
	'updated_at',
	'canceled_at',
] as const; // the date fields (inspectionSortFields)

const text = (name: string, label: string, description = ''): BodyField => ({
	name,
	type: 'string',
	label,
	description,
	nullable: true,
});

/** ContactCreate's optional fields; ContactUpdate has the same set with none required. */
const CONTACT_FIELDS: readonly BodyField[] = [
	{ name: 'first_name', type: 'string', label: 'First Name', description: '', nullable: false },
	{ name: 'email', type: 'email', label: 'Email', description: '', nullable: false },
	text('last_name', 'Last Name'),
	{
		name: 'cc_email',
		type: 'email-list',
		label: 'CC Email',
		description: `Comma-separated CC addresses, up to ${LIMITS.ccEmailMax}`,
		nullable: true,
		maxItems: LIMITS.ccEmailMax,
	},
	text('phone', 'Phone'),
	text('business_name', 'Business Name'),
	text(
		'agency_name',
		'Agency Name',
		"A name matching one of the organization's agencies links the contact to it; Agency takes precedence",
	),
	text('address', 'Address'),
	text('address_line2', 'Address Line 2'),
	text('city', 'City'),
	text('state', 'State'),
	text('zip', 'ZIP'),
	{
		name: 'country',
		type: 'country',
		label: 'Country',
		description: 'ISO 3166 alpha-2 code',
		nullable: true,
	},
	{
		name: 'birthday',
		type: 'date',
		label: 'Birthday',
		description: 'A date (YYYY-MM-DD)',
		nullable: true,
	},
	text('website', 'Website', 'A link, such as https://www.example.com'),
	{
		name: 'social',
		type: 'string-map',
		label: 'Social',
		description: 'Network name to profile link',
		nullable: true,
	},
	text('notes', 'Notes'),
	{
		name: 'agency_id',
		type: 'uuid',
		label: 'Agency',
		description: 'Linked agency; takes precedence over Agency Name',
		nullable: true,
	},
	{
		name: 'uses_agency_address',
		type: 'boolean',
		label: 'Uses Agency Address',
		description: "Whether the contact's address follows the agency's address",
		nullable: true,
	},
	{
		name: 'tag_ids',
		type: 'uuid-array',
		label: 'Tag IDs',
		description: "Replaces the contact's tags with these IDs; an empty list removes all tags",
		nullable: true,
	},
	{
		name: 'tags',
		type: 'string-array',
		label: 'Tags',
		description: "Replaces the contact's tags with these names (case-insensitive); tags must exist",
		nullable: true,
	},
];

const TAG_EXCLUSIVE = [['tags', 'tag_ids']] as const;

export const ENDPOINTS = {
	listContacts: {
		method: 'GET',
		path: '/v1/contacts',
		summary: 'List contacts',
		pathParams: [],
		query: [
			ids('contact'),
			{
				name: 'role',
				type: 'enum',
				label: 'Role',
				description: `Agent (${CONTACT_ROLE_GROUPS.agent.join(' or ')}), Client (${CONTACT_ROLE_GROUPS.client.join(' or ')}), or an exact role`,
				values: CONTACT_ROLE_FILTERS,
			},
			{ name: 'tag_id', type: 'uuid', label: 'Tag ID', description: 'Only contacts with this tag' },
			{
				name: 'tag',
				type: 'string-array',
				label: 'Tag Names',
				description: 'Contacts with any of these tag names, case-insensitive',
			},
			{
				name: 'agency_id',
				type: 'uuid',
				label: 'Agency',
				description: 'Only contacts linked to this agency',
			},
			{
				name: 'email',
				type: 'string',
				label: 'Email',
				description: 'Exact match, case-insensitive',
			},
			{
				name: 'search',
				type: 'string',
				label: 'Search',
				description: 'Name, email, or phone (3 or more digits) contains',
			},
			updatedSince('contacts'),
			sort(CONTACT_SORT_FIELDS, 'cursorBoundToSort'),
			...PAGING,
		],
		list: { record: 'Contact', idsParam: 'ids', sortFields: CONTACT_SORT_FIELDS },
		response: { status: 200, schema: 'ContactList' },
		assumptions: ['noSingleRecordPath', 'updatedSinceInclusive', 'cursorBoundToSort'],
	},
	createContact: {
		method: 'POST',
		path: '/v1/contacts',
		summary: 'Create a contact',
		pathParams: [],
		query: [],
		body: {
			encoding: 'json',
			schema: 'ContactCreate',
			fields: CONTACT_FIELDS.map((f) =>
				f.name === 'first_name' || f.name === 'email' ? { ...f, required: true } : f,
			),
			exclusive: TAG_EXCLUSIVE,
		},
		response: { status: 201, schema: 'Contact' },
		assumptions: ['createAnswers201'],
	},
	updateContact: {
		method: 'PATCH',
		path: '/v1/contacts/{contact_id}',
		summary: 'Update a contact',
		pathParams: ['contact_id'],
		query: [],
		body: {
			encoding: 'json',
			schema: 'ContactUpdate',
			fields: CONTACT_FIELDS,
			exclusive: TAG_EXCLUSIVE,
		},
		response: { status: 200, schema: 'Contact' },
		assumptions: ['updateAnswers200', 'unknownIdAnswers404'],
	},
	uploadContactPhoto: {
		method: 'POST',
		path: '/v1/contacts/{contact_id}/photo',
		summary: "Upload or replace a contact's photo",
		pathParams: ['contact_id'],
		query: [],
		body: {
			encoding: 'multipart',
			schema: 'ContactPhotoUpload',
			fields: [
				{
					name: 'file',
					type: 'file',
					label: 'File',
					description: 'jpg, jpeg, png, gif or webp; up to 10 MB',
					required: true,
					nullable: false,
				},
			],
		},
		response: { status: 200, schema: 'Contact' },
		assumptions: ['unknownIdAnswers404', 'photoWritesReturnContact', 'attachmentFormFields'],
	},
	deleteContactPhoto: {
		method: 'DELETE',
		path: '/v1/contacts/{contact_id}/photo',
		summary: "Remove a contact's photo (idempotent)",
		pathParams: ['contact_id'],
		query: [],
		response: { status: 200, schema: 'Contact' },
		assumptions: ['unknownIdAnswers404', 'photoWritesReturnContact'],
	},
	listContactStats: {
		method: 'GET',
		path: '/v1/contacts/stats',
		summary: 'List inspection counts and revenue per contact',
		pathParams: [],
		query: [
			{
				name: 'contact_ids',
				type: 'id-list',
				label: 'Contact IDs',
				description: `Comma-separated contact IDs, up to ${LIMITS.idsMax}`,
				maxItems: LIMITS.idsMax,
				assumption: 'contactStatsPath',
			},
			{
				name: 'from',
				type: 'timestamp',
				label: 'From',
				description: 'Count inspections scheduled at or after this time',
				assumption: 'contactStatsPath',
			},
			{
				name: 'to',
				type: 'timestamp',
				label: 'To',
				description: 'Count inspections scheduled before this time',
				assumption: 'contactStatsPath',
			},
			...PAGING,
		],
		list: { record: 'ContactStats', idsParam: 'contact_ids' },
		response: { status: 200, schema: 'ContactStatsList' },
		assumptions: ['contactStatsPath', 'orderOfUnsortedLists', 'contactStatsRevenue'],
	},
	listTags: {
		method: 'GET',
		path: '/v1/tags',
		summary: 'List tags',
		pathParams: [],
		query: [...PAGING],
		list: { record: 'Tag' },
		response: { status: 200, schema: 'TagList' },
		assumptions: ['tagAndAgencyParams', 'orderOfUnsortedLists'],
	},
	listAgencies: {
		method: 'GET',
		path: '/v1/agencies',
		summary: 'List agencies',
		pathParams: [],
		query: [ids('agency'), ...PAGING],
		list: { record: 'Agency', idsParam: 'ids' },
		response: { status: 200, schema: 'AgencyList' },
		assumptions: ['noSingleRecordPath', 'tagAndAgencyParams', 'orderOfUnsortedLists'],
	},
	listInspections: {
		method: 'GET',
		path: '/v1/inspections',
		summary: 'List inspections',
		pathParams: [],
		query: [
			{
				...ids('inspection'),
				description: `${ids('inspection').description}; also returns canceled inspections`,
			},
			updatedSince('inspections'),
			boolParam(
				'include_deleted',
				'Include Deleted',
				'Whether to also return deleted inspections (deleted: true)',
			),
			boolParam(
				'include_canceled',
				'Include Canceled',
				'Whether to also return canceled inspections',
			),
			sort(INSPECTION_SORT_FIELDS, 'cursorBoundToSort'),
			...PAGING,
		],
		list: { record: 'Inspection', idsParam: 'ids', sortFields: INSPECTION_SORT_FIELDS },
		response: { status: 200, schema: 'InspectionList' },
		assumptions: [
			'noSingleRecordPath',
			'updatedSinceInclusive',
			'cursorBoundToSort',
			'inspectionSortFields',
		],
	},
	listEvents: {
		method: 'GET',
		path: '/v1/events',
		summary: 'List inspection events (appointments)',
		pathParams: [],
		query: [
			{
				name: 'inspection_id',
				type: 'uuid',
				label: 'Inspection ID',
				description: 'Only appointments of this inspection',
				assumption: 'eventsPath',
			},
			{ ...ids('appointment'), assumption: 'eventsPath' },
			{ ...updatedSince('appointments'), assumption: 'eventsPath' },
			...PAGING,
		],
		list: { record: 'Event', idsParam: 'ids' },
		response: { status: 200, schema: 'EventList' },
		assumptions: ['eventsPath', 'orderOfUnsortedLists'],
	},
	listInspectionAttachments: {
		method: 'GET',
		path: '/v1/inspections/{inspection_id}/attachments',
		summary: "List an inspection's attachments",
		pathParams: ['inspection_id'],
		query: [kindParam, visibleToClient, ...PAGING],
		list: { record: 'Attachment' },
		response: { status: 200, schema: 'AttachmentList' },
		assumptions: ['unknownIdAnswers404', 'attachmentListsPaginate'],
	},
	listAttachments: {
		method: 'GET',
		path: '/v1/attachments',
		summary: 'List attachments account-wide, newest change first',
		pathParams: [],
		query: [
			updatedSince('attachments'),
			kindParam,
			visibleToClient,
			{
				name: 'inspection_id',
				type: 'uuid',
				label: 'Inspection ID',
				description: 'Only attachments of this inspection',
			},
			...PAGING,
		],
		list: { record: 'Attachment' },
		response: { status: 200, schema: 'AttachmentList' },
		assumptions: ['updatedSinceInclusive', 'orderOfUnsortedLists', 'attachmentListsPaginate'],
	},
	uploadAttachment: {
		method: 'POST',
		path: '/v1/inspections/{inspection_id}/attachments',
		summary: 'Upload an additional report or document',
		pathParams: ['inspection_id'],
		query: [],
		body: {
			encoding: 'multipart',
			schema: 'AttachmentUpload',
			fields: [
				{ ...kindParam, type: 'enum', required: true, nullable: false },
				{
					name: 'file',
					type: 'file',
					label: 'File',
					description: 'Required for a document; optional for a report',
					nullable: false,
				},
				{
					name: 'name',
					type: 'string',
					label: 'Name',
					description: 'Required for a report',
					nullable: false,
				},
				{
					name: 'description',
					type: 'string',
					label: 'Description',
					description: 'Report description; may contain a link',
					nullable: false,
				},
				{
					name: 'internal_only',
					type: 'boolean',
					label: 'Internal Only',
					description: 'Whether to keep the document inspector-only (documents only)',
					nullable: false,
				},
			],
		},
		response: { status: 201, schema: 'Attachment' },
		assumptions: ['unknownIdAnswers404', 'attachmentFormFields'],
	},
} as const satisfies Record<string, Endpoint>;

export type EndpointKey = keyof typeof ENDPOINTS;

/** Record fields holding signed links, which never get the API key (signedLinksWithoutKey). */
export const SIGNED_LINK_FIELDS = ['url', 'photo_url', 'cover_photo_url'] as const;

/** Substitute `{placeholders}` in an endpoint path, encoding each value. */
export function endpointPath(key: EndpointKey, params: Record<string, string> = {}): string {
	return ENDPOINTS[key].path.replace(/\{(\w+)\}/g, (_m, name: string) => {
		const value = params[name];
		if (value === undefined) throw new Error(`Missing path parameter ${name}`);
		return encodeURIComponent(value);
	});
}

/**
 * The list parameter that takes record ids (`ids`, or `contact_ids` for contact statistics), by
 * which Get reads records; undefined for a list that cannot be read by ids.
 */
export function idsParamOf(key: EndpointKey): 'ids' | 'contact_ids' | undefined {
	const endpoint: Endpoint = ENDPOINTS[key];
	return endpoint.list?.idsParam;
}
