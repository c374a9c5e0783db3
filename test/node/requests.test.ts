/**
 * The request table: every operation of the action node, its parameters and
 * exactly what goes on the wire (method, path, query, JSON body or multipart
 * form, in order), read from the sandbox's request log after a real run
 * through n8n-core. `<name>` in a row stands for a record of the demo seed,
 * picked in beforeAll (FIXTURES). Behaviour beyond one request (batching,
 * paging, errors, retries) has its own tests in this folder.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SAMPLE_FILES } from '../../sandbox/samples';
import type { LogEntry } from '../../sandbox/requestlog';
import { allOperations, operationFields, operationPathFields } from '../support/fieldMap';
import type { TestItem } from '../helpers/n8n';
import { withSandbox } from '../helpers/n8n';
import { api, requests, run } from './support';

const sandbox = withSandbox();

interface Wire {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	path: string;
	query?: IDataObject;
	body?: IDataObject;
	form?: { fields: IDataObject; files: IDataObject[] };
}

interface Row {
	/** Shown after resource and operation in the test's name. */
	title: string;
	parameters: INodeParameters & { resource: string; operation: string };
	items?: TestItem[];
	/** Every request the run makes, in order. */
	wire: Wire[];
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const file = (data: Buffer, fileName: string, mimeType: string): TestItem[] => [
	{ json: {}, binary: { data: { data, fileName, mimeType } } },
];
/** A signed link's query: fresh on every read, so only its shape is fixed. */
const SIGNED = { expires: expect.any(String), sig: expect.any(String) };
const SINCE = '2024-01-02T03:04:05Z';
const FROM = '2020-01-01T00:00:00Z';
const TO = '2030-01-01T00:00:00Z';

/**
 * Each list's filters, every one set, as the node takes them and as they go on the wire. Count
 * sends them with `limit=1`; Get Many (Limit 5, sorted where the list sorts) with a full page.
 */
const LISTS: Array<{
	resource: string;
	path: string;
	filters: INodeParameters;
	query: IDataObject;
	sort?: { parameters: INodeParameters; query: string };
}> = [
	{
		resource: 'agency',
		path: '/v1/agencies',
		filters: { ids: '<agency>' },
		query: { ids: '<agency>' },
	},
	{
		resource: 'attachment',
		path: '/v1/attachments',
		filters: {
			inspection_id: byId('<report inspection>'),
			kind: 'report',
			updated_since: SINCE,
			visible_to_client: true,
		},
		query: {
			inspection_id: '<report inspection>',
			kind: 'report',
			updated_since: SINCE,
			visible_to_client: 'true',
		},
	},
	{
		resource: 'contact',
		path: '/v1/contacts',
		filters: {
			agency_id: byId('<agency>'),
			email: 'someone@example.com',
			ids: '<contact>, <other contact>',
			role: 'agent',
			search: 'mar',
			tag_id: '<tag id>',
			tag: ['<tag>', 'Top Agent'],
			updated_since: SINCE,
		},
		query: {
			agency_id: '<agency>',
			email: 'someone@example.com',
			ids: '<contact>,<other contact>',
			role: 'agent',
			search: 'mar',
			tag_id: '<tag id>',
			tag: ['<tag>', 'Top Agent'],
			updated_since: SINCE,
		},
		sort: { parameters: { sort: 'last_name', sortDirection: 'desc' }, query: '-last_name' },
	},
	{
		resource: 'inspection',
		path: '/v1/inspections',
		filters: {
			ids: '<confirmed inspection>',
			include_canceled: true,
			include_deleted: true,
			updated_since: SINCE,
		},
		query: {
			ids: '<confirmed inspection>',
			include_canceled: 'true',
			include_deleted: 'true',
			updated_since: SINCE,
		},
		sort: { parameters: { sort: 'scheduled_for', sortDirection: 'asc' }, query: 'scheduled_for' },
	},
	{
		resource: 'inspectionEvent',
		path: '/v1/events',
		filters: { ids: '<event>', inspection_id: byId('<event inspection>'), updated_since: SINCE },
		query: { ids: '<event>', inspection_id: '<event inspection>', updated_since: SINCE },
	},
	{ resource: 'tag', path: '/v1/tags', filters: {}, query: {} },
];

