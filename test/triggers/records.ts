/**
 * What the trigger keeps of a record (memory/records.ts, memory/remember.ts):
 * every record's memory survives the stored form (a JSON round trip through
 * the packed string and its dictionary), whatever its texts hold; lists past
 * 32 entries are kept cut, with the hash of all their ids; an entry stored
 * before a field existed reads it as its default; the dictionary is rebuilt
 * once mostly unused; record keys give their ids back.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	type AnyMemory,
	type HeldResource,
	MAX_KEPT_LIST,
	MAX_KEPT_TEXT,
	memoryOf,
	recordKey,
	unpackId,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { RecordBook } from '../../nodes/InspectionBusinessTrigger/memory/records';

export function records(): void {
	/** A record's memory as the state gives it back after a JSON round trip. */
	function roundTrip(resource: HeldResource, memory: AnyMemory): AnyMemory | undefined {
		const book = new RecordBook(resource);
		book.set('k', { updatedAt: 1_900_000_000_123, hash: 'h', memory });
		const { records, dictionary } = JSON.parse(JSON.stringify(book.encode())) as {
			records: string;
			dictionary?: string[];
		};
		return new RecordBook(resource, records, dictionary).get('k')?.memory;
	}

	/** What the state keeps of a memory: lists past the bound cut, with every id still hashed. */
	function kept(memory: AnyMemory): AnyMemory {
		const cut = (value: unknown) => {
			const list = value as { entries: unknown[]; complete: boolean; idsHash: string };
			return list.entries.length > MAX_KEPT_LIST
				? { ...list, entries: list.entries.slice(0, MAX_KEPT_LIST), complete: false }
				: list;
		};
		return Object.fromEntries(
			Object.entries(memory).map(([name, value]) => [
				name,
				typeof value === 'object' && value !== null && 'entries' in value ? cut(value) : value,
			]),
		) as AnyMemory;
	}

	/** Texts a record may hold: separators of the stored form, escapes, lone surrogates, long ones. */
	const text = fc.oneof(
		fc.string({ maxLength: 12 }),
		fc.constantFrom(',', ' ', '=', '+', '%', '~', '*', '@', '%u0041', '\ud83d', 'a b,c=d', ''),
		fc.string({ minLength: MAX_KEPT_TEXT - 1, maxLength: MAX_KEPT_TEXT + 3 }),
	);
	const time = fc.oneof(
		fc.constant(null),
		fc
			.integer({ min: -2_000_000_000_000, max: 4_000_000_000_000 })
			.map((ms) => new Date(ms).toISOString()),
		fc.integer({ min: 0, max: 100_000_000 }).map((m) => new Date(m * 60_000).toISOString()),
	);
	const named = fc.array(fc.record({ id: fc.oneof(fc.uuid(), text), name: fc.option(text) }), {
		maxLength: MAX_KEPT_LIST + 3,
	});
	const money = fc.option(
		fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 10_000, noNaN: true })),
	);

	const RECORDS: Record<Exclude<HeldResource, 'attachments'>, fc.Arbitrary<IDataObject>> = {
		inspections: fc.record({
			status: fc.option(
				fc.oneof(fc.constantFrom('draft', 'waiting', 'review', 'confirmed', 'canceled'), text),
			),
			scheduled_for: time,
			ends_at: time,
			duration_hours: fc.option(fc.double({ min: 0, max: 1000, noNaN: true })),
			deleted: fc.boolean(),
			reports: fc.record({
				status: fc.option(fc.oneof(fc.constantFrom('na', 'pending', 'partial', 'published'), text)),
				items: fc.array(fc.record({ id: text, status: fc.constantFrom('published', 'draft') }), {
					maxLength: 3,
				}),
			}),
			price: fc.record({
				quote: money,
				amount_paid: money,
				amount_due: money,
				payment_status: fc.option(fc.oneof(fc.constantFrom('paid', 'unpaid', 'partial'), text)),
				paid: fc.boolean(),
			}),
			agreements: fc.record({
				present: fc.boolean(),
				all_signed: fc.boolean(),
				items: fc.constant([]),
			}),
			inspectors: named,
			services: named,
			add_ons: named,
		}),
		contacts: fc.record({
			email: fc.option(
				fc.oneof(
					text,
					fc.emailAddress(),
					text.map((t) => `${t}@${t}`),
				),
			),
			tags: named,
			roles: fc.array(text, { maxLength: MAX_KEPT_LIST + 3 }),
			agency_id: fc.option(text),
		}),
		events: fc.record({
			name: fc.option(text),
			start_at: time,
			end_at: time,
			inspector_ids: fc.array(text, { maxLength: MAX_KEPT_LIST + 3 }),
		}),
	};

	test.each(Object.keys(RECORDS) as Array<keyof typeof RECORDS>)(
		"every %s record's memory survives the stored form",
		(resource) => {
			fc.assert(
				fc.property(RECORDS[resource], (record) => {
					const memory = memoryOf(resource, record) as AnyMemory;
					expect(roundTrip(resource, memory)).toEqual(kept(memory));
				}),
				{ numRuns: 300, seed: 1 },
			);
		},
	);

	test('an inspection remembers what the record cannot say: the once-moments, the last reminder and the last time known', () => {
		const booked = memoryOf('inspections', { scheduled_for: '2030-03-01T09:00:00Z' });
		const reminded = { ...booked, happened: ['paid' as const], remindedStart: booked.start };
		const unscheduled = memoryOf('inspections', { scheduled_for: null }, reminded);
		expect(unscheduled).toMatchObject({
			start: null,
			lastStart: booked.start,
			happened: ['paid'],
			remindedStart: booked.start,
		});
		expect(roundTrip('inspections', unscheduled)).toEqual(unscheduled);
	});

	test('a contact keeps every role it has had; a list stored cut keeps the hash of all its ids', () => {
		const had = memoryOf('contacts', { roles: ['Customer', 'Buyer Agent'] });
		const now = memoryOf('contacts', { roles: ['Customer'] }, had);
		expect(now.rolesHad.entries).toEqual(['Buyer Agent', 'Customer']);
		const many = memoryOf('contacts', {
			tags: Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, name: null })),
		});
		// Stored, read back and stored again (a change to another field): still the hash of all 40.
		const stored = roundTrip('contacts', roundTrip('contacts', many)!) as typeof many;
		expect(stored.tags).toEqual({
			entries: many.tags.entries.slice(0, MAX_KEPT_LIST),
			complete: false,
			idsHash: many.tags.idsHash,
		});
	});

	test("an entry stored before a field existed reads it as the field's default", () => {
		const book = new RecordBook('inspections');
		book.set('k', {
			updatedAt: 1,
			hash: 'h',
			memory: memoryOf('inspections', { status: 'confirmed' }),
		});
		// The first two fields only, as an entry written before the others were appended.
		const [key, packed] = book.encode().records.split('=');
		const short = `${key}=${packed.split(',').slice(0, 3).join(',')}`;
		const memory = new RecordBook('inspections', short).get('k')!.memory!;
		expect(memory).toEqual(memoryOf('inspections', { status: 'confirmed' }));
	});

	test('the dictionary is rebuilt once most of it is unused, and every record reads the same', () => {
		const book = new RecordBook('contacts');
		const contact = (i: number) =>
			memoryOf('contacts', { tags: [{ id: `t${i}`, name: `Tag ${i}` }] });
		for (let i = 0; i < 400; i++)
			book.set(`k${i}`, { updatedAt: i, hash: 'h', memory: contact(i) });
		for (let i = 0; i < 390; i++) book.delete(`k${i}`);
		const { records, dictionary } = book.encode();
		expect(dictionary!.length).toBe(10);
		const reread = new RecordBook('contacts', records, dictionary);
		for (let i = 390; i < 400; i++) expect(reread.get(`k${i}`)!.memory).toEqual(contact(i));
	});

	test('a record key gives its id back, whatever the id; attachments are keyed by inspection and id', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.uuid(),
					fc.string({ maxLength: 20 }),
					fc.constantFrom('legacy/7', 'a b=c', '\ud83d'),
				),
				(id) => {
					const key = recordKey('inspections', { id })!;
					expect(key).not.toMatch(/[ =,]/);
					expect(unpackId(key)).toBe(id);
				},
			),
			{ seed: 1 },
		);
		const a = recordKey('attachments', { id: '1', inspection_id: 'x/y' });
		const b = recordKey('attachments', { id: 'y/1', inspection_id: 'x' });
		expect(a).not.toBe(b);
		expect(recordKey('attachments', { id: '1' })).toBeNull();
		expect(recordKey('contacts', { name: 'no id' })).toBeNull();
	});
}
