/**
 * The trigger's memory, part by part: what identifies a record, when a listed
 * record is the version seen before, what `previous` shows, how a fingerprint
 * is stored and read back (its dictionary reused, and rebuilt only when mostly
 * unused), how long texts and lists are kept so that a change beyond the bound
 * still shows, the kept facts' round trip, and which versions the cap evicts.
 * The polls that use all of these are in poll.*.test.ts; these pin the parts
 * a poll's items cannot single out.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	hashText,
	keptList,
	keptText,
	MAX_KEPT_LIST,
	MAX_KEPT_TEXT,
} from '../../nodes/InspectionBusinessTrigger/memory/bounds';
import {
	contentHashOf,
	type Fingerprint,
	Fingerprints,
	packKey,
	publicFingerprint,
	recordKey,
	sameVersion,
	unpackId,
} from '../../nodes/InspectionBusinessTrigger/memory';
import {
	type KeptFacts,
	packFacts,
	unpackFacts,
} from '../../nodes/InspectionBusinessTrigger/memory/keptFacts';
import { enforceCap } from '../../nodes/InspectionBusinessTrigger/memory';
import { uuid } from './fake-api';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MINUTE = 60_000;

describe('recordKey: what identifies a record', () => {
	it.each<[string, string, IDataObject, string | null]>([
		['a contact by its id', 'contacts', { id: uuid(1) }, uuid(1)],
		['a numeric id, as text', 'inspections', { id: 42 }, '42'],
		['no id', 'contacts', { email: 'a@example.com' }, null],
		['an id that is an object', 'contacts', { id: { value: 1 } }, null],
		['an id that is null', 'inspections', { id: null }, null],
		[
			'an attachment, within its inspection',
			'attachments',
			{ id: 7, inspection_id: uuid(2) },
			`${uuid(2)}/7`,
		],
		['an attachment without its inspection', 'attachments', { id: 7 }, null],
		[
			'an attachment whose inspection id is a number',
			'attachments',
			{ id: 7, inspection_id: 3 },
			null,
		],
	])('%s', (_name, resource, record, key) => {
		expect(recordKey(resource as 'contacts', record)).toBe(key);
	});
});

describe('contentHashOf: equal content, equal hash; other content, another hash', () => {
	const same: Array<[string, IDataObject, IDataObject]> = [
		[
			'keys in another order, at every level',
			{ a: 1, b: { c: [1, { d: 2, e: 3 }] } },
			{ b: { c: [1, { e: 3, d: 2 }] }, a: 1 },
		],
		[
			'a signed link minted afresh',
			{ id: 1, url: 'https://files.example/a?sig=1', photo_url: 'x', cover_photo_url: 'y' },
			{ id: 1, url: 'https://files.example/a?sig=2', photo_url: 'z', cover_photo_url: 'w' },
		],
	];
	const different: Array<[string, IDataObject, IDataObject]> = [
		['a list nested in a list', { a: [1, 2] }, { a: [[1, 2]] }],
		['entries that join to the same text', { a: [1, 2] }, { a: [12] }],
		['a list against its text', { a: ['x'] }, { a: '["x"]' }],
		['entries in another order', { a: [1, 2] }, { a: [2, 1] }],
		['a value nested one level deeper', { a: { b: 1 } }, { a: { b: { c: 1 } } }],
		['a number against its text', { a: 1 }, { a: '1' }],
	];
	it.each(same)('the same: %s', (_name, a, b) => expect(contentHashOf(a)).toBe(contentHashOf(b)));
	it.each(different)('different: %s', (_name, a, b) =>
		expect(contentHashOf(a)).not.toBe(contentHashOf(b)),
	);
});

describe('sameVersion: is a listed record the version seen before?', () => {
	const fp = (updatedAt: number, contentHash?: string): Fingerprint => ({ updatedAt, contentHash });
	it.each<[string, Fingerprint, Fingerprint, boolean]>([
		['same time and content', fp(T0, 'h1'), fp(T0, 'h1'), true],
		['same time, other content (a clock that did not move)', fp(T0, 'h1'), fp(T0, 'h2'), false],
		['other time, same content (a restore)', fp(T0, 'h1'), fp(T0 + 1, 'h1'), false],
		['an older time, same content (a clock set back)', fp(T0, 'h1'), fp(T0 - 1, 'h1'), false],
		['a state stored before hashes: the same time', fp(T0), fp(T0, 'h1'), true],
		['a state stored before hashes: an older listed time', fp(T0), fp(T0 - 1, 'h1'), true],
		['a state stored before hashes: a newer listed time', fp(T0), fp(T0 + 1, 'h1'), false],
	])('%s', (_name, seen, current, same) => expect(sameVersion(seen, current)).toBe(same));
});

describe("publicFingerprint: an item's previous", () => {
	it('an inspection shows its kept status, schedule, report status and deletion', () => {
		const values = {
			status: 'confirmed',
			'reports.status': 'published',
			deleted: true,
			scheduled_for: T0,
		};
		expect(publicFingerprint('inspections', { updatedAt: T0, values })).toEqual({
			updated_at: new Date(T0).toISOString(),
			status: 'confirmed',
			scheduled_for: new Date(T0).toISOString(),
			reports_status: 'published',
			deleted: true,
		});
	});
	it('an inspection kept without values shows nulls and not deleted', () => {
		expect(publicFingerprint('inspections', { updatedAt: T0 })).toEqual({
			updated_at: new Date(T0).toISOString(),
			status: null,
			scheduled_for: null,
			reports_status: null,
			deleted: false,
		});
	});
	it('any other record shows only when it changed', () => {
		const values = { email: 'a@example.com' };
		expect(publicFingerprint('contacts', { updatedAt: T0, values })).toEqual({
			updated_at: new Date(T0).toISOString(),
		});
	});
});

describe('packKey: stored keys', () => {
	it('a UUID packs into 22 characters and back', () => {
		expect(packKey(uuid(5))).toHaveLength(22);
		expect(unpackId(packKey(uuid(5)))).toBe(uuid(5));
	});
	it('any other id comes back as it was', () => {
		for (const id of ['42', 'a b,c=d', 'ü%~']) expect(unpackId(packKey(id))).toBe(id);
	});
	it("an attachment's key packs each side of its slash", () => {
		const key = `${uuid(1)}/${uuid(2)}`;
		expect(packKey(key)).toBe(`${packKey(uuid(1))}/${packKey(uuid(2))}`);
		expect(packKey(`${uuid(1)}/7`)).not.toBe(packKey(`${uuid(1)}/8`));
	});
});

/** A contact's watched values with one agency (kept in the dictionary). */
const contact = (agency: string | null, updatedAt = T0): Fingerprint => ({
	updatedAt,
	contentHash: 'h',
	values: { email: null, tags: [], roles: [], agency_id: agency },
});
/** The contacts' fingerprints `keys` with agencies `agencies[i]`. */
function contacts(agencies: string[], keys = agencies.map((_, i) => `k${i}`)) {
	const fingerprints = new Fingerprints('contacts');
	keys.forEach((key, i) => fingerprints.set(key, contact(agencies[i])));
	return fingerprints;
}
const numbered = (n: number, prefix = 'agency') =>
	Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('Fingerprints: the stored form', () => {
	it('reads back what it stored, values or none', () => {
		const fingerprints = new Fingerprints('attachments');
		fingerprints.set('a', { updatedAt: T0, contentHash: 'h' });
		fingerprints.set('b', { updatedAt: T0 + 1 });
		const { seen, dict } = fingerprints.encode();
		const read = new Fingerprints('attachments', seen, dict);
		expect(read.get('a')).toEqual({ updatedAt: T0, contentHash: 'h' });
		expect(read.get('b')).toEqual({ updatedAt: T0 + 1 });
		expect(read.get('c')).toBeUndefined();
	});

	it('an empty stored text holds nothing, and entries without a key are left out', () => {
		expect(new Fingerprints('contacts').size).toBe(0);
		expect(new Fingerprints('contacts', '').encode()).toEqual({ seen: '' });
		const read = new Fingerprints('attachments', `junk =${T0.toString(36)} k=${T0.toString(36)}`);
		expect([...read.times()]).toEqual([['k', T0]]);
	});

	it('a dictionary read back is reused: a value it holds is not added again', () => {
		const { seen, dict } = contacts(['Acme', 'Beta']).encode();
		const read = new Fingerprints('contacts', seen, dict);
		read.set('k2', contact('Beta'));
		expect(read.encode().dict).toEqual(['Acme', 'Beta']);
		expect(read.get('k2')).toEqual(contact('Beta'));
	});

	it('a dictionary mostly unused is rebuilt of the values still used', () => {
		const fingerprints = contacts(numbered(300));
		for (let i = 0; i < 300; i++) fingerprints.set(`k${i}`, contact('Acme'));
		const { seen, dict } = fingerprints.encode();
		expect(dict).toEqual(['Acme']);
		expect(new Fingerprints('contacts', seen, dict).get('k299')).toEqual(contact('Acme'));
	});

	it('a dictionary half unused is rebuilt; one used more than half is kept as it is', () => {
		const half = contacts(numbered(300));
		for (let i = 0; i < 150; i++) half.delete(`k${i}`);
		expect(half.encode().dict).toEqual(numbered(300).slice(150));

		// All in use, in another order than the fingerprints': stored as it is, byte for byte.
		const used = contacts(numbered(300));
		used.delete('k0');
		used.set('k0', contact('agency0'));
		expect(used.encode().dict).toEqual(numbered(300));
		const mostly = contacts(numbered(300));
		for (let i = 0; i < 149; i++) mostly.delete(`k${i}`);
		expect(mostly.encode().dict).toEqual(numbered(300));
	});

	it('a dictionary of up to 256 values is never checked', () => {
		const small = contacts(numbered(256));
		for (let i = 1; i < 256; i++) small.delete(`k${i}`);
		expect(small.encode().dict).toEqual(numbered(256));
		const larger = contacts(numbered(257));
		for (let i = 1; i < 257; i++) larger.delete(`k${i}`);
		expect(larger.encode().dict).toEqual(['agency0']);
	});
});