function countAndGetMany({ resource, path, filters, query, sort }: (typeof LISTS)[number]): Row[] {
	const every = Object.keys(filters).length > 0 ? 'every filter' : 'no filter';
	return [
		{
			title: every,
			parameters: { resource, operation: 'count', filters },
			wire: [{ method: 'GET', path, query: { ...query, limit: '1' } }],
		},
		{
			title: `${every}${sort ? ', sorted' : ''}, Limit 5`,
			parameters: { resource, operation: 'getAll', limit: 5, ...sort?.parameters, filters },
			wire: [
				{
					method: 'GET',
					path,
					query: { ...query, ...(sort ? { sort: sort.query } : {}), limit: '200' },
				},
			],
		},
	];
}

const rows: Row[] = [
	// Agency
	{
		title: 'one item',
		parameters: { resource: 'agency', operation: 'get', id: byId('<agency>') },
		wire: [{ method: 'GET', path: '/v1/agencies', query: { ids: '<agency>', limit: '200' } }],
	},
	// Attachment
	{
		title: 'from the attachment list: the list, then the signed link without the key',
		parameters: {
			resource: 'attachment',
			operation: 'download',
			inspection_id: byId('<report inspection>'),
			attachment_id: byId('<report>'),
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/inspections/<report inspection>/attachments',
				query: { limit: '200' },
			},
			{ method: 'GET', path: '<report file>', query: SIGNED },
		],
	},
	{
		title: 'by URL: only the signed link',
		parameters: {
			resource: 'attachment',
			operation: 'download',
			source: 'url',
			url: '<report url>',
		},
		wire: [{ method: 'GET', path: '<report file>', query: SIGNED }],
	},
	{
		title: 'one item: the inspection’s list',
		parameters: {
			resource: 'attachment',
			operation: 'get',
			inspection_id: byId('<report inspection>'),
			attachment_id: byId('<report>'),
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/inspections/<report inspection>/attachments',
				query: { limit: '200' },
			},
		],
	},
	{
		title: 'every filter, Return All',
		parameters: {
			resource: 'attachment',
			operation: 'getAllForInspection',
			inspection_id: byId('<report inspection>'),
			returnAll: true,
			filters: { kind: 'report', visible_to_client: true },
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/inspections/<report inspection>/attachments',
				query: { kind: 'report', visible_to_client: 'true', limit: '200' },
			},
		],
	},
	{
		title: 'a report: its list (Skip Duplicates), then the file and fields as multipart',
		parameters: {
			resource: 'attachment',
			operation: 'upload',
			inspection_id: byId('<confirmed inspection>'),
			kind: 'report',
			name: 'Radon Report',
			description: 'Short-term test',
			uploadOptions: { contentType: 'application/pdf' },
		},
		items: file(SAMPLE_FILES.pdf, 'radon.pdf', 'application/octet-stream'),
		wire: [
			{
				method: 'GET',
				path: '/v1/inspections/<confirmed inspection>/attachments',
				query: { kind: 'report', limit: '200' },
			},
			{
				method: 'POST',
				path: '/v1/inspections/<confirmed inspection>/attachments',
				form: {
					fields: { kind: 'report', name: 'Radon Report', description: 'Short-term test' },
					files: [
						{
							field: 'file',
							filename: 'radon.pdf',
							contentType: 'application/pdf',
							size: SAMPLE_FILES.pdf.length,
						},
					],
				},
			},
		],
	},
	{
		title: 'a report without a file, Skip Duplicates off: the fields only',
		parameters: {
			resource: 'attachment',
			operation: 'upload',
			inspection_id: byId('<confirmed inspection>'),
			kind: 'report',
			name: 'Sewer scope video',
			description: 'https://video.example.com/scope',
			sendFile: false,
			skipDuplicates: false,
		},
		wire: [
			{
				method: 'POST',
				path: '/v1/inspections/<confirmed inspection>/attachments',
				form: {
					fields: {
						kind: 'report',
						name: 'Sewer scope video',
						description: 'https://video.example.com/scope',
					},
					files: [],
				},
			},
		],
	},
	{
		title: 'a document, internal only: no list (Skip Duplicates is off for documents)',
		parameters: {
			resource: 'attachment',
			operation: 'upload',
			inspection_id: byId('<confirmed inspection>'),
			kind: 'document',
			name: 'Access notes',
			internal_only: true,
		},
		items: file(SAMPLE_FILES.txt, 'access.txt', 'text/plain'),
		wire: [
			{
				method: 'POST',
				path: '/v1/inspections/<confirmed inspection>/attachments',
				form: {
					fields: { kind: 'document', name: 'Access notes', internal_only: 'true' },
					files: [
						{
							field: 'file',
							filename: 'access.txt',
							contentType: 'text/plain',
							size: SAMPLE_FILES.txt.length,
						},
					],
				},
			},
		],
	},
	// Contact
	{
		title: 'every field, tags by name, the agency by name',
		parameters: {
			resource: 'contact',
			operation: 'create',
			first_name: 'Ada',
			email: 'ada@example.com',
			additionalFields: {
				address: '1 Main St',
				address_line2: 'Unit 2',
				agency_name: 'Lovelace Realty',
				birthday: '1990-12-10',
				business_name: 'Analytical Engines',
				cc_email: 'office@example.com',
				city: 'Boulder',
				country: 'us',
				last_name: 'Lovelace',
				notes: 'Prefers email',
				phone: '555-0100',
				social: { profiles: [{ network: 'linkedin', url: 'https://linkedin.com/in/ada' }] },
				state: 'CO',
				tags: ['<tag>'],
				uses_agency_address: false,
				website: 'https://ada.example.com',
				zip: '80301',
			},
		},
		wire: [
			{
				method: 'POST',
				path: '/v1/contacts',
				body: {
					first_name: 'Ada',
					email: 'ada@example.com',
					address: '1 Main St',
					address_line2: 'Unit 2',
					agency_name: 'Lovelace Realty',
					birthday: '1990-12-10',
					business_name: 'Analytical Engines',
					cc_email: 'office@example.com',
					city: 'Boulder',
					country: 'US',
					last_name: 'Lovelace',
					notes: 'Prefers email',
					phone: '555-0100',
					social: { linkedin: 'https://linkedin.com/in/ada' },
					state: 'CO',
					tags: ['<tag>'],
					uses_agency_address: false,
					website: 'https://ada.example.com',
					zip: '80301',
				},
			},
		],
	},
	{
		title: 'tags by ID, the agency by ID',
		parameters: {
			resource: 'contact',
			operation: 'create',
			first_name: 'Grace',
			email: 'grace@example.com',
			additionalFields: { agency_id: byId('<agency>'), tag_ids: ['<tag id>'] },
		},
		wire: [
			{
				method: 'POST',
				path: '/v1/contacts',
				body: {
					first_name: 'Grace',
					email: 'grace@example.com',
					agency_id: '<agency>',
					tag_ids: ['<tag id>'],
				},
			},
		],
	},
	{
		title: 'the photo',
		parameters: {
			resource: 'contact',
			operation: 'deletePhoto',
			contact_id: byId('<photo contact>'),
		},
		wire: [{ method: 'DELETE', path: '/v1/contacts/<photo contact>/photo' }],
	},
	{
		title: 'the record, then its photo’s signed link without the key',
		parameters: { resource: 'contact', operation: 'downloadPhoto', id: byId('<contact>') },
		wire: [
			{ method: 'GET', path: '/v1/contacts', query: { ids: '<contact>', limit: '200' } },
			{ method: 'GET', path: '<contact photo file>', query: SIGNED },
		],
	},
	{
		title: 'one item',
		parameters: { resource: 'contact', operation: 'get', id: byId('<contact>') },
		wire: [{ method: 'GET', path: '/v1/contacts', query: { ids: '<contact>', limit: '200' } }],
	},
	{
		title: 'the address as given',
		parameters: { resource: 'contact', operation: 'getByEmail', email: '<CONTACT EMAIL>' },
		wire: [
			{ method: 'GET', path: '/v1/contacts', query: { email: '<CONTACT EMAIL>', limit: '200' } },
		],
	},
	{
		title: 'the fields set and cleared, nothing else',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contact_id: byId('<other contact>'),
			updateFields: { city: 'Boulder', tags: ['<tag>'], phone: '' },
			fieldsToClear: ['notes', 'agency_id'],
		},
		wire: [
			{
				method: 'PATCH',
				path: '/v1/contacts/<other contact>',
				body: { city: 'Boulder', tags: ['<tag>'], notes: null, agency_id: null },
			},
		],
	},
	{
		title: 'every other field, tags by ID, the agency by name',
		parameters: {
			resource: 'contact',
			operation: 'update',
			contact_id: byId('<other contact>'),
			updateFields: {
				address: '1 Main St',
				address_line2: 'Unit 2',
				agency_name: 'Lovelace Realty',
				birthday: '1990-12-10',
				business_name: 'Analytical Engines',
				cc_email: 'office@example.com',
				country: 'us',
				email: 'ada.new@example.com',
				first_name: 'Ada',
				last_name: 'Lovelace',
				phone: '555-0100',
				social: { profiles: [{ network: 'linkedin', url: 'https://linkedin.com/in/ada' }] },
				state: 'CO',
				tag_ids: ['<tag id>'],
				uses_agency_address: false,
				website: 'https://ada.example.com',
				zip: '80301',
			},
		},
		wire: [
			{
				method: 'PATCH',
				path: '/v1/contacts/<other contact>',
				body: {
					address: '1 Main St',
					address_line2: 'Unit 2',
					agency_name: 'Lovelace Realty',
					birthday: '1990-12-10',
					business_name: 'Analytical Engines',
					cc_email: 'office@example.com',
					country: 'US',
					email: 'ada.new@example.com',
					first_name: 'Ada',
					last_name: 'Lovelace',
					phone: '555-0100',
					social: { linkedin: 'https://linkedin.com/in/ada' },
					state: 'CO',
					tag_ids: ['<tag id>'],
					uses_agency_address: false,
					website: 'https://ada.example.com',
					zip: '80301',
				},
			},
		],
	},
	{
		title: 'the binary as multipart `file`, with the Content Type option',
		parameters: {
			resource: 'contact',
			operation: 'uploadPhoto',
			contact_id: byId('<other contact>'),
			uploadOptions: { contentType: 'image/png' },
		},
		items: file(SAMPLE_FILES.png, 'face.png', 'application/octet-stream'),
		wire: [
			{
				method: 'POST',
				path: '/v1/contacts/<other contact>/photo',
				form: {
					fields: {},
					files: [
						{
							field: 'file',
							filename: 'face.png',
							contentType: 'image/png',
							size: SAMPLE_FILES.png.length,
						},
					],
				},
			},
		],
	},
	{
		title: 'a known email: looked up, then updated without the email',
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			email: '<CONTACT EMAIL>',
			first_name: '',
			additionalFields: { city: 'Denver', agency_id: byId('<agency>'), tags: ['<tag>'] },
			fieldsToClear: ['notes'],
		},
		wire: [
			{ method: 'GET', path: '/v1/contacts', query: { email: '<CONTACT EMAIL>', limit: '200' } },
			{
				method: 'PATCH',
				path: '/v1/contacts/<contact>',
				body: { city: 'Denver', agency_id: '<agency>', tags: ['<tag>'], notes: null },
			},
		],
	},
	{
		title: 'a new email, every other field: looked up, then created',
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			email: 'new.person@example.com',
			first_name: 'New',
			additionalFields: {
				address: '1 Main St',
				address_line2: 'Unit 2',
				agency_name: 'Lovelace Realty',
				birthday: '1990-12-10',
				business_name: 'Analytical Engines',
				cc_email: 'office@example.com',
				country: 'us',
				last_name: 'Person',
				phone: '555-0100',
				social: { profiles: [{ network: 'linkedin', url: 'https://linkedin.com/in/ada' }] },
				state: 'CO',
				tag_ids: ['<tag id>'],
				uses_agency_address: false,
				website: 'https://ada.example.com',
				zip: '80301',
			},
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/contacts',
				query: { email: 'new.person@example.com', limit: '200' },
			},
			{
				method: 'POST',
				path: '/v1/contacts',
				body: {
					first_name: 'New',
					address: '1 Main St',
					address_line2: 'Unit 2',
					agency_name: 'Lovelace Realty',
					birthday: '1990-12-10',
					business_name: 'Analytical Engines',
					cc_email: 'office@example.com',
					country: 'US',
					last_name: 'Person',
					phone: '555-0100',
					social: { linkedin: 'https://linkedin.com/in/ada' },
					state: 'CO',
					tag_ids: ['<tag id>'],
					uses_agency_address: false,
					website: 'https://ada.example.com',
					zip: '80301',
					email: 'new.person@example.com',
				},
			},
		],
	},
	// Contact statistics
	{
		title: 'one item, From and To',
		parameters: {
			resource: 'contactStats',
			operation: 'get',
			id: byId('<contact>'),
			options: { from: FROM, to: TO },
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/contacts/stats',
				query: { contact_ids: '<contact>', from: FROM, to: TO, limit: '200' },
			},
		],
	},
	{
		title: 'every filter, Limit 5',
		parameters: {
			resource: 'contactStats',
			operation: 'getAll',
			limit: 5,
			filters: { contact_ids: '<contact>, <other contact>', from: FROM, to: TO },
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/contacts/stats',
				query: { contact_ids: '<contact>,<other contact>', from: FROM, to: TO, limit: '200' },
			},
		],
	},
	// Inspection
	{
		title: 'the record, then its cover photo’s signed link without the key',
		parameters: {
			resource: 'inspection',
			operation: 'downloadCoverPhoto',
			id: byId('<cover inspection>'),
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/inspections',
				query: { ids: '<cover inspection>', limit: '200' },
			},
			{ method: 'GET', path: '<cover photo file>', query: SIGNED },
		],
	},
	{
		title: 'one item, Include Deleted',
		parameters: {
			resource: 'inspection',
			operation: 'get',
			id: byId('<confirmed inspection>'),
			options: { include_deleted: true },
		},
		wire: [
			{
				method: 'GET',
				path: '/v1/inspections',
				query: { ids: '<confirmed inspection>', include_deleted: 'true', limit: '200' },
			},
		],
	},
	// Inspection event
	{
		title: 'one item',
		parameters: { resource: 'inspectionEvent', operation: 'get', id: byId('<event>') },
		wire: [{ method: 'GET', path: '/v1/events', query: { ids: '<event>', limit: '200' } }],
	},
	...LISTS.flatMap(countAndGetMany),
];

