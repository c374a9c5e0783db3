import { CONTACT_ROLE_GROUPS } from '../nodes/shared/endpoints';
import { isoOrNull } from './clock';
import type { ApiContext } from './context';
import { agencyNameOf } from './contacts';
import { ok, type Reply } from './http';
import { servePage } from './paging';
import { parseQuery } from './query';
import type { ContactRec } from './types';

const DAY = 24 * 60 * 60 * 1000;
const [BUYER_AGENT, LISTING_AGENT] = CONTACT_ROLE_GROUPS.agent;
const [CLIENT] = CONTACT_ROLE_GROUPS.client;

/** contactStatsPath/contactStatsRevenue: counts and revenue (sum of price.quote) over a contact's non-canceled, non-deleted inspections scheduled in [from, to). */
function statsOf(ctx: ApiContext, c: ContactRec, from: number | null, to: number | null) {
	const now = ctx.state.clock.now();
	const s = {
		total: 0,
		buying: 0,
		listing: 0,
		client: 0,
		revenue: 0,
		buyingRevenue: 0,
		listingRevenue: 0,
		first: null as number | null,
		last: null as number | null,
		upcoming: 0,
	};
	for (const { inspection: i, role } of ctx.state.store.contactInspections().get(c.id) ?? []) {
		if (i.status === 'canceled') continue;
		const at = i.scheduledFor;
		if (at !== null && at >= now && at < now + 30 * DAY) s.upcoming++;
		if (
			(from !== null || to !== null) &&
			(at === null || (from !== null && at < from) || (to !== null && at >= to))
		)
			continue;
		const quote = i.price.quote ?? 0;
		s.total++;
		s.revenue += quote;
		if (role === BUYER_AGENT) {
			s.buying++;
			s.buyingRevenue += quote;
		}
		if (role === LISTING_AGENT) {
			s.listing++;
			s.listingRevenue += quote;
		}
		if (role === CLIENT) s.client++;
		if (at !== null) {
			s.first = s.first === null ? at : Math.min(s.first, at);
			s.last = s.last === null ? at : Math.max(s.last, at);
		}
	}
	return {
		contact_id: c.id,
		first_name: c.fields.first_name,
		last_name: typeof c.fields.last_name === 'string' ? c.fields.last_name : null,
		email: c.fields.email,
		agency_name: agencyNameOf(ctx, c),
		agency_id: c.agencyId,
		total_inspections: s.total,
		buying_agent_inspections: s.buying,
		listing_agent_inspections: s.listing,
		client_inspections: s.client,
		total_revenue: s.revenue,
		buying_agent_revenue: s.buyingRevenue,
		listing_agent_revenue: s.listingRevenue,
		first_inspection_at: isoOrNull(s.first),
		last_inspection_at: isoOrNull(s.last),
		upcoming_inspections_30d: s.upcoming,
		inspection_count: s.total,
		revenue: s.revenue,
	};
}

/** contactStatsPath: GET /v1/contacts/stats, one row per contact, ordered by contact id (orderOfUnsortedLists). */
export function listContactStats(ctx: ApiContext): Reply {
	const q = parseQuery('listContactStats', ctx.search);
	const { store } = ctx.state;
	const ids = Array.isArray(q.contact_ids) ? new Set(q.contact_ids) : null;
	const from = typeof q.from === 'number' ? q.from : null;
	const to = typeof q.to === 'number' ? q.to : null;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listContactStats',
		org: ctx.org,
		query: q,
		build: () => store.list(store.contacts, ctx.org).filter((c) => !ids || ids.has(c.id)),
		key: (c) => [c.id],
		parts: [{ id: true }],
	});
	return ok({ ...page, data: page.data.map((c) => statsOf(ctx, c, from, to)) });
}
