/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the API's records, written
 * from api-v1.md's resource tables. Every field is listed and required, and no
 * other is allowed, so the contract test catches a sandbox that adds, drops or
 * mistypes one.
 */
import { ASSUMPTIONS } from '../nodes/shared/assumptions';
import {
	ATTACHMENT_KINDS,
	CONTACT_ROLES,
	INSPECTION_STATUSES,
	REPORT_STATUSES,
} from '../nodes/shared/endpoints';

export type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const strOrNull: Schema = { type: ['string', 'null'] };
const uuid: Schema = { type: 'string', format: 'uuid' };
const uuidOrNull: Schema = { type: ['string', 'null'], format: 'uuid' };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const dateTimeOrNull: Schema = { type: ['string', 'null'], format: 'date-time' };
const numOrNull: Schema = { type: ['number', 'null'] };
const intOrNull: Schema = { type: ['integer', 'null'] };
const bool: Schema = { type: 'boolean' };
const int: Schema = { type: 'integer', minimum: 0 };
const signedLink = (what: string): Schema => ({
	type: ['string', 'null'],
	format: 'uri',
	description: `${what}: a signed link valid for 1 hour; it needs no key (signedLinksWithoutKey: ${ASSUMPTIONS.signedLinksWithoutKey.statement})`,
});

/** An object whose every property is required and no other is allowed. */
export function record(properties: Record<string, Schema>, description?: string): Schema {
	return {
		type: 'object',
		...(description ? { description } : {}),
		properties,
		required: Object.keys(properties),
		additionalProperties: false,
	};
}
const nullableRecord = (properties: Record<string, Schema>, description?: string): Schema => ({
	...record(properties, description),
	type: ['object', 'null'],
});
const named = record({ id: str, name: strOrNull });
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

const Contact = record({
	id: uuid,
	first_name: str,
	last_name: strOrNull,
	email: { type: 'string', format: 'email' },
	cc_email: { ...strOrNull, description: 'One or more CC addresses, comma-separated, up to 10' },
	phone: strOrNull,
	business_name: strOrNull,
	agency_name: { ...strOrNull, description: "Plain text or the linked agency's name" },
	address: strOrNull,
	address_line2: strOrNull,
	city: strOrNull,
	state: strOrNull,
	zip: strOrNull,
	country: {
		type: ['string', 'null'],
		pattern: '^[A-Z]{2}$',
		description: 'ISO 3166 alpha-2 code',
	},
	birthday: { type: ['string', 'null'], format: 'date' },
	website: strOrNull,
	social: { type: ['object', 'null'], additionalProperties: str },
	notes: strOrNull,
	tags: arrayOf(record({ id: uuid, name: str })),
	roles: {
		...arrayOf({ enum: CONTACT_ROLES }),
		description: 'Distinct roles the contact has had on inspections',
	},
	created_at: dateTime,
	updated_at: dateTime,
	photo_url: signedLink('The photo; null when there is none'),
	agency_id: { ...uuidOrNull, description: 'Linked agency; null when agency_name is plain text' },
	uses_agency_address: {
		...bool,
		description: "true: the contact's address follows the agency's address",
	},
	agency: nullableRecord(
		{ id: uuid, name: strOrNull, phone: strOrNull, website: strOrNull },
		'Present when an agency is linked',
	),
});

const ContactStats = record(
	{
		contact_id: uuid,
		first_name: strOrNull,
		last_name: strOrNull,
		email: strOrNull,
		agency_name: strOrNull,
		agency_id: uuidOrNull,
		total_inspections: int,
		buying_agent_inspections: int,
		listing_agent_inspections: int,
		client_inspections: int,
		total_revenue: { type: 'number' },
		buying_agent_revenue: { type: 'number' },
		listing_agent_revenue: { type: 'number' },
		first_inspection_at: dateTimeOrNull,
		last_inspection_at: dateTimeOrNull,
		upcoming_inspections_30d: int,
		inspection_count: { ...int, description: 'Same as total_inspections' },
		revenue: { type: 'number', description: 'Same as total_revenue' },
	},
	`contactStatsPath: ${ASSUMPTIONS.contactStatsPath.statement} contactStatsRevenue: ${ASSUMPTIONS.contactStatsRevenue.statement}`,
);

