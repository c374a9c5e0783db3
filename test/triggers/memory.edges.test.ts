/**
 * The trigger's memory at its edges, beyond memory.test.ts: the stand-in a
 * long list keeps (as stored states hold it), the kept facts' short form and
 * the start times reminded of, named lists whose entries lack an id, share an
 * id across services and add-ons, or run past the bound, the roles a contact
 * has had when the state kept none, an inspection without a status (or a
 * quote) before or after, and the dictionary kept byte for byte while tags or
 * email domains use all of it, rebuilt when emails kept as text use none of it.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	hashText,
	keptList,
	MAX_KEPT_LIST,
} from '../../nodes/InspectionBusinessTrigger/memory/bounds';
import {
	type Fingerprint,
	Fingerprints,
} from '../../nodes/InspectionBusinessTrigger/memory';
import {
	type KeptFacts,
	markReported,
	packFacts,
	unpackFacts,
} from '../../nodes/InspectionBusinessTrigger/memory/keptFacts';
import {
	namedKeys,
	serviceKeys,
	servicesDiff,
	showNamed,
	showServices,
	textKeys,
} from '../../nodes/InspectionBusinessTrigger/memory/namedLists';
import {
	changesBetween,
	watchedValues,
} from '../../nodes/InspectionBusinessTrigger/memory/watchedFields';
import { uuid } from './fake-api';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const numbered = (n: number, prefix: string) =>
	Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
const listed = (ids: string[]) => ids.map((id) => ({ id, name: `Name ${id}` }));

describe('a list past the bound', () => {
	it('the entry standing for the rest is the one stored states hold: how many, and their hash', () => {
		// Another text would read, after an upgrade, as the rest removed and something else added.
		const entries = numbered(MAX_KEPT_LIST + 8, 'e');
		expect(keptList(entries, (summary) => `<${summary}>`)).toEqual([
			...entries.slice(0, MAX_KEPT_LIST),
			`<[8 more, hash ${hashText(entries.join('\n'))}]>`,
		]);
	});

	const head = numbered(MAX_KEPT_LIST, 't');
	it.each<[string, (ids: string[]) => string[]]>([
		['tags', (ids) => namedKeys(listed(ids))],
		['services', (ids) => serviceKeys({ services: listed(ids), add_ons: [] })],
		['add-ons', (ids) => serviceKeys({ services: [], add_ons: listed(ids) })],
	])('%s: another entry past the bound is another kept value', (_name, keys) => {
		expect(keys([...head, 'x1', 'y1'])).not.toEqual(keys([...head, 'x1', 'z1']));
		expect(keys([...head, 'x1', 'y1'])).toEqual(keys([...head, 'x1', 'y1']));
	});

	it('the services past the bound are still shown as services', () => {
		const shown = showServices(serviceKeys({ services: listed(numbered(40, 's')), add_ons: [] }));
		expect(shown.services).toEqual(expect.arrayContaining(listed(numbered(MAX_KEPT_LIST, 's'))));
		expect(shown.services).toHaveLength(MAX_KEPT_LIST + 1);
		expect(shown.add_ons).toEqual([]);
	});
});

describe('kept facts', () => {
	const facts = (over: Partial<KeptFacts> = {}): KeptFacts => ({
		paid: true,
		signed: false,
		nothingToSign: false,
		lengthQuarters: 12,
		reported: 0,
		remindedStarts: [],
		...over,
	});
	it('nothing reported yet: one number is stored; something reported adds the rest', () => {
		expect(packFacts(facts())).toHaveLength(1);
		expect(packFacts(facts({ reported: 16 }))).toHaveLength(2);
		expect(packFacts(facts({ remindedStarts: [T0] }))).toHaveLength(3);
	});

	const start = (minutes: number) => T0 + minutes * MINUTE;
	it.each<[string, number[], number, number[]]>([
		['a new start time is added last', [start(0)], start(60), [start(0), start(60)]],
		[
			'a start reminded of again is kept once, as the latest',
			[start(0), start(60)],
			start(0) + 30_000,
			[start(60), start(0)],
		],
		[
			'past three, the oldest goes',
			[start(0), start(60), start(120)],
			start(180),
			[start(60), start(120), start(180)],
		],
	])('Starting reminded: %s', (_name, before, reminded, after) => {
		const value = packFacts(facts({ remindedStarts: before }));
		expect(unpackFacts(markReported(value, 0, reminded))).toEqual(facts({ remindedStarts: after }));
	});
});

describe('named lists', () => {
	it('an entry without an id is left out', () => {
		const tags = [{ name: 'VIP' }, { id: null, name: 'Lead' }, { id: 't-1', name: 'Buyer' }];
		expect(showNamed(namedKeys(tags))).toEqual([{ id: 't-1', name: 'Buyer' }]);
	});

	it('the add-ons shown are the add-ons alone, the services the services alone', () => {
		const value = serviceKeys({ services: listed(['s-1', 's-2']), add_ons: listed(['a-1']) });
		expect(showServices(value)).toEqual({
			services: listed(['s-1', 's-2']),
			add_ons: listed(['a-1']),
		});
	});

	it('a service and an add-on with the same id are two entries', () => {
		const before = serviceKeys({ services: listed(['7']), add_ons: [] });
		const after = serviceKeys({ services: [], add_ons: listed(['7']) });
		expect(servicesDiff(before, after)).toEqual({
			added: { services: [], add_ons: listed(['7']) },
			removed: { services: listed(['7']), add_ons: [] },
		});
	});

	it('services and add-ons are held as one sorted list, as stored states hold them', () => {
		// Held in another order, an unchanged list would read as changed against the stored one.
		const value = serviceKeys({ services: listed(['s-1']), add_ons: listed(['a-1']) });
		expect(value).toHaveLength(2);
		expect(value).toEqual([...value].sort());
	});
});

describe('watched values', () => {
	const contact = (roles: string[]): IDataObject => ({ id: uuid(1), roles });

	it('a new contact: its roles are added, none removed', () => {
		const changes = changesBetween(
			'contacts',
			'new',
			watchedValues('contacts', contact(['Buyer'])),
		);
		expect(changes?.roles).toEqual({
			before: [],
			after: ['Buyer'],
			added: ['Buyer'],
			removed: [],
		});
	});

	it('roles kept by no earlier version: the roles listed now, bounded once', () => {
		const roles = numbered(MAX_KEPT_LIST + 8, 'role');
		const keptBefore = { email: null, tags: [], agency_id: null };
		expect(watchedValues('contacts', contact(roles), keptBefore).roles).toEqual(textKeys(roles));
	});

	it('an inspection without a status shows no change from nothing', () => {
		const values = watchedValues('inspections', { id: uuid(2) });
		expect(changesBetween('inspections', 'new', values)).toEqual({});
	});

	const inspection = (fields: IDataObject): IDataObject => ({ id: uuid(2), ...fields });
	it.each<[string, IDataObject, IDataObject, IDataObject]>([
		[
			'a status where there was none: none shows as null',
			inspection({}),
			inspection({ status: 'confirmed' }),
			{ status: { before: null, after: 'confirmed' } },
		],
		[
			'a quote where there was none: none shows as null',
			inspection({}),
			inspection({ price: { quote: 425 } }),
			{ 'price.quote': { before: null, after: 425 } },
		],
		[
			'a quote taken off: it shows as null after',
			inspection({ price: { quote: 425 } }),
			inspection({}),
			{ 'price.quote': { before: 425, after: null } },
		],
	])('an inspection changed: %s', (_case, before, after, changes) => {
		expect(
			changesBetween(
				'inspections',
				watchedValues('inspections', before),
				watchedValues('inspections', after),
			),
		).toEqual(changes);
	});
});

describe('the dictionary while tags or email domains use all of it', () => {
	const contact = (values: IDataObject): Fingerprint => ({
		updatedAt: T0,
		contentHash: 'h',
		values: { email: null, tags: [], roles: [], agency_id: null, ...values },
	});
	const tag = (i: number) => namedKeys(listed([`t${i}`]))[0];
	it.each<[string, (i: number) => Fingerprint, (i: number) => string]>([
		['tags', (i) => contact({ tags: [tag(i)] }), tag],
		['email domains', (i) => contact({ email: `info@d${i}.test` }), (i) => `d${i}.test`],
	])(
		'%s: past 256 values, each in use, it is stored as it is, byte for byte',
		(_case, fp, entry) => {
			const fingerprints = new Fingerprints('contacts');
			for (let i = 0; i < 300; i++) fingerprints.set(`k${i}`, fp(i));
			// k0 now comes last: a rebuilt dictionary would begin with the second entry.
			fingerprints.delete('k0');
			fingerprints.set('k0', fp(0));
			const { seen, dict } = fingerprints.encode();
			expect(dict).toEqual(Array.from({ length: 300 }, (_, i) => entry(i)));
			expect(new Fingerprints('contacts', seen, dict).get('k150')).toEqual(fp(150));
		},
	);

	it('emails kept as text (no @) use none of it: a dictionary the agencies no longer use is rebuilt', () => {
		const fingerprints = new Fingerprints('contacts');
		const fp = (i: number, agency: string) => contact({ email: `p${i}`, agency_id: agency });
		for (let i = 0; i < 300; i++) fingerprints.set(`k${i}`, fp(i, uuid(10_000 + i)));
		for (let i = 0; i < 300; i++) fingerprints.set(`k${i}`, fp(i, uuid(10_000)));
		const { seen, dict } = fingerprints.encode();
		expect(dict).toEqual([uuid(10_000)]);
		expect(new Fingerprints('contacts', seen, dict).get('k299')).toEqual(fp(299, uuid(10_000)));
	});
});