describe('bounds: long texts and lists', () => {
	const long = (c: string) => c.repeat(MAX_KEPT_TEXT + 100);
	it('a text up to the bound is kept as it is; a longer one is kept short', () => {
		expect(keptText(long('a').slice(0, MAX_KEPT_TEXT))).toBe(long('a').slice(0, MAX_KEPT_TEXT));
		expect(keptText(long('a')).length).toBeLessThan(MAX_KEPT_TEXT);
	});
	it('a change to a long text still changes what is kept', () => {
		const text = long('a');
		const changed = `${text.slice(0, -1)}b`;
		expect(keptText(changed)).not.toBe(keptText(text));
		expect(keptText(`${text}a`)).not.toBe(keptText(text));
		expect(keptText(long('a'))).toBe(keptText(text));
	});

	const entries = (n: number, last = 'z') => [...numbered(n - 1, 'e'), last];
	const standIn = (summary: string) => `<${summary}>`;
	it('a list up to the bound is kept as it is', () => {
		expect(keptList(entries(MAX_KEPT_LIST), standIn)).toEqual(entries(MAX_KEPT_LIST));
	});
	it('a longer list keeps its first entries and one that stands for the rest', () => {
		const kept = keptList(entries(MAX_KEPT_LIST + 8), standIn);
		expect(kept).toHaveLength(MAX_KEPT_LIST + 1);
		expect(kept.slice(0, MAX_KEPT_LIST)).toEqual(
			entries(MAX_KEPT_LIST + 8).slice(0, MAX_KEPT_LIST),
		);
	});
	it('a change past the bound still changes what is kept, however the entries split', () => {
		const head = numbered(MAX_KEPT_LIST, 'e');
		const kept = (tail: string[]) => keptList([...head, ...tail], standIn);
		expect(kept(['x', 'y'])).not.toEqual(kept(['x', 'z']));
		expect(kept(['ab', 'c'])).not.toEqual(kept(['a', 'bc']));
		expect(kept(['x', 'y'])).toEqual(kept(['x', 'y']));
	});
	it('the hash is the one stored states hold (FNV-1a, 32 bits, base 36)', () => {
		// Another hash would make every record version an upgrade finds in its state look new.
		expect([hashText(''), hashText('a'), hashText('inspection')]).toEqual([
			'ztntfp',
			'1r9wi7g',
			'1diordf',
		]);
		expect(contentHashOf({ id: 'x', status: 'confirmed', tags: [1, 2] })).toBe('3kg5qt');
	});
});

