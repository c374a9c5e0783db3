/**
 * Fetch Test Event (pickSample, testEvent.ts) on records alone, no API: each
 * selectable poll event is shown by a minimal record of its own (or by its
 * stand-in: a scheduled time for rescheduled, tags for tag added, services for
 * fees changed, an upcoming or finished inspection for Starting and Ended,
 * counted by status), and a record without it gives nothing; tag removed and
 * inspector removed have no stand-in and never give a sample, an attachment
 * always does. The newest record that shows a selected event wins across the
 * watched resources (updated_at, else created_at; a tie keeps the first found);
 * the item is shaped as the poll shapes it (its `events` in catalog order, the
 * most specific as `event`, inspector assigned naming the first inspector when
 * alone, new roles named), with `previous` and `changes` always null.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { pickSample } from '../../nodes/InspectionBusinessTrigger/testEvent';
import { uuid } from './fake-api';

export function testEvent(): void {
	const HOUR = 3_600_000;
	const NOW = Date.parse('2030-03-01T08:00:00.000Z');
	/** A time `hours` from NOW, as the API sends it. */
	const at = (hours: number) => new Date(NOW + hours * HOUR).toISOString();
	/** Created and not updated since; updated a day after its creation. */
	const FRESH = { created_at: at(-24), updated_at: at(-24) };
	const STALE = { created_at: at(-48), updated_at: at(-24) };
	const NO_TIMES = { created_at: undefined, updated_at: undefined };

	/** Minimal records of the spec's shapes (api-v1.md), updated since created unless `over` says. */
	const BUILDERS: Record<Resource, (over?: IDataObject) => IDataObject> = {
		inspections: (over = {}) => ({ id: uuid(1), status: 'draft', ...STALE, ...over }),
		contacts: (over = {}) => ({ id: uuid(2), first_name: 'Dana', roles: [], ...STALE, ...over }),
		events: (over = {}) => ({ id: uuid(3), inspection_id: uuid(1), ...STALE, ...over }),
		attachments: (over = {}) => ({
			id: 'doc-1',
			inspection_id: uuid(1),
			kind: 'document',
			...over,
		}),
	};
	const { inspections: inspection, contacts: contact } = BUILDERS;
	const PREFIXES: Record<string, Resource> = {
		inspection: 'inspections',
		contact: 'contacts',
		inspection_event: 'events',
		attachment: 'attachments',
	};
	const resourceOf = (event: PollEvent) => PREFIXES[event.split('.')[0]];

	const ALEX = { id: 'insp-1', name: 'Alex Rivera' };
	const TAGGED = { tags: [{ id: 't-1', name: 'VIP' }] };
	const PAID = { price: { paid: true, amount_paid: 425, amount_due: 0, payment_status: 'paid' } };
	const PARTIAL = { price: { paid: false, amount_paid: 100, amount_due: 325 } };
	const agreement = (status: string) => ({ name: 'Agreement', status, signed_at: null });
	const SIGNED = { agreements: { present: true, all_signed: true, items: [agreement('signed')] } };
	const UNSIGNED = { agreements: { present: true, all_signed: false, items: [agreement('sent')] } };
	const NONE_TO_SIGN = { agreements: { present: false, all_signed: false, items: [] } };
	const PUBLISHED = { reports: { status: 'published', items: [] } };
	/** Paid, nothing to sign and published: every gate of paid, signed and published open. */
	const GATES = { ...PAID, ...NONE_TO_SIGN, ...PUBLISHED };
	const UPCOMING = { status: 'confirmed', scheduled_for: at(1), duration_hours: 2 };
	const OVER = { status: 'confirmed', scheduled_for: at(-5), duration_hours: 2 };

	type Lists = Array<[Resource, IDataObject[]]>;
	/** Fetch Test Event's first item as version 1 shapes it (one item per change), or null. */
	const pick = (lists: Lists, selected: PollEvent[], statuses = ['confirmed']) =>
		pickSample(
			lists.map(([resource, records]) => ({ resource, records })),
			selected,
			NOW,
			{ statuses, oneItemPerMoment: false },
		)[0] ?? null;
	/** The whole item Fetch Test Event gives for `record`. */
	const item = (record: IDataObject, events: PollEvent[], event = events[0], extra = {}) => ({
		event,
		events,
		record,
		previous: null,
		changes: null,
		...extra,
	});

	describe('each event, shown by a record alone', () => {
		// [event, what shows it, what does not, what the item adds]
		it.each<[PollEvent, IDataObject, IDataObject, IDataObject?]>([
			['inspection.created', FRESH, STALE],
			['inspection.updated', STALE, FRESH],
			['inspection.confirmed', { status: 'confirmed' }, { status: 'waiting' }],
			['inspection.rescheduled', { scheduled_for: at(5) }, { scheduled_for: null }],
			['inspection.canceled', { status: 'canceled' }, { status: 'confirmed' }],
			['inspection.published', PUBLISHED, { reports: { status: 'pending' } }],
			['inspection.deleted', { deleted: true, deleted_at: at(-1) }, { deleted: false }],
			['inspection.paid', PAID, PARTIAL],
			['inspection.agreements_signed', SIGNED, NONE_TO_SIGN],
			['inspection.paid_and_signed', { ...PAID, ...NONE_TO_SIGN }, { ...PAID, ...UNSIGNED }],
			['inspection.paid_and_signed', { ...PAID, ...SIGNED }, { ...PARTIAL, ...SIGNED }],
			['inspection.paid_signed_published', GATES, { ...GATES, ...UNSIGNED }],
			['inspection.paid_signed_published', { ...GATES, ...SIGNED }, { ...GATES, ...PARTIAL }],
			['inspection.paid_signed_published', GATES, { ...GATES, reports: { status: 'pending' } }],
			['inspection.inspector_assigned', { inspectors: [ALEX] }, {}, { inspector: ALEX }],
			[
				'inspection.fees_changed',
				{ services: [{ id: 's-1', name: 'Full Home' }] },
				{ services: [] },
			],
			[
				'inspection.fees_changed',
				{ add_ons: [{ id: 'a-1', quantity: 1 }] },
				{ price: { quote: 9 } },
			],
			['inspection.starting', UPCOMING, OVER],
			['inspection.ended', OVER, UPCOMING],
			['contact.created', FRESH, STALE],
			['contact.updated', STALE, FRESH],
			['contact.tag_added', TAGGED, { tags: [] }],
			['contact.new_role', { roles: ['Lender'] }, { roles: [] }, { new_roles: ['Lender'] }],
			['inspection_event.created', FRESH, STALE],
			['inspection_event.updated', STALE, FRESH],
		])('%s', (event, shows, doesNot, extra = {}) => {
			const build = BUILDERS[resourceOf(event)];
			const record = build(shows);
			expect(pick([[resourceOf(event), [record]]], [event])).toStrictEqual(
				item(record, [event], event, extra),
			);
			expect(pick([[resourceOf(event), [build(doesNot)]]], [event])).toBeNull();
		});

		it.each<[PollEvent, IDataObject]>([
			['inspection.inspector_removed', { inspectors: [ALEX], ...FRESH }],
			['inspection.inspector_removed', { inspectors: [ALEX], ...STALE }],
			['contact.tag_removed', { ...TAGGED, ...FRESH }],
			['contact.tag_removed', { ...TAGGED, ...STALE }],
		])('%s has no stand-in, never a sample; an attachment beside it always is', (event, over) => {
			const lists: Lists = [[resourceOf(event), [BUILDERS[resourceOf(event)](over)]]];
			expect(pick(lists, [event])).toBeNull();
			// The attachment has no time at all: older than the other record, still the only sample.
			const attachment = BUILDERS.attachments();
			expect(
				pick([...lists, ['attachments', [attachment]]], [event, 'attachment.added']),
			).toStrictEqual(item(attachment, ['attachment.added']));
		});

		it.each<[PollEvent, PollEvent]>([
			['inspection.created', 'inspection.updated'],
			['contact.created', 'contact.updated'],
			['inspection_event.created', 'inspection_event.updated'],
		])('a record without created_at is not fresh: not %s', (created, updated) => {
			// Nor updated_at: with one, the two could not be equal anyway.
			const record = BUILDERS[resourceOf(created)](NO_TIMES);
			expect(pick([[resourceOf(created), [record]]], [created])).toBeNull();
			expect(pick([[resourceOf(created), [record]]], [created, updated])).toStrictEqual(
				item(record, [updated]),
			);
		});

		it('a resource is judged by its own events only; nothing listed or selected gives null', () => {
			expect(
				pick([['inspections', [inspection(FRESH)]]], ['contact.created', 'attachment.added']),
			).toBeNull();
			expect(pick([['contacts', [contact(FRESH)]]], ['inspection.created'])).toBeNull();
			expect(pick([], ['inspection.created'])).toBeNull();
			expect(pick([['inspections', [inspection(FRESH)]]], [])).toBeNull();
		});

		it("an item's events are the shown ones in catalog order; its event the most specific", () => {
			const record = inspection({ status: 'confirmed', ...PAID });
			const selected: PollEvent[] = [
				'inspection.canceled',
				'inspection.paid',
				'inspection.confirmed',
				'inspection.updated',
			];
			const shown: PollEvent[] = ['inspection.updated', 'inspection.confirmed', 'inspection.paid'];
			expect(pick([['inspections', [record]]], selected)).toStrictEqual(
				item(record, shown, 'inspection.paid'),
			);
		});
	});

	describe('Starting and Ended: where a counted inspection stands against its schedule now', () => {
		const [S, E] = ['inspection.starting', 'inspection.ended'] as const;
		// [case, the inspection, the event it shows, the statuses counted (default: confirmed)]
		it.each<[string, IDataObject, PollEvent | null, string[]?]>([
			['upcoming', UPCOMING, S],
			['starting this very moment: under way', { ...UPCOMING, scheduled_for: at(0) }, null],
			['under way', { ...UPCOMING, scheduled_for: at(-1) }, null],
			['ending this very moment: over', { ...OVER, scheduled_for: at(-2) }, E],
			['over long ago', { ...OVER, scheduled_for: at(-2000) }, E],
			['no scheduled time', { status: 'confirmed', scheduled_for: null }, null],
			['deleted', { ...UPCOMING, deleted: true }, null],
			['waiting, not counted by default', { ...UPCOMING, status: 'waiting' }, null],
			['waiting, counted', { ...UPCOMING, status: 'waiting' }, S, ['waiting']],
			['confirmed, not counted', UPCOMING, null, ['waiting']],
			['confirmed and over, not counted', OVER, null, ['draft', 'review']],
			['confirmed, counted among others', OVER, E, ['waiting', 'confirmed']],
			// (The default: jest would take a fourth parameter for its done callback.)
		])('%s', (_, over, shown, statuses = undefined) => {
			const record = inspection(over);
			const sample = pick([['inspections', [record]]], [S, E], statuses);
			expect(sample).toStrictEqual(shown === null ? null : item(record, [shown]));
		});
	});

	describe('the newest record that shows a selected event wins', () => {
		const confirmed = (n: number, times: IDataObject) =>
			inspection({ id: uuid(n), status: 'confirmed', ...NO_TIMES, ...times });
		const fresh = (n: number, time: string) =>
			contact({ id: uuid(n), created_at: time, updated_at: time });
		const newer = confirmed(10, { created_at: at(-30), updated_at: at(-1) });
		const older = confirmed(11, { created_at: at(-30), updated_at: at(-3) });
		const twin = confirmed(12, { created_at: at(-20), updated_at: at(-1) });
		const createdLater = confirmed(13, { created_at: at(-2) });
		const createdEarlier = confirmed(14, { created_at: at(-4) });
		const timeless = confirmed(15, {});
		// Created last, but its updated_at (earlier: a clock skew) is what counts.
		const skewed = confirmed(16, { created_at: at(-0.5), updated_at: at(-5) });
		const draftNewest = inspection({ id: uuid(17), updated_at: at(-0.5) });
		const [contactNewest, contactOlder, contactTwin] = [
			fresh(18, at(-0.5)),
			fresh(19, at(-3)),
			fresh(20, at(-1)),
		];

		// [case, the lists in their order (contacts or inspections), the winner]
		it.each<[string, IDataObject[][], IDataObject]>([
			['newer after older', [[older, newer]], newer],
			['newer before older', [[newer, older]], newer],
			['a tie keeps the first found', [[newer, twin]], newer],
			['a tie keeps the first found, reversed', [[twin, newer]], twin],
			['a newer record showing nothing selected does not count', [[older, draftNewest]], older],
			['… nor before', [[draftNewest, older]], older],
			['without updated_at, created_at counts', [[older, createdLater]], createdLater],
			['… and loses when older', [[createdEarlier, older]], older],
			['updated_at before created_at', [[skewed, older]], older],
			['a record with no time is the oldest', [[timeless, createdEarlier]], createdEarlier],
			['… also after', [[createdEarlier, timeless]], createdEarlier],
			['alone, a record with no time', [[timeless]], timeless],
			['the later resource newer', [[newer], [contactNewest]], contactNewest],
			['the earlier resource newer', [[contactNewest], [newer]], contactNewest],
			['the earlier resource older', [[contactOlder], [newer]], newer],
			['across resources, a tie keeps the first found', [[contactTwin], [newer]], contactTwin],
			['… reversed', [[newer], [contactTwin]], newer],
		])('%s', (_, lists, winner) => {
			const isContact = (record: IDataObject) => record.first_name !== undefined;
			const sample = pick(
				lists.map((records): [Resource, IDataObject[]] => [
					isContact(records[0]) ? 'contacts' : 'inspections',
					records,
				]),
				['inspection.confirmed', 'contact.created'],
			);
			expect(sample?.record).toBe(winner);
			expect(sample).toStrictEqual(
				item(winner, [isContact(winner) ? 'contact.created' : 'inspection.confirmed']),
			);
		});
	});

	describe('inspector assigned: alone, the item names the first inspector the poll would name', () => {
		const ASSIGNED = 'inspection.inspector_assigned';
		const ZED = { id: 'z-9', name: 'Zed' };
		// [case, the record's inspectors, other events selected (not shown), the inspector named]
		it.each<[string, unknown[], PollEvent[], IDataObject]>([
			['the first', [ALEX, ZED], [], ALEX],
			// The poll reports inspectors added in its kept order (sorted), whatever the record's.
			[
				'in the kept order, skipping entries without an id',
				[null, 'x', { name: 'No Id' }, ZED, ALEX],
				[],
				ALEX,
			],
			['a missing name is null', [{ id: 'insp-3' }], [], { id: 'insp-3', name: null }],
			['a null name is null', [{ id: 'insp-3', name: null }], [], { id: 'insp-3', name: null }],
			[
				'a name that is not text is null, as kept',
				[{ id: 7, name: 42 }],
				[],
				{ id: '7', name: null },
			],
			['others selected, not shown', [ALEX], ['inspection.paid', 'inspection.created'], ALEX],
		])('%s', (_, inspectors, others, inspector) => {
			const record = inspection({ inspectors } as IDataObject);
			expect(pick([['inspections', [record]]], [ASSIGNED, ...others])).toStrictEqual(
				item(record, [ASSIGNED], ASSIGNED, { inspector }),
			);
		});

		// [others selected, the record, the item's events, its event]: no inspector named
		it.each<[PollEvent[], IDataObject, PollEvent[], PollEvent]>([
			[
				['inspection.updated'],
				{ inspectors: [ALEX] },
				['inspection.updated'],
				'inspection.updated',
			],
			[['inspection.updated'], { inspectors: [] }, ['inspection.updated'], 'inspection.updated'],
			[
				['inspection.paid', 'inspection.updated'],
				{ inspectors: [ALEX], ...PAID },
				['inspection.updated', 'inspection.paid'],
				'inspection.paid',
			],
		])('with %j shown too, the item is theirs', (others, over, events, event) => {
			const record = inspection(over);
			expect(pick([['inspections', [record]]], [ASSIGNED, ...others])).toStrictEqual(
				item(record, events, event),
			);
		});
	});

	describe("contact took a new role: the item names the record's roles", () => {
		// As the poll names them: kept and sorted, whatever the record's order; only text.
		const roles = ['Listing Agent', 7, 'Buyer Agent'];
		const named = ['Buyer Agent', 'Listing Agent'];
		// [case, the contact, events selected, the item's events (new role the headline when shown)]
		it.each<[string, IDataObject, PollEvent[], PollEvent[]]>([
			['alone', { roles }, ['contact.new_role'], ['contact.new_role']],
			[
				'beside created',
				{ roles, ...FRESH },
				['contact.new_role', 'contact.tag_added', 'contact.created'],
				['contact.created', 'contact.new_role'],
			],
			[
				'not shown: no new_roles',
				{ roles: [], ...FRESH },
				['contact.created', 'contact.new_role'],
				['contact.created'],
			],
		])('%s', (_, over, selected, events) => {
			const record = contact(over);
			const shown = events.includes('contact.new_role');
			expect(pick([['contacts', [record]]], selected)).toStrictEqual(
				shown
					? item(record, events, 'contact.new_role', { new_roles: named })
					: item(record, events),
			);
		});
	});
}
