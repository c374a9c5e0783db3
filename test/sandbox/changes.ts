/**
 * `npm run sandbox -- <change>` (sandbox/changes.ts): each change does in the
 * sandbox what its help says, to a record it found itself or the one named
 * with `--id`, and the ones that the account sends webhooks for reach a
 * registered receiver with the event and the record. The trigger events each
 * makes: change-events.ts; the command line: cli.ts.
 */
import type { Inspection } from '../../sandbox/change-target';
import { makeChange } from '../../sandbox/changes';
import { SANDBOX_KEYS, withSandbox } from '../helpers/sandbox';

export function changes(): void {
	const sandbox = withSandbox({}, { reset: true });

	type Json = Record<string, unknown>;
	const v1 = async (path: string): Promise<Json & { data: Json[] }> =>
		(await (
			await fetch(`${sandbox.baseUrl}/v1/${path}`, {
				headers: { Authorization: `Bearer ${SANDBOX_KEYS.acmeOwner}` },
			})
		).json()) as Json & { data: Json[] };
	const inspection = async (id: string) => (await v1(`inspections?ids=${id}`)).data[0];

	it.each([
		[
			'confirm',
			async (id: string) => expect(await inspection(id)).toMatchObject({ status: 'confirmed' }),
		],
		[
			'cancel',
			async (id: string) => expect(await inspection(id)).toMatchObject({ status: 'canceled' }),
		],
		[
			'publish',
			async (id: string) =>
				expect(await inspection(id)).toMatchObject({ reports: { status: 'published' } }),
		],
		['new-inspection', async (id: string) => expect(await inspection(id)).toMatchObject({ id })],
		[
			'appointment',
			async (id: string) =>
				expect((await v1(`events?ids=${id}`)).data[0]).toMatchObject({ id, name: 'Key pick-up' }),
		],
		[
			'contact',
			async (id: string) =>
				expect((await v1(`contacts?ids=${id}`)).data[0].phone).toMatch(/^555-01\d\d$/),
		],
		[
			'new-contact',
			async (id: string) => expect((await v1(`contacts?ids=${id}`)).data).toHaveLength(1),
		],
		[
			'attachment',
			async (id: string) =>
				expect((await v1('attachments?kind=document')).data.map((a) => a.id)).toContain(id),
		],
	])('%s does what its help says', async (name, check) => {
		const { id, said } = await makeChange(sandbox.baseUrl, name);
		expect(said).toContain(id);
		await check(id!);
	});

	it('reschedule moves a confirmed inspection one day later', async () => {
		const { id, said } = await makeChange(sandbox.baseUrl, 'reschedule');
		const to = / to (\S+)$/.exec(said)?.[1];
		const after = await inspection(id!);
		expect(after).toMatchObject({ status: 'confirmed', scheduled_for: to });
	});

	type Price = Inspection['price'];
	const price = async (id: string) => (await inspection(id)).price as Price;

	it('pay-part pays half of what is due, pay the rest, of the inspection changed last or the one named', async () => {
		const part = await makeChange(sandbox.baseUrl, 'pay-part');
		const id = part.id!;
		const { quote } = await price(id);
		expect(await price(id)).toMatchObject({
			amount_paid: quote! / 2,
			amount_due: quote! / 2,
			payment_status: 'partial',
			paid: false,
		});
		expect((await makeChange(sandbox.baseUrl, 'pay')).id).toBe(id);
		expect(await price(id)).toMatchObject({ amount_paid: quote, amount_due: 0, paid: true });

		// --id: another inspection, unpaid; a paid one is refused, naming it.
		const other = (await v1('inspections?limit=200&sort=updated_at')).data.find(
			(one) => one.status === 'confirmed' && (one.price as Price).amount_due! > 0,
		)!;
		const named = await makeChange(sandbox.baseUrl, 'pay', { id: String(other.id), args: [] });
		expect(named.id).toBe(other.id);
		expect(await price(String(other.id))).toMatchObject({ amount_due: 0, paid: true });
		await expect(makeChange(sandbox.baseUrl, 'pay', { id, args: [] })).rejects.toThrow(
			`${id} is not a confirmed inspection with something due`,
		);
	});

	it('sign signs every agreement, sending one first to an inspection without any', async () => {
		const bare = await sandbox.control.createInspection({ org: 'acme', status: 'confirmed' });
		const { id } = await makeChange(sandbox.baseUrl, 'sign', { id: String(bare.id), args: [] });
		expect((await inspection(id!)).agreements).toMatchObject({
			present: true,
			all_signed: true,
			items: [{ name: 'Pre-Inspection Agreement', status: 'signed' }],
		});
	});

	it('assign-inspector adds an inspector, remove-inspector takes the last one off', async () => {
		const booked = await sandbox.control.createInspection({ org: 'acme', status: 'confirmed' });
		const id = String(booked.id);
		const names = async () =>
			((await inspection(id)).inspectors as Array<{ name: string }>).map((one) => one.name);
		expect(await names()).toEqual(['Alex Rivera']);
		await makeChange(sandbox.baseUrl, 'assign-inspector', { id, args: [] });
		expect(await names()).toEqual(['Alex Rivera', 'Jordan Blake']);
		await makeChange(sandbox.baseUrl, 'remove-inspector', { id, args: [] });
		expect(await names()).toEqual(['Alex Rivera']);
	});

	it('add-service sells an add-on the inspection lacks: the quote grows by its price, and it is due', async () => {
		const { id } = await makeChange(sandbox.baseUrl, 'pay');
		const paid = await price(id!);
		await makeChange(sandbox.baseUrl, 'add-service');
		const after = await inspection(id!);
		const added = (after.add_ons as Array<{ name: string }>).at(-1)!;
		const grown = (after.price as Price).quote! - paid.quote!;
		expect(grown).toBeGreaterThan(0);
		expect(after.price).toMatchObject({ amount_due: grown, paid: false });
		expect(added.name).toBeTruthy();
	});

	it('new-role puts a past client on a confirmed inspection as its buyer agent', async () => {
		const { id, inspection: on, contact } = await makeChange(sandbox.baseUrl, 'new-role');
		expect(contact!.roles).toEqual(expect.arrayContaining(['Customer', 'Buyer Agent']));
		expect((await inspection(on!.id)).contacts).toContainEqual(
			expect.objectContaining({ id, role: 'Buyer Agent' }),
		);
	});

	it('schedule-soon books an inspection for a client, about an hour from now, two hours long; clock moves time', async () => {
		const now = Date.parse((await sandbox.control.getClock()).now);
		const clients: string[] = [];
		for (const [name, status] of [
			['schedule-soon', 'confirmed'],
			['schedule-soon-waiting', 'waiting'],
		]) {
			const booked = await inspection((await makeChange(sandbox.baseUrl, name)).id!);
			expect(booked).toMatchObject({ status, duration_hours: 2 });
			const startsIn = Date.parse(String(booked.scheduled_for)) - now;
			expect(startsIn).toBeGreaterThanOrEqual(3_600_000);
			expect(startsIn).toBeLessThan(3_600_000 + 120_000);
			const [client] = booked.contacts as Array<{ role: string; email: string }>;
			expect(client).toMatchObject({ role: 'Customer', email: expect.stringContaining('@') });
			clients.push(client.email);
		}
		expect(new Set(clients).size).toBe(2); // told apart by their clients
		const { said } = await makeChange(sandbox.baseUrl, 'clock', { args: ['52h'] });
		const moved = Date.parse((await sandbox.control.getClock()).now) - now;
		expect(moved).toBeGreaterThanOrEqual(52 * 3_600_000);
		expect(said).toContain('52 h 0 min ahead');
		await expect(makeChange(sandbox.baseUrl, 'clock', { args: ['soon'] })).rejects.toThrow(
			/how far/,
		);
		await sandbox.control.setClock(new Date().toISOString());
	});

	it('the changes that send webhooks reach a registered receiver, with the event and the record', async () => {
		await sandbox.control.addWebhook({ org: 'acme', url: 'http://127.0.0.1:9/unreachable' });
		const sent: Record<string, string> = {
			confirm: 'inspection.confirmed',
			reschedule: 'inspection.rescheduled',
			cancel: 'inspection.canceled',
			publish: 'inspection.published',
			contact: 'contact.changed',
			'new-contact': 'contact.changed',
		};
		for (const [name, event] of Object.entries(sent)) {
			const { id } = await makeChange(sandbox.baseUrl, name);
			const { data } = await sandbox.control.deliveries();
			expect(data.map((attempt) => `${attempt.event} ${attempt.record_id}`)).toContain(
				`${event} ${id}`,
			);
		}
	});
}