describe('kept facts: stored and read back', () => {
	const all: KeptFacts[] = [];
	for (const paid of [false, true])
		for (const signed of [false, true])
			for (const nothingToSign of [false, true])
				for (const lengthQuarters of [0, 1, 12])
					all.push({
						paid,
						signed,
						nothingToSign,
						lengthQuarters,
						reported: 0,
						remindedStarts: [],
					});
	it.each(all)('%j', (facts) => {
		expect(unpackFacts(packFacts(facts))).toEqual(facts);
		const reported = { ...facts, reported: 5, remindedStarts: [T0, T0 + 30 * MINUTE] };
		expect(unpackFacts(packFacts(reported))).toEqual(reported);
	});
});

describe('the cap: which versions go first', () => {
	const times = (fingerprints: Fingerprints) =>
		[...fingerprints.times()].map(([, at]) => at).sort((a, b) => a - b);
	it('a memory at or under the cap keeps everything', () => {
		const fingerprints = new Fingerprints('attachments');
		[3, 1, 2].forEach((m) => fingerprints.set(`k${m}`, { updatedAt: T0 + m * MINUTE }));
		enforceCap(fingerprints, 3);
		expect(fingerprints.size).toBe(3);
	});
	it('past the cap the least recently updated go first, whatever the order they came in', () => {
		const fingerprints = new Fingerprints('attachments');
		[5, 1, 4, 2, 3].forEach((m) => fingerprints.set(`k${m}`, { updatedAt: T0 + m * MINUTE }));
		enforceCap(fingerprints, 2);
		expect(times(fingerprints)).toEqual([T0 + 4 * MINUTE, T0 + 5 * MINUTE]);
		enforceCap(fingerprints, 0);
		expect(fingerprints.size).toBe(0);
	});
});
