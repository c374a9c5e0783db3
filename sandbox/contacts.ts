import { CONTACT_ROLE_GROUPS } from '../nodes/shared/endpoints';
import { iso } from './clock';
import type { ApiContext, RenderContext } from './context';
import { ok, type Reply } from './http';
import { servePage } from './paging';
import { parseQuery } from './query';
import type { ContactRec } from './types';

/** The name a contact shows: the linked agency's, else the plain text. */
export function agencyNameOf(ctx: RenderContext, contact: ContactRec): string | null {
	if (contact.agencyId) return ctx.state.store.agencies.get(contact.agencyId)?.name ?? null;
	return contact.agencyText;
}

const ADDRESS_FIELDS = ['address', 'address_line2', 'city', 'state', 'zip', 'country'] as const;

export function renderContact(ctx: RenderContext, c: ContactRec): Record<string, unknown> {
	const { store, signer } = ctx.state;
	const agency = c.agencyId ? store.agencies.get(c.agencyId) : undefined;
	const f = c.fields;
	const address = Object.fromEntries(
		ADDRESS_FIELDS.map((name) => [
			name,
			c.usesAgencyAddress && agency ? agency[name] : (f[name] ?? null),
		]),
	);
	return {
		id: c.id,
		first_name: f.first_name,
		last_name: f.last_name ?? null,
		email: f.email,
		cc_email: f.cc_email ?? null,
		phone: f.phone ?? null,
		business_name: f.business_name ?? null,
		agency_name: agencyNameOf(ctx, c),
		...address,
		birthday: f.birthday ?? null,
		website: f.website ?? null,
		social: f.social ?? null,
		notes: f.notes ?? null,
		tags: c.tagIds.map((id) => ({ id, name: store.tags.get(id)?.name ?? '' })),
		roles: store.roles(c.id),
		created_at: iso(c.createdAt),
		updated_at: iso(c.updatedAt),
		photo_url: signer.link(ctx.origin, store, c.photoFileId),
		agency_id: c.agencyId,
		uses_agency_address: c.usesAgencyAddress,
		agency: agency
			? { id: agency.id, name: agency.name, phone: agency.phone, website: agency.website }
			: null,
	};
}

const ROLE_GROUPS: Record<string, readonly string[]> = CONTACT_ROLE_GROUPS;
const digits = (text: string) => text.replace(/\D/g, '');

function contactMatcher(
	ctx: ApiContext,
	q: ReturnType<typeof parseQuery>,
): (c: ContactRec) => boolean {
	const { store } = ctx.state;
	const ids = Array.isArray(q.ids) ? new Set(q.ids) : null;
	const roles = typeof q.role === 'string' ? (ROLE_GROUPS[q.role] ?? [q.role]) : null;
	let tagIds: Set<string> | null = null;
	if (Array.isArray(q.tag)) {
		const names = new Set(q.tag.map((t) => t.toLowerCase()));
		tagIds = new Set(
			store
				.list(store.tags, ctx.org)
				.filter((t) => names.has(t.name.toLowerCase()))
				.map((t) => t.id),
		);
	}
	const email = typeof q.email === 'string' ? q.email.toLowerCase() : null;
	const search = typeof q.search === 'string' ? q.search.toLowerCase() : null;
	const searchDigits = search && digits(search).length >= 3 ? digits(search) : null;
	return (c) => {
		const f = c.fields;
		if (ids && !ids.has(c.id)) return false;
		if (roles && !store.roles(c.id).some((r) => roles.includes(r))) return false;
		if (typeof q.tag_id === 'string' && !c.tagIds.includes(q.tag_id)) return false;
		if (tagIds && !c.tagIds.some((t) => tagIds.has(t))) return false;
		if (typeof q.agency_id === 'string' && c.agencyId !== q.agency_id) return false;
		if (email !== null && f.email.toLowerCase() !== email) return false;
		if (typeof q.updated_since === 'number' && c.updatedAt < q.updated_since) return false;
		if (search !== null) {
			const name = `${f.first_name} ${f.last_name ?? ''}`.toLowerCase();
			const phone = typeof f.phone === 'string' ? digits(f.phone) : '';
			const hit =
				name.includes(search) ||
				f.email.toLowerCase().includes(search) ||
				(searchDigits !== null && phone.includes(searchDigits));
			if (!hit) return false;
		}
		return true;
	};
}

const SORT_VALUE: Record<string, (ctx: RenderContext, c: ContactRec) => string | number | null> = {
	first_name: (_ctx, c) => c.fields.first_name,
	last_name: (_ctx, c) => (typeof c.fields.last_name === 'string' ? c.fields.last_name : null),
	agency_name: (ctx, c) => agencyNameOf(ctx, c),
	created_at: (_ctx, c) => c.createdAt,
	updated_at: (_ctx, c) => c.updatedAt,
};

export function listContacts(ctx: ApiContext): Reply {
	const q = parseQuery('listContacts', ctx.search);
	const { store } = ctx.state;
	const sort = typeof q.sort === 'string' ? q.sort : null;
	const field = sort?.replace(/^-/, '');
	const value = field ? SORT_VALUE[field] : null;
	const page = servePage(store, ctx.state.settings.shortPages, {
		endpoint: 'listContacts',
		org: ctx.org,
		query: q,
		build: () => store.list(store.contacts, ctx.org).filter(contactMatcher(ctx, q)),
		key: value ? (c) => [value(ctx, c), c.id] : (c) => [c.id],
		parts: value ? [{ desc: sort?.startsWith('-') }, { id: true }] : [{ id: true }],
	});
	return ok({ ...page, data: page.data.map((c) => renderContact(ctx, c)) });
}
