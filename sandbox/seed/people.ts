import type { OrgId } from '../keys';
import type { Prng } from '../prng';
import { SAMPLE_FILES } from '../samples';
import type { Store } from '../store';
import { CONTACT_ROLE_GROUPS, CONTACT_ROLES, type ContactRole } from '../../nodes/shared/endpoints';
import type { AgencyRec, ContactRec } from '../types';
import { AGENCY_WORDS, FIRST_NAMES, LAST_NAMES, PLACES, STREETS, TAG_NAMES } from './words';

const DAY = 24 * 60 * 60 * 1000;
/** Roles held by contacts that are neither clients nor agents, one fixed role each. */
const GROUPED: readonly ContactRole[] = Object.values(CONTACT_ROLE_GROUPS).flat();
const OTHER_ROLES = CONTACT_ROLES.filter((role) => !GROUPED.includes(role));

export interface People {
	clients: string[];
	agents: string[];
	others: Array<{ id: string; role: string }>;
}

const slug = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/[^A-Za-z]/g, '')
		.toLowerCase();
const phone = (rng: Prng, area: string) =>
	`${area}-555-${String(rng.int(100, 199)).padStart(4, '0')}`;

export function seedTags(store: Store, rng: Prng, org: OrgId, count: number): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const id = rng.uuid();
		store.tags.set(id, {
			org,
			id,
			name: TAG_NAMES[i % TAG_NAMES.length] + (i >= TAG_NAMES.length ? ` ${i}` : ''),
		});
		ids.push(id);
	}
	return ids;
}

export function seedAgencies(
	store: Store,
	rng: Prng,
	org: OrgId,
	count: number,
	anchor: number,
): AgencyRec[] {
	const out: AgencyRec[] = [];
	const places = PLACES[org];
	for (let i = 0; i < count; i++) {
		const first = AGENCY_WORDS.first[i % AGENCY_WORDS.first.length];
		const second =
			AGENCY_WORDS.second[Math.floor(i / AGENCY_WORDS.first.length) % AGENCY_WORDS.second.length];
		const name = `${first} ${second}${i >= AGENCY_WORDS.first.length * AGENCY_WORDS.second.length ? ` ${i}` : ''}`;
		const place = rng.pick(places);
		const createdAt = anchor - rng.int(200, 2000) * DAY;
		const agency: AgencyRec = {
			org,
			id: rng.uuid(),
			name,
			address: `${rng.int(100, 9999)} ${rng.pick(STREETS)}`,
			address_line2: rng.chance(0.3) ? `Suite ${rng.int(100, 450)}` : null,
			city: place.city,
			state: place.state,
			zip: place.zip,
			country: 'US',
			phone: phone(rng, org === 'acme' ? '303' : '512'),
			website: rng.chance(0.8) ? `https://www.${slug(name)}.example` : null,
			notes: rng.chance(0.2) ? 'Prefers reports sent to the office inbox.' : null,
			createdAt,
			updatedAt: createdAt + rng.int(0, 150) * DAY,
		};
		store.agencies.set(agency.id, agency);
		out.push(agency);
	}
	return out;
}

export interface ContactSeedOptions {
	count: number;
	tagIds: string[];
	agencies: AgencyRec[];
	anchor: number;
	/** Adds a stored photo; returns its file id. */
	addPhoto: (data: Buffer, contentType: string, filename: string) => string;
}

export function seedContacts(
	store: Store,
	rng: Prng,
	org: OrgId,
	options: ContactSeedOptions,
): People {
	const people: People = { clients: [], agents: [], others: [] };
	const { anchor, agencies, tagIds } = options;
	const places = PLACES[org];
	const area = org === 'acme' ? '303' : '512';
	for (let i = 0; i < options.count; i++) {
		const group = i % 10 < 6 ? 'client' : i % 10 < 9 ? 'agent' : 'other';
		const first = rng.pick(FIRST_NAMES);
		const last = rng.chance(0.97) ? rng.pick(LAST_NAMES) : null;
		const agency = group === 'agent' && rng.chance(0.85) ? rng.pick(agencies) : null;
		const domain = agency?.website
			? agency.website.replace('https://www.', '')
			: rng.pick(['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'example.com']);
		const place = rng.pick(places);
		const hasAddress = group === 'client' ? rng.chance(0.7) : rng.chance(0.3);
		const createdAt = anchor - rng.int(1, 3 * 365) * DAY - rng.int(0, DAY);
		const updatedAt = rng.chance(0.3) ? createdAt + rng.int(0, anchor - createdAt) : createdAt;
		const otherRole = OTHER_ROLES[people.others.length % OTHER_ROLES.length];
		const contact: ContactRec = {
			org,
			id: rng.uuid(),
			fields: {
				first_name: first,
				last_name: last,
				email: `${slug(first)}.${slug(last ?? 'x')}${i}@${domain}`,
				cc_email: rng.chance(0.05) ? `assistant${i}@${domain}, office${i}@${domain}` : null,
				phone: rng.chance(0.9) ? phone(rng, area) : null,
				business_name: group === 'other' ? `${last ?? first} ${otherRole}` : null,
				address: hasAddress ? `${rng.int(100, 9999)} ${rng.pick(STREETS)}` : null,
				address_line2: hasAddress && rng.chance(0.15) ? `Apt ${rng.int(1, 40)}` : null,
				city: hasAddress ? place.city : null,
				state: hasAddress ? place.state : null,
				zip: hasAddress ? place.zip : null,
				country: hasAddress ? 'US' : null,
				birthday:
					group === 'client' && rng.chance(0.2)
						? `19${rng.int(50, 99)}-0${rng.int(1, 9)}-${String(rng.int(10, 28))}`
						: null,
				website:
					group === 'agent' && rng.chance(0.3)
						? `https://${slug(first)}${slug(last ?? '')}.example`
						: null,
				social:
					group === 'agent' && rng.chance(0.2)
						? { linkedin: `https://www.linkedin.com/in/${slug(first)}-${i}` }
						: null,
				notes: rng.chance(0.1) ? 'Met at the spring open house.' : null,
			},
			agencyId: agency?.id ?? null,
			agencyText: group === 'agent' && !agency ? 'Independent Broker' : null,
			usesAgencyAddress: agency !== null && !hasAddress && rng.chance(0.5),
			tagIds: [],
			photoFileId: null,
			createdAt,
			updatedAt,
		};
		const tagCount = rng.chance(0.45) ? rng.int(1, 3) : 0;
		for (let t = 0; t < tagCount; t++) {
			const tag = rng.pick(tagIds);
			if (!contact.tagIds.includes(tag)) contact.tagIds.push(tag);
		}
		if (rng.chance(0.06)) {
			const ext = rng.pick(['jpg', 'png'] as const);
			contact.photoFileId = options.addPhoto(
				SAMPLE_FILES[ext],
				ext === 'jpg' ? 'image/jpeg' : 'image/png',
				`photo.${ext}`,
			);
		}
		store.contacts.set(contact.id, contact);
		if (group === 'client') people.clients.push(contact.id);
		else if (group === 'agent') people.agents.push(contact.id);
		else people.others.push({ id: contact.id, role: otherRole });
	}
	return people;
}
