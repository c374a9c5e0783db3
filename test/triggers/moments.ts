/**
 * The business moments of the polling trigger, each rule on its own and through
 * runPoll across polls (the overlap re-reads every recent version, so "once"
 * is tested by polling again): paid, agreements signed, paid and signed, paid
 * signed and published, inspector assigned/removed, fees changed, new role,
 * and the time-based starting and ended with a fake clock. Fetch Test Event
 * uses the same rules.
 */
import type { IDataObject } from 'n8n-workflow';

import { allAgreementsSigned, isPaid } from '../../nodes/shared/inspectionFacts';
import {
	type InspectionMemory,
	memoryOf,
	recordKey,
	unpackId,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { pickSample } from '../../nodes/InspectionBusinessTrigger/testEvent';
import { HOUR, lookups, MomentsApi, pay, poller, sign } from './moments-api';

export function moments(): void {
	const eventsOf = (items: IDataObject[]) => items.map((item) => item.events);

	describe('the rules, record by record', () => {
		it('fully paid is price.paid; a partial payment is not paid; without paid, the payment status or nothing due decides', () => {
			expect(isPaid({ price: { paid: true, amount_due: 0, payment_status: 'paid' } })).toBe(true);
			expect(
				isPaid({
					price: { paid: false, amount_paid: 100, amount_due: 325, payment_status: 'partial' },
				}),
			).toBe(false);
			// paid decides alone when present.
			expect(isPaid({ price: { paid: false, amount_due: 0, payment_status: 'paid' } })).toBe(false);
			expect(isPaid({ price: { payment_status: 'Paid', amount_due: 0 } })).toBe(true);
			expect(isPaid({ price: { payment_status: 'partial', amount_due: 10 } })).toBe(false);
			expect(isPaid({ price: { amount_paid: 425, amount_due: 0 } })).toBe(true);
			expect(isPaid({ price: { amount_paid: 0, amount_due: 0 } })).toBe(false);
			expect(isPaid({})).toBe(false);
		});

		it('agreements are signed when every one is, not one of several; none means never signed', () => {
			const two = (a: string | null, b: string | null, allSigned: boolean) => ({
				agreements: {
					present: true,
					all_signed: allSigned,
					items: [
						{ name: 'A', status: a, signed_at: a === 'signed' ? '2030-01-01T00:00:00Z' : null },
						{ name: 'B', status: b, signed_at: null },
					],
				},
			});
			expect(allAgreementsSigned(two('signed', 'sent', false))).toBe(false);
			// all_signed true but an item unsigned: not signed.
			expect(allAgreementsSigned(two('signed', 'sent', true))).toBe(false);
			expect(allAgreementsSigned(two('signed', 'signed', true))).toBe(true);
			expect(
				allAgreementsSigned({ agreements: { present: false, all_signed: false, items: [] } }),
			).toBe(false);
			expect(allAgreementsSigned({})).toBe(false);
		});

		const lengthInQuarters = (record: IDataObject) =>
			(memoryOf('inspections', record) as InspectionMemory).lengthQuarters;
		const packKey = (id: string) => recordKey('inspections', { id })!;

		it('an inspection lasts to ends_at, else scheduled_for plus duration_hours, to the quarter hour rounded up', () => {
			const start = '2030-01-01T10:00:00.000Z';
			expect(lengthInQuarters({ scheduled_for: start, ends_at: '2030-01-01T13:00:00.000Z' })).toBe(
				12,
			);
			expect(lengthInQuarters({ scheduled_for: start, ends_at: '2030-01-01T13:01:00.000Z' })).toBe(
				13,
			);
			expect(lengthInQuarters({ scheduled_for: start, duration_hours: 2.5 })).toBe(10);
			expect(lengthInQuarters({ scheduled_for: start })).toBe(0);
		});

		it('a stored inspection key gives its id back (the time-based lookups ask by id)', () => {
			const id = '5f0c7e10-1234-4abc-8def-00000000d0c5';
			expect(unpackId(packKey(id))).toBe(id);
			expect(unpackId(packKey('legacy id/1'))).toBe('legacy id/1');
			// A lone surrogate is packed as %uD83D, which decodeURIComponent alone cannot read.
			expect(unpackId(packKey('cut \ud83d'))).toBe('cut \ud83d');
		});
	});

	describe('change moments through polls', () => {
		it('a partial payment is not paid; the full payment is reported once, with updated', async () => {
			const api = new MomentsApi();
			const { id } = api.createInspection();
			const poll = poller(api, ['inspection.updated', 'inspection.paid']);
			expect(await poll()).toEqual([]);
			api.change('inspections', String(id), (r) => pay(r, 100));
			expect(eventsOf(await poll())).toEqual([['inspection.updated']]);
			api.change('inspections', String(id), (r) => pay(r));
			const items = await poll();
			expect(items).toMatchObject([
				{
					event: 'inspection.paid',
					events: ['inspection.updated', 'inspection.paid'],
					record: { id },
				},
			]);
			expect(items[0].changes).toMatchObject({
				'price.payment_status': { before: 'partial', after: 'paid' },
				'price.amount_due': { before: 325, after: 0 },
			});
			// The overlap re-reads that version: not reported again.
			expect(await poll()).toEqual([]);
		});

		it('agreements signed only when the last of several is signed; paid and signed when both hold, whichever came last', async () => {
			const api = new MomentsApi();
			const two = {
				present: true,
				all_signed: false,
				items: [
					{ name: 'Agreement', status: 'sent', signed_at: null },
					{ name: 'Radon addendum', status: 'sent', signed_at: null },
				],
			};
			const { id } = api.createInspection({ agreements: two });
			const poll = poller(api, [
				'inspection.paid',
				'inspection.agreements_signed',
				'inspection.paid_and_signed',
			]);
			await poll();
			api.change('inspections', String(id), (r) => pay(r));
			expect(eventsOf(await poll())).toEqual([['inspection.paid']]);
			api.change('inspections', String(id), (r) => sign(r, 0));
			expect(await poll()).toEqual([]);
			api.change('inspections', String(id), (r) => sign(r, 1));
			const items = await poll();
			expect(items).toMatchObject([
				{
					event: 'inspection.paid_and_signed',
					events: ['inspection.agreements_signed', 'inspection.paid_and_signed'],
				},
			]);
			expect(await poll()).toEqual([]);

			// Signed first, paid last: paid and signed comes with the payment.
			const other = api.createInspection();
			await poll();
			api.change('inspections', String(other.id), (r) => sign(r));
			expect(eventsOf(await poll())).toEqual([['inspection.agreements_signed']]);
			api.change('inspections', String(other.id), (r) => pay(r));
			expect(eventsOf(await poll())).toEqual([['inspection.paid', 'inspection.paid_and_signed']]);
		});

		it('paid, signed and published comes the moment the last of the three holds', async () => {
			const api = new MomentsApi();
			const { id } = api.createInspection();
			const poll = poller(api, ['inspection.paid_and_signed', 'inspection.paid_signed_published']);
			await poll();
			api.change('inspections', String(id), (r) => {
				pay(r);
				sign(r);
			});
			expect(eventsOf(await poll())).toEqual([['inspection.paid_and_signed']]);
			api.change('inspections', String(id), (r) => {
				(r.reports as IDataObject).status = 'published';
			});
			expect(await poll()).toMatchObject([
				{ event: 'inspection.paid_signed_published', events: ['inspection.paid_signed_published'] },
			]);
			expect(await poll()).toEqual([]);
		});

		it('an inspection created already paid reports created and paid in one item', async () => {
			const api = new MomentsApi();
			const poll = poller(api, ['inspection.created', 'inspection.paid']);
			await poll();
			const created = api.createInspection();
			pay(created);
			expect(await poll()).toMatchObject([
				{ event: 'inspection.paid', events: ['inspection.created', 'inspection.paid'] },
			]);
			expect(await poll()).toEqual([]);
		});

		it('the baseline reports nothing: inspections paid before activation are not "paid"', async () => {
			const api = new MomentsApi();
			const before = api.createInspection();
			pay(before);
			const poll = poller(api, ['inspection.paid', 'inspection.updated']);
			expect(await poll()).toEqual([]);
			api.change('inspections', String(before.id), (r) => {
				r.notes = 'gate code 1234';
			});
			expect(eventsOf(await poll())).toEqual([['inspection.updated']]);
		});

		it('inspector assigned and removed: one item per inspector, naming them', async () => {
			const api = new MomentsApi();
			const { id } = api.createInspection();
			const poll = poller(api, [
				'inspection.inspector_assigned',
				'inspection.inspector_removed',
				'inspection.paid',
			]);
			await poll();
			api.change('inspections', String(id), (r) => {
				r.inspectors = [
					{ id: 'insp-2', name: 'Sam Chen' },
					{ id: 'insp-3', name: 'Kim Park' },
				];
				pay(r);
			});
			const items = await poll();
			expect(items.map(({ event, events, inspector }) => ({ event, events, inspector }))).toEqual([
				{ event: 'inspection.paid', events: ['inspection.paid'], inspector: undefined },
				{
					event: 'inspection.inspector_assigned',
					events: ['inspection.inspector_assigned'],
					inspector: { id: 'insp-2', name: 'Sam Chen' },
				},
				{
					event: 'inspection.inspector_assigned',
					events: ['inspection.inspector_assigned'],
					inspector: { id: 'insp-3', name: 'Kim Park' },
				},
				{
					event: 'inspection.inspector_removed',
					events: ['inspection.inspector_removed'],
					inspector: { id: 'insp-1', name: 'Alex Rivera' },
				},
			]);
			expect(items.every((item) => (item.record as IDataObject).id === id)).toBe(true);
			expect(await poll()).toEqual([]);
		});

		it('fees changed: an add-on added and the quote moved, with what was added and the quote before and after', async () => {
			const api = new MomentsApi();
			const { id } = api.createInspection();
			const poll = poller(api, ['inspection.fees_changed']);
			await poll();
			api.change('inspections', String(id), (r) => {
				r.add_ons = [{ id: 'addon-2', name: 'Radon Test', quantity: 1 }];
				(r.price as IDataObject).quote = 575;
			});
			const [item, ...rest] = await poll();
			expect(rest).toEqual([]);
			expect(item).toMatchObject({ event: 'inspection.fees_changed' });
			expect((item.changes as IDataObject).services).toMatchObject({
				added: { services: [], add_ons: [{ id: 'addon-2', name: 'Radon Test' }] },
				removed: { services: [], add_ons: [] },
			});
			expect((item.changes as IDataObject)['price.quote']).toEqual({ before: 425, after: 575 });
			// A service swapped, quote unchanged: still a fee change, with what left.
			api.change('inspections', String(id), (r) => {
				r.services = [{ id: 'svc-2', name: 'Pre-Listing Inspection' }];
			});
			const [swap] = await poll();
			expect((swap.changes as IDataObject).services).toMatchObject({
				added: { services: [{ id: 'svc-2', name: 'Pre-Listing Inspection' }] },
				removed: { services: [{ id: 'svc-1', name: 'Full Home Inspection' }] },
			});
			// Another change, fees untouched: not a fee change.
			api.change('inspections', String(id), (r) => pay(r));
			expect(await poll()).toEqual([]);
		});

		it('contact took a new role: a role it never had, named; other changes are not', async () => {
			const api = new MomentsApi();
			const { id } = api.createContact({ roles: ['Customer'] });
			const poll = poller(api, ['contact.new_role']);
			await poll();
			api.change('contacts', String(id), (r) => {
				r.roles = ['Buyer Agent', 'Customer'];
			});
			expect(await poll()).toMatchObject([
				{ event: 'contact.new_role', events: ['contact.new_role'], new_roles: ['Buyer Agent'] },
			]);
			api.change('contacts', String(id), (r) => {
				r.email = 'new@example.com';
			});
			expect(await poll()).toEqual([]);
			// A new contact's roles are new.
			api.createContact({ roles: ['Listing Agent'] });
			expect(await poll()).toMatchObject([{ new_roles: ['Listing Agent'] }]);
		});
	});

	describe('time-based moments with a fake clock', () => {
		it('starting comes at the first poll after its time, once; an idle poll makes one request and no lookup', async () => {
			const api = new MomentsApi();
			const inspection = api.createInspection(); // scheduled 72 h ahead
			const start = Date.parse(String(inspection.scheduled_for));
			const poll = poller(api, ['inspection.starting'], { startingHours: 24 });
			expect(await poll()).toEqual([]);
			api.now = start - 24 * HOUR - 60_000;
			expect(await poll()).toEqual([]);
			expect(api.requests).toHaveLength(1);
			api.now = start - 24 * HOUR + 30_000;
			const items = await poll();
			expect(items).toMatchObject([
				{
					event: 'inspection.starting',
					events: ['inspection.starting'],
					record: { id: inspection.id },
					moment_at: new Date(start - 24 * HOUR).toISOString(),
				},
			]);
			expect(lookups(api)).toHaveLength(1);
			api.now += 60_000;
			expect(await poll()).toEqual([]);
			expect(api.requests).toHaveLength(1);
		});

		it('ended comes the set hours after the end, also when n8n was down then; never before', async () => {
			const api = new MomentsApi();
			const inspection = api.createInspection();
			const end = Date.parse(String(inspection.ends_at));
			const poll = poller(api, ['inspection.ended'], { endedHours: 48 });
			await poll();
			api.now = end + 47 * HOUR;
			expect(await poll()).toEqual([]);
			// Down from 47 h to 60 h after the end: the first poll after reports it.
			api.now = end + 60 * HOUR;
			expect(await poll()).toMatchObject([
				{ event: 'inspection.ended', moment_at: new Date(end + 48 * HOUR).toISOString() },
			]);
			api.now += HOUR;
			expect(await poll()).toEqual([]);
		});

		it('a reschedule moves the moment; canceled and deleted inspections never report one', async () => {
			const api = new MomentsApi();
			const moved = api.createInspection();
			const canceled = api.createInspection();
			const deleted = api.createInspection();
			const start = Date.parse(String(moved.scheduled_for));
			const poll = poller(api, ['inspection.starting', 'inspection.rescheduled'], {
				startingHours: 24,
			});
			await poll();
			api.change('inspections', String(moved.id), (r) => {
				r.scheduled_for = new Date(start + 48 * HOUR).toISOString();
				r.ends_at = new Date(start + 51 * HOUR).toISOString();
			});
			api.change('inspections', String(canceled.id), (r) => {
				r.status = 'canceled';
			});
			expect(eventsOf(await poll())).toEqual([['inspection.rescheduled']]);
			// Deleted without the walk seeing it first: the lookup finds it deleted.
			api.change('inspections', String(deleted.id), (r) => {
				r.deleted = true;
			});
			api.now = start - 23 * HOUR;
			expect(await poll()).toEqual([]);
			api.now = start + 25 * HOUR;
			expect(await poll()).toMatchObject([
				{ event: 'inspection.starting', record: { id: moved.id } },
			]);
			expect(await poll()).toEqual([]);
		});

		it('moments whose time came before activation are not reported; one booked inside the lead time is, at the next poll', async () => {
			const api = new MomentsApi();
			const soon = api.createInspection({
				scheduled_for: new Date(api.now + 2 * HOUR).toISOString(),
			});
			const poll = poller(api, ['inspection.starting', 'inspection.created'], {
				startingHours: 24,
			});
			await poll();
			api.now += HOUR;
			expect(await poll()).toEqual([]);
			expect(soon.id).toBeDefined();
			// Booked 3 hours ahead with a 24-hour reminder, after activation: reported with its creation.
			const late = api.createInspection({
				scheduled_for: new Date(api.now + 3 * HOUR).toISOString(),
				ends_at: new Date(api.now + 6 * HOUR).toISOString(),
			});
			const items = await poll();
			expect(items).toMatchObject([
				{ event: 'inspection.created', record: { id: late.id } },
				{ event: 'inspection.starting', record: { id: late.id } },
			]);
			expect(await poll()).toEqual([]);
		});

		it('a due moment of an inspection whose id is not a UUID is reported once as unreadable, with no lookup', async () => {
			const api = new MomentsApi();
			const odd = api.createInspection({ id: 'legacy \ud83d' });
			const end = Date.parse(String(odd.ends_at));
			const poll = poller(api, ['inspection.ended'], { endedHours: 1 });
			await poll();
			api.now = end + 2 * HOUR;
			expect(await poll()).toMatchObject([
				{
					event: 'inspection.unreadable',
					events: ['inspection.unreadable'],
					record: { id: 'legacy \ud83d' },
					problem: expect.stringContaining('not a UUID'),
				},
			]);
			expect(lookups(api)).toHaveLength(0);
			expect(await poll()).toEqual([]);
		});
	});

	describe('Fetch Test Event uses the same rules', () => {
		const now = Date.parse('2030-03-01T08:00:00.000Z');
		/** Fetch Test Event's first item, version 2 (null: none). */
		const sample = (
			...args: [Parameters<typeof pickSample>[0], Parameters<typeof pickSample>[1], number]
		) => pickSample(...args, { statuses: ['confirmed'], oneItemPerMoment: true })[0] ?? null;
		const api = new MomentsApi();
		const partial = api.createInspection();
		pay(partial, 100);
		const paid = api.createInspection();
		pay(paid);

		it('a partially paid inspection is not a paid sample; a paid one is', () => {
			const found = sample(
				[{ resource: 'inspections', records: [partial, paid] }],
				['inspection.paid'],
				now,
			);
			expect(found).toMatchObject({ event: 'inspection.paid', record: { id: paid.id } });
			expect(
				sample([{ resource: 'inspections', records: [partial] }], ['inspection.paid'], now),
			).toBeNull();
		});

		it('inspector assigned names the first inspector; a new role names the roles; starting is an upcoming inspection', () => {
			expect(
				sample(
					[{ resource: 'inspections', records: [paid] }],
					['inspection.inspector_assigned'],
					now,
				),
			).toMatchObject({ inspector: { id: 'insp-1', name: 'Alex Rivera' } });
			const contact = api.createContact({ roles: ['Buyer Agent'] });
			expect(
				sample([{ resource: 'contacts', records: [contact] }], ['contact.new_role'], now),
			).toMatchObject({ event: 'contact.new_role', new_roles: ['Buyer Agent'] });
			expect(
				sample([{ resource: 'inspections', records: [paid] }], ['inspection.starting'], now),
			).toMatchObject({ event: 'inspection.starting' });
			expect(
				sample([{ resource: 'inspections', records: [paid] }], ['inspection.ended'], now),
			).toBeNull();
		});
	});
}