/** The demo-seed records the rows name, by placeholder. */
const FIXTURES: Record<string, string> = {};

beforeAll(async () => {
	type Page = { data: IDataObject[] };
	const first = async (
		path: string,
		query: Record<string, string>,
		pick: (r: IDataObject) => unknown,
	) => {
		const found = (await api<Page>(sandbox, path, { ...query, limit: '200' })).data.find((r) =>
			pick(r),
		);
		if (!found) throw new Error(`No fixture in ${path} ${JSON.stringify(query)}`);
		return found;
	};
	const contacts = (await api<Page>(sandbox, '/v1/contacts', { limit: '200' })).data;
	const withPhoto = contacts.filter((c) => c.photo_url && c.email);
	const [contact, photoContact] = withPhoto;
	const other = contacts.find((c) => !withPhoto.includes(c)) as IDataObject;
	const report = await first('/v1/attachments', { kind: 'report' }, (a) => a.url);
	const cover = await first('/v1/inspections', {}, (i) => i.cover_photo_url);
	const confirmed = await first('/v1/inspections', {}, (i) => i.status === 'confirmed');
	const event = await first('/v1/events', {}, () => true);
	const tag = await first('/v1/tags', {}, () => true);
	const agency = await first('/v1/agencies', {}, () => true);
	Object.assign(FIXTURES, {
		'<agency>': String(agency.id),
		'<tag>': String(tag.name),
		'<tag id>': String(tag.id),
		'<contact>': String(contact.id),
		'<CONTACT EMAIL>': String(contact.email).toUpperCase(),
		'<contact photo file>': new URL(String(contact.photo_url)).pathname,
		'<photo contact>': String(photoContact.id),
		'<other contact>': String(other.id),
		'<report>': String(report.id),
		'<report inspection>': String(report.inspection_id),
		'<report url>': String(report.url),
		'<report file>': new URL(String(report.url)).pathname,
		'<cover inspection>': String(cover.id),
		'<cover photo file>': new URL(String(cover.cover_photo_url)).pathname,
		'<confirmed inspection>': String(confirmed.id),
		'<event>': String(event.id),
		'<event inspection>': String(event.inspection_id),
	});
});

