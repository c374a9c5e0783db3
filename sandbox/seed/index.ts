import { ORG_IDS, type OrgId } from '../keys';
import { Prng } from '../prng';
import { Store } from '../store';
import { seedInspections } from './inspections';
import { seedAgencies, seedContacts, seedTags } from './people';

interface OrgSize {
	contacts: number;
	tags: number;
	agencies: number;
	inspections: number;
}

const GLOBEX: OrgSize = { contacts: 60, tags: 6, agencies: 5, inspections: 80 };

/**
 * Seed sizes by name. 520 contacts: a limit-200 walk has a short page before the last. `small`:
 * about 1,000 records in all (400 contacts, 500 inspections, 168 appointments), the account
 * `npm run bench:trigger-state` compares the large one with.
 */
const SEEDS: Record<string, Record<OrgId, OrgSize>> = {
	demo: { acme: { contacts: 520, tags: 25, agencies: 40, inspections: 1200 }, globex: GLOBEX },
	small: { acme: { contacts: 400, tags: 25, agencies: 20, inspections: 500 }, globex: GLOBEX },
	large: {
		acme: { contacts: 50_000, tags: 25, agencies: 120, inspections: 20_000 },
		globex: GLOBEX,
	},
};

export const isSeedName = (name: unknown): name is string =>
	typeof name === 'string' && Object.hasOwn(SEEDS, name);

/** The seeds' names, for messages: "demo, small or large". */
export const SEED_NAMES = Object.keys(SEEDS)
	.join(', ')
	.replace(/, ([^,]*)$/, ' or $1');

/**
 * A fresh store for a seed. Every value comes from PRNG streams named after the
 * seed and organization, so a seed always gives the same records and ids; times
 * are relative to `anchor` (the start of the current UTC day by the sandbox clock).
 */
export function buildSeed(name: string, anchor: number): Store {
	const store = new Store();
	const sizes = SEEDS[name];
	for (const org of ORG_IDS) {
		const size = sizes[org];
		const stream = (part: string) => new Prng(`${name}:${org}:${part}`);
		const fileIds = stream('files');
		const addFile = (data: Buffer, contentType: string, filename: string) => {
			const id = fileIds.uuid();
			store.files.set(id, { data, contentType, filename });
			return id;
		};
		const tagIds = seedTags(store, stream('tags'), org, size.tags);
		const agencies = seedAgencies(store, stream('agencies'), org, size.agencies, anchor);
		const people = seedContacts(store, stream('contacts'), org, {
			count: size.contacts,
			tagIds,
			agencies,
			anchor,
			addPhoto: addFile,
		});
		seedInspections(store, stream('inspections'), org, {
			count: size.inspections,
			people,
			anchor,
			addFile,
		});
	}
	return store;
}
