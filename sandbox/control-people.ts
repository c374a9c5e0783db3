import { randomUUID } from 'node:crypto';
import { parseContactBody } from './contact-body';
import { renderContact } from './contacts';
import { writeContact } from './contact-write';
import type { ControlRoute } from './control-route';
import { badRequest, notFound, ok } from './http';
import { isOrgId, type OrgId } from './keys';
import type { SandboxState } from './state';
import type { AgencyRec } from './types';

function tagName(state: SandboxState, org: OrgId, value: unknown, except?: string): string {
	if (typeof value !== 'string' || value.trim() === '')
		throw badRequest('name', 'name must be a non-empty string');
	const name = value.trim();
	const clash = state.store
		.list(state.store.tags, org)
		.find((t) => t.id !== except && t.name.toLowerCase() === name.toLowerCase());
	if (clash) throw badRequest('name', `A tag named ${clash.name} exists already`);
	return name;
}

/** Control routes for contacts, tags and agencies: changes made in the business tools (same rules as v1). */
export const CONTROL_PEOPLE_ROUTES: ControlRoute[] = [
	[
		'POST',
		/^contacts$/,
		({ state, body: { org, ...body }, render }) => {
			if (!isOrgId(org)) throw badRequest('org', 'org must be acme or globex');
			return ok(
				renderContact(
					render,
					writeContact(state, org, null, parseContactBody('createContact', body)),
				),
				201,
			);
		},
	],
	[
		'PATCH',
		/^contacts\/([^/]+)$/,
		({ state, body, params: [id], render }) => {
			const contact = state.store.contacts.get(id.toLowerCase());
			if (!contact) throw notFound('contact', id, null);
			return ok(
				renderContact(
					render,
					writeContact(state, contact.org, contact, parseContactBody('updateContact', body)),
				),
			);
		},
	],
	[
		'POST',
		/^tags$/,
		({ state, body }) => {
			if (!isOrgId(body.org)) throw badRequest('org', 'org must be acme or globex');
			const tag = { org: body.org, id: randomUUID(), name: tagName(state, body.org, body.name) };
			state.store.tags.set(tag.id, tag);
			state.store.changed();
			return ok({ id: tag.id, name: tag.name, contact_count: 0 }, 201);
		},
	],
	[
		'POST',
		/^agencies$/,
		({ state, body }) => {
			if (!isOrgId(body.org)) throw badRequest('org', 'org must be acme or globex');
			if (typeof body.name !== 'string' || body.name.trim() === '')
				throw badRequest('name', 'name must be a non-empty string');
			const now = state.writeTime();
			const agency: AgencyRec = {
				org: body.org,
				id: randomUUID(),
				name: body.name.trim(),
				address: null,
				address_line2: null,
				city: null,
				state: null,
				zip: null,
				country: null,
				phone: null,
				website: null,
				notes: null,
				createdAt: now,
				updatedAt: now,
			};
			state.store.agencies.set(agency.id, agency);
			state.store.changed();
			return ok({ id: agency.id, name: agency.name }, 201);
		},
	],
	[
		'PATCH',
		/^tags\/([^/]+)$/,
		({ state, body, params: [id] }) => {
			const tag = state.store.tags.get(id.toLowerCase());
			if (!tag) throw notFound('tag', id, null);
			tag.name = tagName(state, tag.org, body.name, tag.id);
			state.store.changed();
			return ok({
				id: tag.id,
				name: tag.name,
				contact_count: state.store.tagCounts().get(tag.id) ?? 0,
			});
		},
	],
];