/** The row with every `<name>` replaced by its record; jest's matchers are left as they are. */
function filled<T>(value: T): T {
	if (typeof value === 'string')
		return value.replace(/<[^<>]+>/g, (name) => FIXTURES[name] ?? name) as T;
	if (Array.isArray(value)) return value.map(filled) as T;
	if (
		value &&
		typeof value === 'object' &&
		!Buffer.isBuffer(value) &&
		!('asymmetricMatch' in value)
	)
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v)])) as T;
	return value;
}

/** What the log shows of a request, in the table's shape. */
function onTheWire(entry: LogEntry): Wire {
	return {
		method: entry.method as Wire['method'],
		path: entry.path,
		query: entry.query,
		...(entry.body === undefined ? {} : { body: entry.body as IDataObject }),
		...(entry.form === undefined ? {} : { form: entry.form as unknown as Wire['form'] }),
	};
}

test.each(rows)('$parameters.resource · $parameters.operation: $title', async (row) => {
	const { error } = await run(sandbox, filled(row.parameters), { items: filled(row.items) });
	expect(error).toBeUndefined();
	const log = await requests(sandbox);
	expect(log.map(onTheWire)).toEqual(filled(row.wire).map((wire) => ({ query: {}, ...wire })));
	for (const entry of log) {
		expect(entry.status).toBeLessThan(300);
		// The API key goes to the API only, never to a signed link.
		expect(entry.key === null).toBe(entry.path.startsWith('/files/'));
	}
});

test('every operation has a row, and its rows send every field it offers', () => {
	const sent = (row: Row) =>
		row.wire.flatMap((wire) => [
			...Object.keys(wire.query ?? {}),
			...Object.keys(wire.body ?? {}),
			...Object.keys(wire.form?.fields ?? {}),
			...(wire.form?.files ?? []).map((f) => String(f.field)),
		]);
	for (const { resource, operation } of allOperations()) {
		const own = rows.filter(
			(r) => r.parameters.resource === resource && r.parameters.operation === operation,
		);
		expect({ resource, operation, rows: own.length > 0 }).toEqual({
			resource,
			operation,
			rows: true,
		});
		const onWire = new Set([...own.flatMap(sent), ...operationPathFields(resource, operation)]);
		const missing = operationFields(resource, operation)
			.map((f) => f.wireName)
			.filter((name) => !onWire.has(name));
		expect({ resource, operation, missing }).toEqual({ resource, operation, missing: [] });
	}
});
