/**
 * What a simplified record holds: the key fields of an inspection and of a
 * contact (version 2), version 1's flat inspection, and the full records'
 * field lists the Fields option offers. Plain functions of a record; the
 * option that applies them is `simplifyOption.ts`.
 */
import type { IDataObject } from 'n8n-workflow';

import { CONTACT_ROLE_GROUPS } from '../../shared/endpoints';
import { allAgreementsSigned, isPaid } from '../../shared/inspectionFacts';

const CLIENT_ROLES: readonly string[] = CONTACT_ROLE_GROUPS.client;
const AGENT_ROLES: readonly string[] = CONTACT_ROLE_GROUPS.agent;

/** Version 1's Simplify of an inspection: these fields, flat, in this order. */
export const SIMPLIFIED_INSPECTION_FIELDS = [
	'id',
	'status',
	'confirmed',
	'scheduled_for',
	'ends_at',
	'address_full',
	'city',
	'state',
	'zip',
	'client_name',
	'client_email',
	'agent_names',
	'inspector_names',
	'services',
	'quote',
	'amount_paid',
	'amount_due',
	'paid',
	'reports_status',
	'portal_url',
	'updated_at',
	'deleted',
] as const;

const objectOf = (value: unknown): IDataObject =>
	value && typeof value === 'object' ? (value as IDataObject) : {};
const listOf = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value as IDataObject[]) : [];

const present = (values: unknown[]) =>
	values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');

/** Joins names with ", " so a record maps to one spreadsheet or CRM column; null when there are none. */
function joined(values: unknown[]): string | null {
	const names = present(values);
	return names.length ? names.join(', ') : null;
}

const fullName = (contact: IDataObject) =>
	present([contact.first_name, contact.last_name]).join(' ');

/**
 * Version 1's Simplify: an inspection's key fields, flat: nested address,
 * price and reports are lifted to the top, and the people (client, agents,
 * inspectors) and services become comma-separated names.
 */
export function simplifyInspection(record: IDataObject): IDataObject {
	const address = objectOf(record.address);
	const price = objectOf(record.price);
	const contacts = listOf(record.contacts);
	const clients = contacts.filter((c) => CLIENT_ROLES.includes(String(c.role)));
	const agents = contacts.filter((c) => AGENT_ROLES.includes(String(c.role)));
	const simplified: Record<(typeof SIMPLIFIED_INSPECTION_FIELDS)[number], unknown> = {
		id: record.id,
		status: record.status,
		confirmed: record.confirmed,
		scheduled_for: record.scheduled_for ?? null,
		ends_at: record.ends_at ?? null,
		address_full: address.full ?? null,
		city: address.city ?? null,
		state: address.state ?? null,
		zip: address.zip ?? null,
		client_name: joined(clients.map(fullName)),
		client_email: joined(clients.map((c) => c.email)),
		agent_names: joined(agents.map(fullName)),
		inspector_names: joined(listOf(record.inspectors).map((i) => i.name)),
		services: joined(listOf(record.services).map((s) => s.name)),
		quote: price.quote ?? null,
		amount_paid: price.amount_paid ?? null,
		amount_due: price.amount_due ?? null,
		paid: price.paid ?? false,
		reports_status: objectOf(record.reports).status ?? null,
		portal_url: record.portal_url ?? null,
		updated_at: record.updated_at,
		deleted: record.deleted ?? false,
	};
	return simplified as IDataObject;
}

/**
 * Version 2's Simplify, chosen for CRM and accounting sync; the Fields option
 * adds any other field of the full record. Contacts keep n8n's 10-field limit.
 * Inspections have 14: the 10 that version 2 shipped with stay as they were
 * (a workflow reading `amount` or `portal_url` must not get undefined after an
 * update), and four show what the trigger's moments are about (paid,
 * agreements signed, inspectors, custom fields).
 */
export const INSPECTION_KEY_FIELDS = [
	'id',
	'status',
	'scheduled_for',
	'address',
	'client',
	'agents',
	'amount',
	'amount_due',
	'payment_status',
	'portal_url',
	'paid',
	'agreements_signed',
	'inspectors',
	'custom_fields',
] as const;

