/**
 * The moments as an inspection business lives them, each where an earlier
 * version misfired: a time event selected later, a moved or lengthened
 * inspection, drafts and unconfirmed bookings, a second payment, nothing to
 * sign, a role given again, a schedule the API lists late, and a time without
 * an offset. Each test fails if its rule breaks.
 */
import { spawnSync } from 'node:child_process';
import type { IDataObject } from 'n8n-workflow';

import { HOUR, MomentsApi, pay, poller, sign } from './moments-api';

export function misfires(): void {
	const MINUTE = 60_000;
	const iso = (ms: number) => new Date(ms).toISOString();
	const ofEvent = (items: IDataObject[], event: string) =>
		items.filter((item) => (item.events as string[]).includes(event));
	const idsOf = (items: IDataObject[]) => items.map((item) => (item.record as IDataObject).id);

	describe('a time event starts from the first poll that has it selected', () => {
		it('Ended added a month after Starting reports no inspection that ended before', async () => {
			const api = new MomentsApi();
			const old = api.createInspection({
				scheduled_for: iso(api.now + 2 * HOUR),
				duration_hours: 3,
				ends_at: null,
			});
			const poll = poller(api, ['inspection.starting']);
			await poll();
			api.now += 30 * 24 * HOUR;
			expect(await poll()).toEqual([]);
			const later = api.createInspection({
				scheduled_for: iso(api.now - 30 * HOUR),
				ends_at: null,
			});
			// Selecting Ended now: neither the month-old inspection nor yesterday's is reported.
			const withEnded = { events: ['inspection.starting', 'inspection.ended'] as const };
			expect(await poll({ events: [...withEnded.events] })).toEqual([]);
			api.now += 2 * HOUR;
			expect(ofEvent(await poll({ events: [...withEnded.events] }), 'inspection.ended')).toEqual(
				[],
			);
			expect([old.id, later.id]).toHaveLength(2);
		});

		it('Starting added after Ended sends no reminder for inspections already inside the lead time; a later booking gets one', async () => {
			const api = new MomentsApi();
			const soon = api.createInspection({ scheduled_for: iso(api.now + 72 * HOUR) });
			const poll = poller(api, ['inspection.ended']);
			await poll();
			api.now += 60 * HOUR; // `soon` is now 12 hours away, inside the 24-hour lead time
			await poll();
			const both = ['inspection.ended', 'inspection.starting'] as const;
			expect(await poll({ events: [...both] })).toEqual([]);
			const booked = api.createInspection({ scheduled_for: iso(api.now + 30 * HOUR) });
			expect(await poll({ events: [...both] })).toEqual([]);
			api.now += 6 * HOUR + MINUTE;
			const items = await poll({ events: [...both] });
			expect(idsOf(ofEvent(items, 'inspection.starting'))).toEqual([booked.id]);
			expect(soon.id).not.toBe(booked.id);
		});
	});

	describe('Starting: the time the client was last reminded of decides', () => {
		it('a new length reminds no one again; a move back to the time last reminded of reminds no one, back to an earlier one does', async () => {
			const api = new MomentsApi();
			const start = api.now + 30 * HOUR;
			const x = api.createInspection({
				scheduled_for: iso(start),
				duration_hours: 3,
				ends_at: null,
			});
			const poll = poller(api, ['inspection.starting']);
			await poll();
			const reminders: IDataObject[] = [];
			const move = async (to: number) => {
				api.change('inspections', String(x.id), (r) => (r.scheduled_for = iso(to)));
				reminders.push(...(await poll()));
			};
			api.now = start - 24 * HOUR + MINUTE;
			reminders.push(...(await poll()));
			api.change('inspections', String(x.id), (r) => (r.duration_hours = 4));
			reminders.push(...(await poll()));
			expect(reminders).toHaveLength(1);
			// 09:00 reminded; moved to 13:00 before its hours come, and back: the client knows 09:00.
			await move(start + 4 * HOUR);
			await move(start);
			expect(reminders).toHaveLength(1);
			// To 13:00 again, reminded of it when its hours come; then back to 09:00: reminded again.
			await move(start + 4 * HOUR);
			api.now = start - 20 * HOUR + MINUTE;
			reminders.push(...(await poll()));
			await move(start);
			api.now += HOUR;
			reminders.push(...(await poll()));
			expect(reminders.map((item) => item.moment_at)).toEqual([
				iso(start - 24 * HOUR),
				iso(start + 4 * HOUR - 24 * HOUR),
				iso(start - 24 * HOUR),
			]);
		});
	});

	describe('time moments count confirmed inspections unless told otherwise', () => {
		it.each([
			{ statuses: undefined, reported: ['confirmed'] },
			{ statuses: ['waiting', 'confirmed'], reported: ['waiting', 'confirmed'] },
		])('statuses $statuses: Starting and Ended for $reported', async ({ statuses, reported }) => {
			const api = new MomentsApi();
			const start = api.now + 30 * HOUR;
			const byStatus = Object.fromEntries(
				['draft', 'waiting', 'review', 'confirmed'].map((status) => [
					status,
					api.createInspection({
						status,
						scheduled_for: iso(start),
						duration_hours: 2,
						ends_at: null,
					}),
				]),
			);
			const poll = poller(api, ['inspection.starting', 'inspection.ended'], {
				momentStatuses: statuses,
			});
			await poll();
			api.now = start - 23 * HOUR;
			const starting = await poll();
			api.now = start + 2 * HOUR + 25 * HOUR;
			const ended = await poll();
			const statusOf = (items: IDataObject[]) =>
				items.map((item) => (item.record as IDataObject).status).sort();
			expect(statusOf(ofEvent(starting, 'inspection.starting'))).toEqual([...reported].sort());
			expect(statusOf(ofEvent(ended, 'inspection.ended'))).toEqual([...reported].sort());
			expect(Object.keys(byStatus)).toHaveLength(4);
		});

		it('a booking confirmed inside the lead time gets its reminder when confirmed', async () => {
			const api = new MomentsApi();
			const start = api.now + 30 * HOUR;
			const x = api.createInspection({ status: 'waiting', scheduled_for: iso(start) });
			const poll = poller(api, ['inspection.starting']);
			await poll();
			api.now = start - 20 * HOUR;
			expect(await poll()).toEqual([]);
			api.change('inspections', String(x.id), (r) => (r.status = 'confirmed'));
			expect(idsOf(await poll())).toEqual([x.id]);
		});
	});

	describe('Only Trigger Once', () => {
		/** Paid and signed, then an add-on sold (something due again), then paid in full again. */
		async function secondPayment(onlyOnce?: boolean) {
			const api = new MomentsApi();
			const x = api.createInspection();
			const poll = poller(api, ['inspection.paid', 'inspection.paid_and_signed'], { onlyOnce });
			await poll();
			const items: IDataObject[] = [];
			api.change('inspections', String(x.id), (r) => sign(r));
			api.change('inspections', String(x.id), (r) => pay(r));
			items.push(...(await poll()));
			api.change('inspections', String(x.id), (r) => {
				const price = r.price as IDataObject;
				price.quote = 600;
				price.amount_due = 175;
				price.paid = false;
				price.payment_status = 'partial';
				r.add_ons = [{ id: 'addon-1', name: 'Radon', quantity: 1 }];
			});
			items.push(...(await poll()));
			api.change('inspections', String(x.id), (r) => pay(r));
			items.push(...(await poll()));
			// A new agreement to sign, then signed.
			api.change('inspections', String(x.id), (r) => {
				const agreements = r.agreements as IDataObject;
				(agreements.items as IDataObject[]).push({
					name: 'Addendum',
					status: 'sent',
					signed_at: null,
				});
				agreements.all_signed = false;
			});
			items.push(...(await poll()));
			api.change('inspections', String(x.id), (r) => sign(r));
			items.push(...(await poll()));
			return items.map((item) => item.event);
		}

		it('on (the default): Paid and Paid and Signed once per inspection', async () => {
			expect(await secondPayment()).toEqual(['inspection.paid_and_signed']);
			expect(await secondPayment(true)).toEqual(['inspection.paid_and_signed']);
		});

		it('off: a second payment is Paid again, and signing again is Paid and Signed again', async () => {
			expect(await secondPayment(false)).toEqual([
				'inspection.paid_and_signed',
				'inspection.paid_and_signed',
				'inspection.paid_and_signed',
			]);
		});

		it('turned on after a payment it reported: the moment is not reported again', async () => {
			const api = new MomentsApi();
			const x = api.createInspection();
			const poll = poller(api, ['inspection.paid'], { onlyOnce: false });
			await poll();
			api.change('inspections', String(x.id), (r) => pay(r));
			expect(await poll()).toHaveLength(1);
			api.change('inspections', String(x.id), (r) => pay(r, 100));
			await poll();
			api.change('inspections', String(x.id), (r) => pay(r));
			expect(await poll({ onlyOnce: true })).toEqual([]);
		});
	});

	it('nothing to sign counts as signed for Paid and Signed (and Published), never as Agreements Signed', async () => {
		const api = new MomentsApi();
		const x = api.createInspection({
			agreements: { present: false, all_signed: false, items: [] },
		});
		const poll = poller(api, [
			'inspection.agreements_signed',
			'inspection.paid_and_signed',
			'inspection.paid_signed_published',
		]);
		await poll();
		api.change('inspections', String(x.id), (r) => pay(r));
		expect((await poll()).map((item) => item.events)).toEqual([['inspection.paid_and_signed']]);
		api.change(
			'inspections',
			String(x.id),
			(r) => (r.reports = { status: 'published', items: [] }),
		);
		expect((await poll()).map((item) => item.events)).toEqual([
			['inspection.paid_signed_published'],
		]);
	});

	it('a role taken off a contact and given again is not a new role', async () => {
		const api = new MomentsApi();
		const c = api.createContact({ roles: ['Customer', 'Buyer Agent'] });
		const poll = poller(api, ['contact.new_role', 'contact.updated']);
		await poll();
		api.change('contacts', String(c.id), (r) => (r.roles = ['Customer']));
		expect((await poll()).map((item) => item.events)).toEqual([['contact.updated']]);
		api.change('contacts', String(c.id), (r) => (r.roles = ['Customer', 'Buyer Agent']));
		expect((await poll()).map((item) => item.events)).toEqual([['contact.updated']]);
		api.change('contacts', String(c.id), (r) => (r.roles = ['Customer', 'Buyer Agent', 'Seller']));
		expect(await poll()).toMatchObject([{ event: 'contact.new_role', new_roles: ['Seller'] }]);
	});

	describe('what the trigger lets go after 90 days', () => {
		/** Signed and ended, then a quiet account for `days` days: no poll stored anything, so no hourly sweep ran. */
		async function paidAfter(days: number) {
			const api = new MomentsApi();
			const x = api.createInspection({ scheduled_for: iso(api.now + 2 * HOUR), ends_at: null });
			const poll = poller(api, [
				'inspection.updated',
				'inspection.paid',
				'inspection.paid_and_signed',
			]);
			await poll();
			// Signed after the window of its booking: seen again later, it is not new.
			api.now += 10 * MINUTE;
			api.change('inspections', String(x.id), (r) => sign(r));
			expect(await poll()).toHaveLength(1);
			api.now += days * 24 * HOUR;
			expect(await poll()).toEqual([]);
			api.change('inspections', String(x.id), (r) => pay(r));
			return await poll();
		}

		it('a payment more than 90 days after the end and the last change is Updated, not Paid', async () => {
			expect(await paidAfter(91)).toMatchObject([
				{ events: ['inspection.updated'], previous: null, changes: null },
			]);
		});

		it('within the 90 days it is Paid and Paid and Signed', async () => {
			expect((await paidAfter(80)).map((item) => item.events)).toEqual([
				['inspection.updated', 'inspection.paid', 'inspection.paid_and_signed'],
			]);
		});
	});

	it('a schedule change the API lists late is looked up once, then an idle poll costs one request', async () => {
		const api = new MomentsApi();
		const start = api.now + 30 * HOUR;
		const x = api.createInspection({ scheduled_for: iso(start) });
		const poll = poller(api, ['inspection.starting', 'inspection.rescheduled']);
		await poll();
		api.now = start - 25 * HOUR;
		api.createInspection(); // a later change: the walk's window moves on past x
		await poll();
		// Moved a week later, listed with an updated_at far behind the window: the walk never sees it.
		x.scheduled_for = iso(start + 7 * 24 * HOUR);
		x.updated_at = iso(Date.parse(String(x.updated_at)) + MINUTE);
		api.now = start - 23 * HOUR;
		const found = await poll();
		expect(api.requests).toHaveLength(2); // the walk and one lookup
		// The lookup read the moved version: a reschedule, not a reminder for the old time.
		expect(found.map((item) => item.event)).toEqual(['inspection.rescheduled']);
		for (let i = 0; i < 3; i++) {
			api.now += 10 * MINUTE;
			expect(await poll()).toEqual([]);
			expect(api.requests).toHaveLength(1);
		}
	});

	/**
	 * Run in a node process whose zone is New York: jest's process.env is a copy, so
	 * setting TZ inside a test file does not move the clock's zone.
	 */
	it('a time without an offset is the API’s time (UTC), whatever the n8n server’s zone', () => {
		const script = `
			const { HOUR, MomentsApi, poller } = require('./test/triggers/moments-api.ts');
			(async () => {
				const api = new MomentsApi();
				const start = Date.parse('2030-03-03T10:00:00Z');
				api.createInspection({ scheduled_for: '2030-03-03T10:00:00', ends_at: null });
				const poll = poller(api, ['inspection.starting']);
				await poll();
				api.now = start - 24 * HOUR - 60000;
				const early = await poll();
				api.now = start - 24 * HOUR + 60000;
				const due = await poll();
				console.log(JSON.stringify({ early: early.length, due: due.map((i) => i.moment_at) }));
			})();`;
		const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
			env: { ...process.env, TZ: 'America/New_York' },
			encoding: 'utf8',
		});
		expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: 0 });
		expect(JSON.parse(run.stdout)).toEqual({ early: 0, due: ['2030-03-02T10:00:00.000Z'] });
	});
}