const Inspection = record({
	id: uuid,
	status: { enum: INSPECTION_STATUSES },
	confirmed: bool,
	scheduled_for: dateTimeOrNull,
	duration_hours: numOrNull,
	ends_at: dateTimeOrNull,
	created_at: dateTime,
	updated_at: dateTime,
	canceled_at: dateTimeOrNull,
	urgent: bool,
	booked_online: bool,
	address: record(
		Object.fromEntries(
			['full', 'street', 'unit', 'city', 'state', 'zip', 'county', 'country'].map((k) => [
				k,
				strOrNull,
			]),
		),
	),
	property: record({
		type: strOrNull,
		square_footage: intOrNull,
		year_built: intOrNull,
		bedrooms: strOrNull,
		bathrooms: strOrNull,
		occupancy: strOrNull,
		foundation: strOrNull,
	}),
	description: strOrNull,
	notes: {
		...strOrNull,
		description: "Private notes; inspector-only in the app; may include the client's booking notes",
	},
	services: arrayOf(named),
	add_ons: arrayOf(record({ id: str, name: strOrNull, quantity: { type: 'integer' } })),
	inspectors: arrayOf(named),
	contacts: arrayOf(
		record({
			id: str,
			role: strOrNull,
			first_name: strOrNull,
			last_name: strOrNull,
			email: strOrNull,
			phone: strOrNull,
			agency_id: strOrNull,
			agency_name: strOrNull,
		}),
	),
	price: record({
		quote: numOrNull,
		amount_paid: numOrNull,
		amount_due: numOrNull,
		payment_status: strOrNull,
		paid: bool,
		pay_at_close_status: strOrNull,
	}),
	agreements: record({
		present: bool,
		all_signed: bool,
		items: arrayOf(record({ name: strOrNull, status: strOrNull, signed_at: dateTimeOrNull })),
	}),
	reports: record({
		status: { enum: REPORT_STATUSES },
		items: arrayOf(record({ id: strOrNull, name: strOrNull, status: strOrNull })),
	}),
	portal_url: { type: 'string', description: 'Client report portal link for this inspection' },
	referral_source: nullableRecord({ id: str, name: strOrNull }),
	discount_codes: arrayOf(record({ id: str, name: strOrNull, code: strOrNull })),
	custom_fields: arrayOf(record({ name: strOrNull, value: strOrNull })),
	deleted: {
		...bool,
		description: 'true only for a deleted inspection returned with include_deleted',
	},
	deleted_at: dateTimeOrNull,
	cover_photo_url: signedLink('The cover photo'),
});

const Event = record(
	{
		id: uuid,
		name: strOrNull,
		description: strOrNull,
		event_type: { type: 'null', description: 'Always null' },
		inspection_id: uuid,
		start_at: dateTimeOrNull,
		end_at: dateTimeOrNull,
		duration_hours: { type: 'number' },
		blocks_calendar: bool,
		inspector_id: strOrNull,
		inspector_ids: arrayOf(str),
		created_at: dateTimeOrNull,
		updated_at: dateTimeOrNull,
	},
	`An inspection event (appointment), not a webhook message. eventsPath: ${ASSUMPTIONS.eventsPath.statement}`,
);

const Agency = record({
	id: uuid,
	name: str,
	...Object.fromEntries(
		[
			'address',
			'address_line2',
			'city',
			'state',
			'zip',
			'country',
			'phone',
			'website',
			'notes',
		].map((k) => [k, strOrNull]),
	),
	contact_count: { ...int, description: 'Contacts linked to this agency' },
	created_at: dateTime,
	updated_at: dateTime,
});

const Attachment = record({
	id: {
		type: 'string',
		description: 'Unique within its inspection only; identify a document by inspection_id plus id',
	},
	inspection_id: uuid,
	kind: { enum: ATTACHMENT_KINDS },
	name: strOrNull,
	description: strOrNull,
	filename: {
		...strOrNull,
		description: `Sanitized (storedFileNames: ${ASSUMPTIONS.storedFileNames.statement})`,
	},
	content_type: strOrNull,
	size_bytes: intOrNull,
	url: signedLink('The download; null for a report with no file'),
	visible_to_client: { ...bool, description: 'false for inspector-only documents' },
	created_at: dateTimeOrNull,
	updated_at: dateTimeOrNull,
});

const Tag = record({
	id: uuid,
	name: str,
	contact_count: { ...int, description: 'Contacts holding this tag' },
});

const ErrorBody = record(
	{
		error: record({
			code: str,
			message: str,
			param: { ...strOrNull, description: 'The parameter or field at fault' },
		}),
	},
	`errorBodyShapes: ${ASSUMPTIONS.errorBodyShapes.statement}`,
);

/** The record schemas by the names the endpoint table uses. */
export const RECORD_SCHEMAS: Record<string, Schema> = {
	Contact,
	ContactStats,
	Inspection,
	Event,
	Agency,
	Attachment,
	Tag,
	Error: ErrorBody,
};

/** ContactList, InspectionList, …: the list envelope around a record. */
export const listSchema = (recordName: string): Schema =>
	record({
		data: arrayOf({ $ref: `#/components/schemas/${recordName}` }),
		next_cursor: {
			...strOrNull,
			description: 'Send back as cursor with the same filters and sort; null on the last page',
		},
		total: { ...int, description: 'All records matching the filters, across all pages' },
	});