export const CONTACT_KEY_FIELDS = [
	'id',
	'first_name',
	'last_name',
	'email',
	'phone',
	'business_name',
	'agency_name',
	'address',
	'tags',
	'updated_at',
] as const;

/** The top-level fields of the full records, as the API documents them, for the Fields option. */
export const INSPECTION_RECORD_FIELDS = [
	'add_ons',
	'address',
	'agreements',
	'booked_online',
	'canceled_at',
	'confirmed',
	'contacts',
	'cover_photo_url',
	'created_at',
	'custom_fields',
	'deleted',
	'deleted_at',
	'description',
	'discount_codes',
	'duration_hours',
	'ends_at',
	'inspectors',
	'notes',
	'portal_url',
	'price',
	'property',
	'referral_source',
	'reports',
	'scheduled_for',
	'services',
	'status',
	'updated_at',
	'urgent',
] as const;

export const CONTACT_RECORD_FIELDS = [
	'address',
	'address_line2',
	'agency',
	'agency_id',
	'agency_name',
	'birthday',
	'business_name',
	'cc_email',
	'city',
	'country',
	'created_at',
	'notes',
	'photo_url',
	'roles',
	'social',
	'state',
	'tags',
	'updated_at',
	'uses_agency_address',
	'website',
	'zip',
] as const;

/** Custom fields as one object of name to value (a name listed twice keeps its last value). */
function customFieldsObject(value: unknown): IDataObject {
	const fields: IDataObject = {};
	for (const field of listOf(value))
		if (typeof field.name === 'string' && field.name !== '')
			fields[field.name] = field.value ?? null;
	return fields;
}

/**
 * An inspection's key fields: the one-line address, the client as name and
 * email (several clients: comma-separated), the agents' and inspectors'
 * names, the price's quote, amount due, payment status and whether it is paid,
 * whether every agreement is signed, and the custom fields as name to value.
 */
export function inspectionKeyFields(record: IDataObject): IDataObject {
	const price = objectOf(record.price);
	const contacts = listOf(record.contacts);
	const clients = contacts.filter((c) => CLIENT_ROLES.includes(String(c.role)));
	const agents = contacts.filter((c) => AGENT_ROLES.includes(String(c.role)));
	const simplified: Record<(typeof INSPECTION_KEY_FIELDS)[number], unknown> = {
		id: record.id,
		status: record.status,
		scheduled_for: record.scheduled_for ?? null,
		address: objectOf(record.address).full ?? null,
		client: {
			name: joined(clients.map(fullName)),
			email: joined(clients.map((c) => c.email)),
		},
		agents: joined(agents.map(fullName)),
		amount: price.quote ?? null,
		amount_due: price.amount_due ?? null,
		payment_status: price.payment_status ?? null,
		portal_url: record.portal_url ?? null,
		// The trigger's rules, so Simplify and the Inspection Paid / Agreements Signed moments agree.
		paid: isPaid(record),
		agreements_signed: allAgreementsSigned(record),
		inspectors: joined(listOf(record.inspectors).map((i) => i.name)),
		custom_fields: customFieldsObject(record.custom_fields),
	};
	return simplified as IDataObject;
}

/** A contact's key fields: the address on one line, tags as comma-separated names. */
export function contactKeyFields(contact: IDataObject): IDataObject {
	const cityLine = present([contact.state, contact.zip]).join(' ');
	const address = joined([
		contact.address,
		contact.address_line2,
		contact.city,
		cityLine,
		contact.country,
	]);
	const simplified: Record<(typeof CONTACT_KEY_FIELDS)[number], unknown> = {
		id: contact.id,
		first_name: contact.first_name,
		last_name: contact.last_name ?? null,
		email: contact.email,
		phone: contact.phone ?? null,
		business_name: contact.business_name ?? null,
		agency_name: contact.agency_name ?? null,
		address,
		tags: joined(listOf(contact.tags).map((t) => t.name)),
		updated_at: contact.updated_at,
	};
	return simplified as IDataObject;
}
