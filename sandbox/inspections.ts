import { iso, isoOrNull } from './clock';
import type { ApiContext, RenderContext } from './context';
import { ok, type Reply } from './http';
import { servePage } from './paging';
import { parseQuery } from './query';
import type { EventRec, InspectionRec } from './types';

const HOUR = 60 * 60 * 1000;
const PORTAL_BASE = 'https://portal.inspectionbusiness.example/reports/';

const endsAt = (i: InspectionRec): number | null =>
	i.scheduledFor === null || i.durationHours === null
		? null
		: i.scheduledFor + i.durationHours * HOUR;

export function renderInspection(ctx: RenderContext, i: InspectionRec): Record<string, unknown> {
	const { store, signer } = ctx.state;
	return {
		id: i.id,
		status: i.status,
		confirmed: i.status === 'confirmed',
		scheduled_for: isoOrNull(i.scheduledFor),
		duration_hours: i.durationHours,
		ends_at: isoOrNull(endsAt(i)),
		created_at: iso(i.createdAt),
		updated_at: iso(i.updatedAt),
		canceled_at: isoOrNull(i.canceledAt),
		urgent: i.urgent,
		booked_online: i.booked_online,
		address: i.address,
		property: i.property,
		description: i.description,
		notes: i.notes,
		services: i.services,
		add_ons: i.add_ons,
		inspectors: i.inspectors,
		contacts: i.contacts.map(({ id, role }) => {
			const c = store.contacts.get(id);
			const agency = c?.agencyId ? store.agencies.get(c.agencyId) : undefined;
			const text = (v: unknown) => (typeof v === 'string' ? v : null);
			return {
				id,
				role,
				first_name: text(c?.fields.first_name),
				last_name: text(c?.fields.last_name),
				email: text(c?.fields.email),
				phone: text(c?.fields.phone),
				agency_id: c?.agencyId ?? null,
				agency_name: agency ? agency.name : (c?.agencyText ?? null),
			};
		}),
		price: i.price,
		agreements: i.agreements,
		reports: i.reports,
		portal_url: `${PORTAL_BASE}${i.id}`,
		referral_source: i.referral_source,
		discount_codes: i.discount_codes,
		custom_fields: i.custom_fields,
		deleted: i.deletedAt !== null,
		deleted_at: isoOrNull(i.deletedAt),
		cover_photo_url: signer.link(ctx.origin, store, i.coverFileId),
	};
}

const SORT_VALUE: Record<string, (i: InspectionRec) => number | null> = {
	scheduled_for: (i) => i.scheduledFor,
	ends_at: endsAt,
	created_at: (i) => i.createdAt,
	updated_at: (i) => i.updatedAt,
	canceled_at: (i) => i.canceledAt,
};

/** GET /v1/inspections: canceled hidden unless include_canceled or ids; deleted hidden unless include_deleted. */
export function listInspections(ctx: ApiContext): Reply {
	const q = parseQuery('listInspections', ctx.search);
	const { store } = ctx.state;
	const ids = Array.isArray(q.ids) ? new Set(q.ids) : null;
	const showCanceled = q.include_canceled === true || ids !== null;
	const since = typeof q.updated_since === 'number' ? q.updated_since : null;
	const sort = typeof q.sort === 'string' ? q.sort : null;
	const value = sort ? SORT_VALUE[sort.replace(/^-/, '')] : null;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listInspections',
		org: ctx.org,
		query: q,
		build: () =>
			store
				.list(store.inspections, ctx.org)
				.filter(
					(i) =>
						(!ids || ids.has(i.id)) &&
						(showCanceled || i.status !== 'canceled') &&
						(q.include_deleted === true || i.deletedAt === null) &&
						(since === null || i.updatedAt >= since),
				),
		key: value ? (i) => [value(i), i.id] : (i) => [i.id],
		parts: value ? [{ desc: sort?.startsWith('-') }, { id: true }] : [{ id: true }],
	});
	return ok({ ...page, data: page.data.map((i) => renderInspection(ctx, i)) });
}

/** eventsPath: GET /v1/events, ordered by id (orderOfUnsortedLists). */
export function listEvents(ctx: ApiContext): Reply {
	const q = parseQuery('listEvents', ctx.search);
	const { store } = ctx.state;
	const ids = Array.isArray(q.ids) ? new Set(q.ids) : null;
	const since = typeof q.updated_since === 'number' ? q.updated_since : null;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listEvents',
		org: ctx.org,
		query: q,
		build: () =>
			store
				.list(store.events, ctx.org)
				.filter(
					(e) =>
						(!ids || ids.has(e.id)) &&
						(typeof q.inspection_id !== 'string' || e.inspectionId === q.inspection_id) &&
						(since === null || (e.updatedAt !== null && e.updatedAt >= since)),
				),
		key: (e) => [e.id],
		parts: [{ id: true }],
	});
	return ok({
		...page,
		data: page.data.map(renderEvent),
	});
}

/** An inspection event as the API returns it. */
export const renderEvent = (e: EventRec) => ({
	id: e.id,
	name: e.name,
	description: e.description,
	event_type: null,
	inspection_id: e.inspectionId,
	start_at: isoOrNull(e.startAt),
	end_at: isoOrNull(e.endAt),
	duration_hours: e.durationHours,
	blocks_calendar: e.blocksCalendar,
	inspector_id: e.inspectorIds[0] ?? null,
	inspector_ids: e.inspectorIds,
	created_at: isoOrNull(e.createdAt),
	updated_at: isoOrNull(e.updatedAt),
});
