import type { IDataObject } from 'n8n-workflow';

import { CONTACT_ROLE_GROUPS } from '../../../shared/endpoints';

const CLIENT_ROLES: readonly string[] = CONTACT_ROLE_GROUPS.client;
const AGENT_ROLES: readonly string[] = CONTACT_ROLE_GROUPS.agent;

/** The key fields Simplify returns for an inspection, flat, in this order. */
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
 * An inspection's key fields, flat: nested address, price and reports are
 * lifted to the top, and the people (client, agents, inspectors) and services
 * become comma-separated names.
 */
export function simplifyInspection(inspection: IDataObject): IDataObject {
	const address = objectOf(inspection.address);
	const price = objectOf(inspection.price);
	const contacts = listOf(inspection.contacts);
	const clients = contacts.filter((c) => CLIENT_ROLES.includes(String(c.role)));
	const agents = contacts.filter((c) => AGENT_ROLES.includes(String(c.role)));
	const simplified: Record<(typeof SIMPLIFIED_INSPECTION_FIELDS)[number], unknown> = {
		id: inspection.id,
		status: inspection.status,
		confirmed: inspection.confirmed,
		scheduled_for: inspection.scheduled_for ?? null,
		ends_at: inspection.ends_at ?? null,
		address_full: address.full ?? null,
		city: address.city ?? null,
		state: address.state ?? null,
		zip: address.zip ?? null,
		client_name: joined(clients.map(fullName)),
		client_email: joined(clients.map((c) => c.email)),
		agent_names: joined(agents.map(fullName)),
		inspector_names: joined(listOf(inspection.inspectors).map((i) => i.name)),
		services: joined(listOf(inspection.services).map((s) => s.name)),
		quote: price.quote ?? null,
		amount_paid: price.amount_paid ?? null,
		amount_due: price.amount_due ?? null,
		paid: price.paid ?? false,
		reports_status: objectOf(inspection.reports).status ?? null,
		portal_url: inspection.portal_url ?? null,
		updated_at: inspection.updated_at,
		deleted: inspection.deleted ?? false,
	};
	return simplified as IDataObject;
}
