/**
 * The catalog's rules (catalog/index.ts, in the words of catalog/words.ts),
 * one business case a row: a record as the trigger held it, the record now,
 * and the events the rules give, before the selection and Only Trigger Once
 * (those are the poll's: moments.model.test.ts). Each row is a sentence of
 * docs/moments.md at its edge.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	type Change,
	EVENT_ROWS,
	type PollEvent,
} from '../../nodes/InspectionBusinessTrigger/catalog';
import { type HeldResource, memoryOf } from '../../nodes/InspectionBusinessTrigger/memory';

export function catalog(): void {
	const WINDOW_START = Date.parse('2030-03-01T10:00:00Z');
	const BEFORE_WINDOW = '2030-02-01T10:00:00Z';
	const IN_WINDOW = '2030-03-01T10:01:00Z';

	const inspection = (over: IDataObject = {}): IDataObject => ({
		id: 'i1',
		status: 'confirmed',
		scheduled_for: '2030-03-05T09:00:00Z',
		duration_hours: 3,
		created_at: BEFORE_WINDOW,
		updated_at: IN_WINDOW,
		services: [{ id: 's1', name: 'Home' }],
		add_ons: [],
		inspectors: [{ id: 'a', name: 'Alex' }],
		price: { quote: 425, amount_paid: 0, amount_due: 425, payment_status: 'unpaid', paid: false },
		agreements: { present: true, all_signed: false, items: [{ status: 'sent', signed_at: null }] },
		reports: { status: 'pending', items: [] },
		...over,
	});
	const contact = (over: IDataObject = {}): IDataObject => ({
		id: 'c1',
		email: 'ada@example.com',
		tags: [],
		roles: ['Customer'],
		created_at: BEFORE_WINDOW,
		updated_at: IN_WINDOW,
		...over,
	});
	const paid = { quote: 425, amount_paid: 425, amount_due: 0, payment_status: 'paid', paid: true };
	const signed = {
		present: true,
		all_signed: true,
		items: [{ status: 'signed', signed_at: IN_WINDOW }],
	};
	const tags = (n: number) =>
		Array.from({ length: n }, (_, i) => ({ id: `t${String(i).padStart(2, '0')}`, name: `T${i}` }));

	/** The events of the catalog's rules for one change of `resource`. */
	function eventsOf(
		resource: HeldResource,
		before: IDataObject | null,
		now: IDataObject,
		{ isNew = false, stored = false }: { isNew?: boolean; stored?: boolean } = {},
	): PollEvent[] {
		// A memory as stored: lists cut, which the words see when `stored`.
		const held = before === null ? null : memoryOf(resource, before);
		const heldMemory =
			held !== null && stored && resource === 'contacts'
				? { ...held, tags: cut((held as { tags: never }).tags) }
				: held;
		const change: Change<unknown> = {
			now: memoryOf(resource, now, (heldMemory ?? undefined) as never),
			before: heldMemory,
			isNew,
			record: now,
			windowStart: WINDOW_START,
		};
		return EVENT_ROWS.filter(
			(row) => row.resource === resource && row.happened?.(change as never),
		).map((row) => row.value);
	}

	/** A list as the state stores it past 32 entries: the first 32, not complete. */
	const cut = <T>(list: { entries: T[]; complete: boolean; idsHash: string }) =>
		list.entries.length > 32
			? { ...list, entries: list.entries.slice(0, 32), complete: false }
			: list;

	describe('inspections', () => {
		test.each<[string, IDataObject | null, IDataObject, PollEvent[], { isNew?: boolean }?]>([
			[
				'a new booking, confirmed and with an inspector',
				null,
				inspection(),
				['inspection.created', 'inspection.confirmed', 'inspection.inspector_assigned'],
				{ isNew: true },
			],
			[
				'a new booking paid at once: money received, paid',
				null,
				inspection({ price: paid }),
				[
					'inspection.created',
					'inspection.confirmed',
					'inspection.payment_received',
					'inspection.paid',
					'inspection.inspector_assigned',
				],
				{ isNew: true },
			],
			[
				'first seen, not new: updated only, whatever holds',
				null,
				inspection({ price: paid, agreements: signed }),
				['inspection.updated'],
			],
			[
				'first seen, not new, canceled inside the window',
				null,
				inspection({ status: 'canceled', canceled_at: IN_WINDOW }),
				['inspection.updated', 'inspection.canceled'],
			],
			[
				'first seen, not new, canceled before the window',
				null,
				inspection({ status: 'canceled', canceled_at: BEFORE_WINDOW }),
				['inspection.updated'],
			],
			[
				'first seen, not new, deleted inside the window',
				null,
				inspection({ deleted: true, deleted_at: IN_WINDOW }),
				['inspection.updated', 'inspection.deleted'],
			],
			[
				'confirmed',
				inspection({ status: 'waiting' }),
				inspection(),
				['inspection.updated', 'inspection.confirmed'],
			],
			[
				'moved to another day',
				inspection(),
				inspection({ scheduled_for: '2030-03-06T09:00:00Z' }),
				['inspection.updated', 'inspection.rescheduled'],
			],
			[
				'its time taken away is no move',
				inspection(),
				inspection({ scheduled_for: null }),
				['inspection.updated'],
			],
			[
				'given back its time after none: no move',
				inspection({ scheduled_for: null }),
				inspection(),
				['inspection.updated'],
			],
			[
				'a part payment: money received, not paid',
				inspection(),
				inspection({
					price: {
						...paid,
						amount_paid: 100,
						amount_due: 325,
						paid: false,
						payment_status: 'partial',
					},
				}),
				['inspection.updated', 'inspection.payment_received'],
			],
			[
				'paid in full',
				inspection(),
				inspection({ price: paid }),
				['inspection.updated', 'inspection.payment_received', 'inspection.paid'],
			],
			[
				'paid, then signed: paid and signed when the last one comes',
				inspection({ price: paid }),
				inspection({ price: paid, agreements: signed }),
				['inspection.updated', 'inspection.agreements_signed', 'inspection.paid_and_signed'],
			],
			[
				'paid with nothing to sign: paid and signed',
				inspection({ agreements: { present: false, all_signed: false, items: [] } }),
				inspection({ price: paid, agreements: { present: false, all_signed: false, items: [] } }),
				[
					'inspection.updated',
					'inspection.payment_received',
					'inspection.paid',
					'inspection.paid_and_signed',
				],
			],
			[
				'signed with nothing to pay ($0): paid and signed, never paid',
				inspection({ price: { quote: 0, amount_paid: 0, amount_due: 0, paid: false } }),
				inspection({
					price: { quote: 0, amount_paid: 0, amount_due: 0, paid: false },
					agreements: signed,
				}),
				['inspection.updated', 'inspection.agreements_signed', 'inspection.paid_and_signed'],
			],
			[
				'one agreement of two signed is not signed',
				inspection({
					agreements: {
						present: true,
						all_signed: false,
						items: [{ status: 'sent' }, { status: 'sent' }],
					},
				}),
				inspection({
					agreements: {
						present: true,
						all_signed: false,
						items: [{ status: 'signed' }, { status: 'sent' }],
					},
				}),
				['inspection.updated'],
			],
			[
				'the first report published (partial): published',
				inspection(),
				inspection({
					reports: {
						status: 'partial',
						items: [
							{ id: 'r1', status: 'published' },
							{ id: 'r2', status: 'draft' },
						],
					},
				}),
				['inspection.updated', 'inspection.published'],
			],
			[
				'paid and signed, then the first report: released',
				inspection({ price: paid, agreements: signed }),
				inspection({
					price: paid,
					agreements: signed,
					reports: { status: 'partial', items: [{ id: 'r1', status: 'published' }] },
				}),
				['inspection.updated', 'inspection.published', 'inspection.paid_signed_published'],
			],
			[
				'the second report published: published again (before Only Trigger Once)',
				inspection({
					reports: {
						status: 'partial',
						items: [
							{ id: 'r1', status: 'published' },
							{ id: 'r2', status: 'draft' },
						],
					},
				}),
				inspection({
					reports: {
						status: 'published',
						items: [
							{ id: 'r1', status: 'published' },
							{ id: 'r2', status: 'published' },
						],
					},
				}),
				['inspection.updated', 'inspection.published'],
			],
			[
				'a report republished after a fix: not published again',
				inspection({
					reports: {
						status: 'published',
						items: [{ id: 'r1', name: 'Home', status: 'published' }],
					},
				}),
				inspection({
					reports: {
						status: 'published',
						items: [{ id: 'r1', name: 'Home (fixed)', status: 'published' }],
					},
				}),
				['inspection.updated'],
			],
			[
				'an add-on sold: fees changed',
				inspection(),
				inspection({
					add_ons: [{ id: 'x', name: 'Radon', quantity: 1 }],
					price: { ...paid, quote: 600, paid: false, amount_paid: 0, amount_due: 600 },
				}),
				['inspection.updated', 'inspection.fees_changed'],
			],
			[
				'a quote summed in floating point is the same quote',
				inspection({ price: { quote: 425.1 } }),
				inspection({ price: { quote: 425.09999999999997 } }),
				['inspection.updated'],
			],
			[
				'a quote briefly null is no fee change',
				inspection(),
				inspection({ price: { quote: null } }),
				['inspection.updated'],
			],
			[
				'a quantity alone is no fee change',
				inspection({ add_ons: [{ id: 'x', quantity: 1 }] }),
				inspection({ add_ons: [{ id: 'x', quantity: 2 }] }),
				['inspection.updated'],
			],
			[
				'an inspector swapped: assigned and removed',
				inspection(),
				inspection({ inspectors: [{ id: 'b', name: 'Bo' }] }),
				['inspection.updated', 'inspection.inspector_assigned', 'inspection.inspector_removed'],
			],
			[
				'canceled',
				inspection(),
				inspection({ status: 'canceled', canceled_at: IN_WINDOW }),
				['inspection.updated', 'inspection.canceled'],
			],
			[
				'deleted',
				inspection(),
				inspection({ deleted: true, deleted_at: IN_WINDOW }),
				['inspection.updated', 'inspection.deleted'],
			],
		])('%s', (...row) => {
			// Rows without options: jest would take a fifth parameter for its done callback.
			const [, before, now, expected, options] = row;
			expect(eventsOf('inspections', before, now, options).sort()).toEqual([...expected].sort());
		});

		test('a quote back after a null is compared with the last one known', () => {
			const held = memoryOf('inspections', inspection());
			const nulled = memoryOf('inspections', inspection({ price: { quote: null } }), held);
			const change: Change<unknown> = {
				now: memoryOf('inspections', inspection({ price: { quote: 450 } }), nulled),
				before: nulled,
				isNew: false,
				record: inspection({ price: { quote: 450 } }),
				windowStart: WINDOW_START,
			};
			const fees = EVENT_ROWS.find((row) => row.value === 'inspection.fees_changed')!;
			expect(fees.happened!(change as never)).toBe(true);
		});
	});

	describe('contacts', () => {
		test.each<
			[string, IDataObject | null, IDataObject, PollEvent[], { isNew?: boolean; stored?: boolean }?]
		>([
			[
				'a new contact with a tag and a role',
				null,
				contact({ tags: tags(1) }),
				['contact.created', 'contact.tag_added', 'contact.new_role'],
				{ isNew: true },
			],
			[
				'first seen, not new: updated only',
				null,
				contact({ tags: tags(1), roles: ['Buyer Agent'] }),
				['contact.updated'],
			],
			[
				'a tag swapped',
				contact({ tags: tags(1) }),
				contact({ tags: [{ id: 'z', name: 'Z' }] }),
				['contact.updated', 'contact.tag_added', 'contact.tag_removed'],
			],
			[
				'a tag renamed: neither added nor removed',
				contact({ tags: [{ id: 't', name: 'Lead' }] }),
				contact({ tags: [{ id: 't', name: 'Hot lead' }] }),
				['contact.updated'],
			],
			[
				'a client now a buyer agent: a new role',
				contact(),
				contact({ roles: ['Customer', 'Buyer Agent'] }),
				['contact.updated', 'contact.new_role'],
			],
			[
				'a role left out, then given again: not new',
				contact({ roles: ['Customer', 'Buyer Agent'] }),
				contact({ roles: ['Customer'] }),
				['contact.updated'],
			],
			[
				'held past 32 tags, one more: the added one cannot be told',
				contact({ tags: tags(33) }),
				contact({ tags: [...tags(33), { id: 'zz', name: 'New' }] }),
				['contact.updated'],
				{ stored: true },
			],
			[
				'held past 32 tags, one of the 32 taken off: removed',
				contact({ tags: tags(33) }),
				contact({ tags: tags(33).slice(1) }),
				['contact.updated', 'contact.tag_removed'],
				{ stored: true },
			],
			[
				'held past 32 tags, one beyond them taken off: not told, never a stand-in',
				contact({ tags: tags(34) }),
				contact({ tags: tags(33) }),
				['contact.updated'],
				{ stored: true },
			],
		])('%s', (...row) => {
			const [, before, now, expected, options] = row;
			expect(eventsOf('contacts', before, now, options).sort()).toEqual([...expected].sort());
		});
	});
}
