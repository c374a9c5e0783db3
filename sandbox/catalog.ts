import { iso } from './clock';
import type { ApiContext } from './context';
import { ok, type Reply } from './http';
import { servePage } from './paging';
import { parseQuery } from './query';

/** GET /v1/tags: ordered by id (orderOfUnsortedLists), with live contact counts. */
export function listTags(ctx: ApiContext): Reply {
	const q = parseQuery('listTags', ctx.search);
	const { store } = ctx.state;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listTags',
		org: ctx.org,
		query: q,
		build: () => store.list(store.tags, ctx.org),
		key: (t) => [t.id],
		parts: [{ id: true }],
	});
	const counts = store.tagCounts();
	return ok({
		...page,
		data: page.data.map((t) => ({ id: t.id, name: t.name, contact_count: counts.get(t.id) ?? 0 })),
	});
}

/** GET /v1/agencies: ordered by id (orderOfUnsortedLists), with live contact counts. */
export function listAgencies(ctx: ApiContext): Reply {
	const q = parseQuery('listAgencies', ctx.search);
	const { store } = ctx.state;
	const ids = Array.isArray(q.ids) ? new Set(q.ids) : null;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listAgencies',
		org: ctx.org,
		query: q,
		build: () => store.list(store.agencies, ctx.org).filter((a) => !ids || ids.has(a.id)),
		key: (a) => [a.id],
		parts: [{ id: true }],
	});
	const counts = store.agencyCounts();
	return ok({
		...page,
		data: page.data.map((a) => ({
			id: a.id,
			name: a.name,
			address: a.address,
			address_line2: a.address_line2,
			city: a.city,
			state: a.state,
			zip: a.zip,
			country: a.country,
			phone: a.phone,
			website: a.website,
			notes: a.notes,
			contact_count: counts.get(a.id) ?? 0,
			created_at: iso(a.createdAt),
			updated_at: iso(a.updatedAt),
		})),
	});
}
