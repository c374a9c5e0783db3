import { randomUUID } from 'node:crypto';
import { CONTACT_ROLES, INSPECTION_STATUSES } from '../nodes/shared/endpoints';
import { parseTimestamp } from '../nodes/shared/rules/formats';
import { badRequest, notFound } from './http';
import { isOrgId } from './keys';
import type { SandboxState } from './state';
import type { InspectionRec } from './types';

/** Inspection changes made "in the business tools": each bumps updated_at, and most send a webhook. */
export const INSPECTION_ACTIONS = [
	'confirm',
	'reschedule',
	'cancel',
	'publish',
	'pay',
	'delete',
] as const;
export type InspectionAction = (typeof INSPECTION_ACTIONS)[number];

export function existing(state: SandboxState, id: string): InspectionRec {
	const rec = state.store.inspections.get(id.toLowerCase());
	if (!rec || rec.deletedAt !== null) throw notFound('inspection', id, 'inspection_id');
	return rec;
}

export function timestampField(body: Record<string, unknown>, name: string): number {
	const ms = typeof body[name] === 'string' ? parseTimestamp(body[name]) : null;
	if (ms === null) throw badRequest(name, `${name} must be an ISO 8601 date-time`);
	return ms;
}

export function durationField(
	body: Record<string, unknown>,
	fallback: number | null,
): number | null {
	const value = body.duration_hours;
	if (value === undefined) return fallback;
	if (typeof value !== 'number' || !(value > 0) || value > 24)
		throw badRequest('duration_hours', 'duration_hours must be a number from 0 to 24');
	return value;
}

export function actOnInspection(
	state: SandboxState,
	id: string,
	action: InspectionAction,
	body: Record<string, unknown>,
): InspectionRec {
	const rec = existing(state, id);
	const now = state.writeTime(rec.updatedAt);
	switch (action) {
		case 'confirm':
			rec.status = 'confirmed';
			rec.canceledAt = null;
			if (rec.reports.status === 'na') rec.reports.status = 'pending';
			break;
		case 'reschedule':
			rec.scheduledFor = timestampField(body, 'scheduled_for');
			rec.durationHours = durationField(body, rec.durationHours ?? 3);
			break;
		case 'cancel':
			rec.status = 'canceled';
			rec.canceledAt = now;
			break;
		case 'publish':
			rec.reports.status = 'published';
			if (rec.reports.items.length === 0)
				rec.reports.items.push({
					id: `rpt-${rec.id.slice(0, 8)}`,
					name: 'Home Inspection Report',
					status: 'published',
				});
			for (const item of rec.reports.items) item.status = 'published';
			break;
		case 'pay':
			rec.price.amount_paid = rec.price.quote ?? 0;
			rec.price.amount_due = 0;
			rec.price.payment_status = 'paid';
			rec.price.paid = true;
			break;
		case 'delete':
			rec.deletedAt = now;
			break;
	}
	rec.updatedAt = now;
	state.store.changed();
	const event = (
		{
			confirm: 'inspection.confirmed',
			reschedule: 'inspection.rescheduled',
			cancel: 'inspection.canceled',
			publish: 'inspection.published',
			pay: null,
			delete: null,
		} as const
	)[action];
	if (event) state.webhooks.emit(rec.org, event, rec.id);
	return rec;
}

/** Creates an inspection with realistic defaults; `contacts` puts existing contacts on it in given roles. */
export function createInspection(
	state: SandboxState,
	body: Record<string, unknown>,
): InspectionRec {
	const { org } = body;
	if (!isOrgId(org)) throw badRequest('org', 'org must be acme or globex');
	const status = body.status ?? 'waiting';
	if (!INSPECTION_STATUSES.includes(status as InspectionRec['status'])) {
		throw badRequest('status', `status must be one of ${INSPECTION_STATUSES.join(', ')}`);
	}
	const contacts = body.contacts ?? [];
	if (!Array.isArray(contacts))
		throw badRequest('contacts', 'contacts must be a list of {id, role}');
	const links = contacts.map((entry: unknown) => {
		const { id, role } = (entry ?? {}) as { id?: unknown; role?: unknown };
		const contact =
			typeof id === 'string' ? state.store.find(state.store.contacts, org, id) : undefined;
		if (!contact) throw badRequest('contacts', `contacts: no contact ${String(id)} in ${org}`);
		if (!CONTACT_ROLES.includes(role as (typeof CONTACT_ROLES)[number]))
			throw badRequest('contacts', `contacts: role must be one of ${CONTACT_ROLES.join(', ')}`);
		return { id: contact.id, role: role as string };
	});
	const now = state.writeTime();
	const scheduledFor =
		body.scheduled_for === undefined
			? now + 7 * 24 * 3600_000
			: timestampField(body, 'scheduled_for');
	const quote = typeof body.quote === 'number' ? body.quote : 425;
	const rec: InspectionRec = {
		org,
		id: randomUUID(),
		sample: body.sample === true,
		status: status as InspectionRec['status'],
		scheduledFor,
		durationHours: durationField(body, 3),
		createdAt: now,
		updatedAt: now,
		canceledAt: status === 'canceled' ? now : null,
		deletedAt: null,
		urgent: false,
		booked_online: false,
		address: {
			full: '500 Sandbox Way, Denver, CO 80205',
			street: '500 Sandbox Way',
			unit: null,
			city: 'Denver',
			state: 'CO',
			zip: '80205',
			county: 'Denver',
			country: 'US',
		},
		property: {
			type: 'Single Family',
			square_footage: 2000,
			year_built: 1995,
			bedrooms: '3',
			bathrooms: '2',
			occupancy: 'Occupied',
			foundation: 'Basement',
		},
		description: typeof body.description === 'string' ? body.description : null,
		notes: null,
		services: [{ id: 'svc-1', name: 'Full Home Inspection' }],
		add_ons: [],
		inspectors: [{ id: `insp-${org}-1`, name: 'Alex Rivera' }],
		contacts: links,
		price: {
			quote,
			amount_paid: 0,
			amount_due: quote,
			payment_status: 'unpaid',
			paid: false,
			pay_at_close_status: null,
		},
		agreements: { present: false, all_signed: false, items: [] },
		reports: { status: status === 'confirmed' ? 'pending' : 'na', items: [] },
		referral_source: null,
		discount_codes: [],
		custom_fields: [],
		coverFileId: null,
	};
	state.store.inspections.set(rec.id, rec);
	state.store.changed();
	return rec;
}
