import { randomUUID } from 'node:crypto';
import type { ContactBody } from './contact-body';
import { badRequest } from './http';
import type { OrgId } from './keys';
import type { SandboxState } from './state';
import type { ContactRec } from './types';

/** Fields stored as sent; the rest (agency, tags) have rules of their own. */
const LINK_FIELDS = new Set(['agency_id', 'agency_name', 'uses_agency_address', 'tags', 'tag_ids']);

/** Tag names (case-insensitive) or ids to tag ids; any unknown one is a 400 before anything changes. */
function resolveTags(state: SandboxState, org: OrgId, body: ContactBody): string[] | undefined {
	const tags = state.store.list(state.store.tags, org);
	if ('tag_ids' in body) {
		const ids = (body.tag_ids ?? []) as string[];
		const unknown = ids.find((id) => !tags.some((t) => t.id === id));
		if (unknown !== undefined)
			throw badRequest(
				'tag_ids',
				`No tag with id ${unknown}; tags are created in the business tools`,
				'unknown_tag',
			);
		return ids;
	}
	if ('tags' in body) {
		const ids: string[] = [];
		for (const name of (body.tags ?? []) as string[]) {
			const tag = tags.find((t) => t.name.toLowerCase() === name.trim().toLowerCase());
			if (!tag)
				throw badRequest(
					'tags',
					`No tag named ${JSON.stringify(name)}; tags are created in the business tools`,
					'unknown_tag',
				);
			if (!ids.includes(tag.id)) ids.push(tag.id);
		}
		return ids;
	}
	return undefined;
}

/**
 * The agency link after a write: agency_id (even null) decides over agency_name;
 * an agency_name matching an agency (case-insensitive) links it; other names stay text.
 */
function resolveAgency(
	state: SandboxState,
	org: OrgId,
	body: ContactBody,
	current: Pick<ContactRec, 'agencyId' | 'agencyText'>,
) {
	if ('agency_id' in body) {
		const id = body.agency_id as string | null;
		if (id === null)
			return {
				agencyId: null,
				agencyText: (body.agency_name as string | null | undefined) ?? null,
			};
		if (!state.store.find(state.store.agencies, org, id))
			throw badRequest('agency_id', `No agency with id ${id}`, 'unknown_agency');
		return { agencyId: id, agencyText: null };
	}
	if ('agency_name' in body) {
		const name = body.agency_name as string | null;
		if (name === null) return { agencyId: null, agencyText: null };
		const match = state.store
			.list(state.store.agencies, org)
			.find((a) => a.name.toLowerCase() === name.trim().toLowerCase());
		return match ? { agencyId: match.id, agencyText: null } : { agencyId: null, agencyText: name };
	}
	return { agencyId: current.agencyId, agencyText: current.agencyText };
}

const snapshot = (c: ContactRec) =>
	JSON.stringify([
		c.fields,
		c.agencyId,
		c.agencyText,
		c.usesAgencyAddress,
		c.tagIds,
		c.photoFileId,
	]);

/** Applies a validated body to a contact (or a new one); nothing changes when any part is refused. Sends contact.changed. */
export function writeContact(
	state: SandboxState,
	org: OrgId,
	existing: ContactRec | null,
	body: ContactBody,
): ContactRec {
	const tagIds = resolveTags(state, org, body);
	const agency = resolveAgency(state, org, body, existing ?? { agencyId: null, agencyText: null });
	const now = state.writeTime(existing?.updatedAt);
	const contact: ContactRec = existing
		? { ...existing, fields: { ...existing.fields } }
		: {
				org,
				id: randomUUID(),
				fields: { first_name: '', email: '' },
				agencyId: null,
				agencyText: null,
				usesAgencyAddress: false,
				tagIds: [],
				photoFileId: null,
				createdAt: now,
				updatedAt: now,
			};
	for (const [name, value] of Object.entries(body)) {
		if (!LINK_FIELDS.has(name)) contact.fields[name] = value as ContactRec['fields'][string];
	}
	contact.agencyId = agency.agencyId;
	contact.agencyText = agency.agencyText;
	if ('uses_agency_address' in body) contact.usesAgencyAddress = body.uses_agency_address === true;
	if (tagIds) contact.tagIds = tagIds;
	return commitContact(state, existing, contact, now);
}

/** Stores a changed contact with a new updated_at and sends contact.changed; an unchanged one is left as it was (unchangedContactWrite). */
export function commitContact(
	state: SandboxState,
	existing: ContactRec | null,
	next: ContactRec,
	now = state.writeTime(existing?.updatedAt),
): ContactRec {
	if (existing && snapshot(existing) === snapshot(next)) return existing;
	next.updatedAt = now;
	state.store.contacts.set(next.id, next);
	state.store.changed();
	state.webhooks.emit(next.org, 'contact.changed', next.id);
	return next;
}
