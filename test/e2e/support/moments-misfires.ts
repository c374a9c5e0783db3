/**
 * The moments where earlier versions misfired, as an inspection business lives
 * them, in a real n8n under `n8n start` against a sandbox of its own, under one
 * scheduler (`misfireTests`, one e2e file each, so that both run side by side):
 * n8n's poller, or the durable scheduler (n8n 2.45's default). Eight
 * trigger workflows poll every 15 seconds (misfires-run.ts); the sandbox's
 * clock moves the inspections through their days. Every "not reported" is
 * checked after the same workflow reported something that came later (a
 * companion), so it is a poll that ran, not a wait that was long enough.
 *
 * 1. A time event selected later starts then: Ended added a day in (C), Starting
 *    added while an inspection is inside its lead time (D).
 * 2. A new length reminds no one; the time the client was last reminded of
 *    decides: a move back to an earlier time reminds again, back to the time
 *    last reminded of reminds no one.
 * 3. Draft and waiting inspections get no Starting or Ended by default (A), and
 *    do when the statuses say so (E).
 * 4. Only Trigger Once: a second payment and a new agreement signed are not
 *    reported again (A), and are with it off (B).
 * 5. Nothing to sign counts as signed for the gates.
 * 6. A role taken away and given again is not new.
 * 7. A schedule change the API lists late is looked up once: then one request
 *    per idle poll (F, a key of its own).
 * 8. A time without an offset is UTC, with n8n running in New York's zone.
 *
 * And the contract's hard cases (misfires-cases.ts): the first report of two
 * published, republished and another one later; a workflow published when the
 * moments already held; no reminder once begun (entered late, confirmed two
 * hours in, the workflow back mid-inspection); the workflow unpublished for
 * days (a late Ended sent, a later one skipped and counted in n8n's log); a
 * Switch on `event`; a $0 inspection; a quote that only looks different; more
 * than 32 tags; an inspection let go after 90 days.
 */
import { randomUUID } from 'node:crypto';

import { waitFor } from '../../../scripts/processes';
import {
	awayForDays,
	confirmedTwoHoursIn,
	enteredAfterItBegan,
	letGo,
	manyTags,
	nothingToPay,
	publishedWhenAlreadyDone,
	quoteNoise,
	reportsOneByOne,
	switchOnEvent,
} from './misfires-cases';
import {
	bookedAt,
	editTrigger,
	HOUR,
	iso,
	type Json,
	type Letter,
	MINUTE,
	type Misfires,
	type Scheduler,
	startMisfires,
	watchPolls,
} from './misfires-run';

/**
 * Runs scenarios side by side to their end, each with its own waits; then
 * fails with every failure, so none is left running past its test.
 */
async function allOf(scenarios: Array<Promise<void>>): Promise<void> {
	const failed = (await Promise.allSettled(scenarios)).flatMap((result) =>
		result.status === 'rejected' ? [result.reason as Error] : [],
	);
	if (failed.length === 1) throw failed[0];
	if (failed.length > 1)
		throw new AggregateError(failed, failed.map((e) => e.message).join('\n\n'));
}

/** Scenarios 4, 5 and 6 with version 1's workflows A and B. */
async function paidAndSignedAgain({ n8n, reports }: Misfires): Promise<void> {
	const { control } = n8n;
	const T0 = Date.parse((await control.getClock()).now);
	const p = await bookedAt(n8n, T0 + 5 * 24 * HOUR, 3);
	const n = await bookedAt(n8n, T0 + 5 * 24 * HOUR, 3);
	const k = String(
		(await control.createContact('acme', { first_name: 'Kim', email: 'kim.misfire@example.com' }))
			.id,
	);
	const k2 = String(
		(await control.createContact('acme', { first_name: 'Kai', email: 'kai.misfire@example.com' }))
			.id,
	);
	const i1 = await bookedAt(n8n, T0 + 6 * 24 * HOUR, 2);
	const i2 = await bookedAt(n8n, T0 + 7 * 24 * HOUR, 2);

	await control.addAgreements(p, ['Pre-Inspection Agreement']);
	await control.signAgreements(p);
	await control.payInspection(p);
	await control.payInspection(n); // nothing to sign: paid is paid and signed
	await reports.sawEach(['A'], n, (record) => (record.price as Json).paid === true);
	await control.publishReports(n);
	await control.addContactToInspection(i1, k, 'Buyer Agent');
	await reports.until('A', 'inspection.paid_and_signed', p);
	await reports.until('A', 'inspection.paid_signed_published', n);
	await reports.until('A', 'contact.new_role', k);
	await reports.until('B', 'inspection.paid_and_signed', p);

	// An add-on sold after payment (seen unpaid), then paid.
	await control.addService(p, { id: 'addon-radon', name: 'Radon', kind: 'add_on', price: 150 });
	const price = (record: Json) => record.price as Json;
	await reports.sawEach(['A', 'B'], p, (record) => price(record).paid === false);
	await control.payInspection(p);
	// The role taken away (seen without it), then given again.
	await control.deleteInspection(i1);
	await control.updateContact(k, { first_name: 'Kimberly' });
	await reports.sawEach(['A'], k, (record) => !(record.roles as string[]).includes('Buyer Agent'));
	await control.addContactToInspection(i2, k, 'Buyer Agent');
	await control.addContactToInspection(i2, k2, 'Listing Agent');
	await reports.until('A', 'contact.new_role', k2);
	await reports.sawEach(
		['A', 'B'],
		p,
		(record) => price(record).quote === 575 && price(record).paid === true,
	);
	// A new agreement to sign (seen unsigned), then signed.
	await control.addAgreements(p, ['Radon Addendum']);
	const agreements = (record: Json) => record.agreements as Json;
	await reports.sawEach(
		['A', 'B'],
		p,
		(record) => (agreements(record).items as Json[]).length === 2,
	);
	await control.signAgreements(p);
	await reports.sawEach(
		['A', 'B'],
		p,
		(record) =>
			(agreements(record).items as Json[]).length === 2 && agreements(record).all_signed === true,
	);
	await reports.collect();

	/** The paid and signed moments of each item of record `id`, in order. */
	const MOMENTS = [
		'inspection.paid',
		'inspection.paid_and_signed',
		'inspection.paid_signed_published',
	];
	const eventsOf = (letter: Letter, id: string) =>
		reports.items[letter]
			.filter((item) => String((item.record as Json)?.id) === id)
			.map((item) => (item.events as string[]).filter((event) => MOMENTS.includes(event)))
			.filter((events) => events.length > 0);
	expect(eventsOf('A', p)).toEqual([['inspection.paid', 'inspection.paid_and_signed']]);
	expect(eventsOf('B', p)).toEqual([
		['inspection.paid', 'inspection.paid_and_signed'],
		['inspection.paid', 'inspection.paid_and_signed'],
		['inspection.paid_and_signed'],
	]);
	expect(eventsOf('A', n)).toEqual([
		['inspection.paid', 'inspection.paid_and_signed'],
		['inspection.paid_signed_published'],
	]);
	expect(reports.of('A', 'contact.new_role', k)).toHaveLength(1);
	expect(reports.of('A', 'inspection.agreements_signed', n)).toEqual([]);
}

/**
 * The change moments, at the sandbox's own time: scenarios 4, 5 and 6 (A and
 * B), and the contract's cases 1, 2, 5, 7, 8, 9 and 10 (G and H), side by side.
 */
async function changeMoments(run: Misfires): Promise<void> {
	await allOf(
		[
			paidAndSignedAgain,
			reportsOneByOne,
			publishedWhenAlreadyDone,
			switchOnEvent,
			nothingToPay,
			quoteNoise,
			manyTags,
		].map((scenario) => scenario(run)),
	);
}

/** Scenario 1 for Starting: D watches Ended, then Starting is added while Z is inside its lead time. */
async function startingAddedLater(run: Misfires): Promise<void> {
	const { n8n, reports } = run;
	const T0 = Date.parse((await n8n.control.getClock()).now);
	const z = await bookedAt(n8n, T0 + 10 * HOUR, 3);
	await reports.until('A', 'inspection.created', z);
	await editTrigger(run, 'D', { events: ['inspection.ended', 'inspection.starting'] });
	await (await watchPolls(n8n, 'D')).ended(); // the new version has polled
	const booked = await bookedAt(n8n, T0 + 20 * HOUR, 3);
	await reports.until('D', 'inspection.starting', booked);
	expect(reports.of('D', 'inspection.starting', z)).toEqual([]);
}

/**
 * Scenarios 1 (Ended), 2, 3, 7 and 8, and the contract's cases 3, 4, 6 and
 * 11, along one timeline of the sandbox's clock: S is the start of the
 * inspections the reminders are about; the last moves take the clock days,
 * then 91 days, on.
 */
async function timeMoments(run: Misfires): Promise<void> {
	const { n8n, reports } = run;
	const { control } = n8n;
	const T0 = Date.parse((await control.getClock()).now);
	// On a whole minute: the raw record's time without an offset has no fraction either.
	const S = Math.ceil((T0 + 60 * HOUR) / MINUTE) * MINUTE;
	const x = await bookedAt(n8n, S, 3);
	const waiting = await bookedAt(n8n, S, 2, 'waiting');
	const draft = await bookedAt(n8n, S, 2, 'draft');
	const later = await bookedAt(n8n, S + 3 * HOUR, 2);
	const endedEarly = await bookedAt(n8n, T0 + HOUR, 1);
	const endsLater = await bookedAt(n8n, T0 + 28 * HOUR, 1);
	const movedLate = await bookedAt(n8n, S, 2);
	const confirmedLate = await bookedAt(n8n, S, 3, 'waiting');
	// Listed with its scheduled time in UTC without an offset (8).
	const raw = randomUUID();
	const stamp = iso(T0);
	await control.addRawRecord(
		'acme',
		'inspections',
		JSON.stringify({
			id: raw,
			status: 'confirmed',
			scheduled_for: iso(S).slice(0, 19),
			duration_hours: 1,
			created_at: stamp,
			updated_at: stamp,
			deleted: false,
			agreements: { present: false, all_signed: false, items: [] },
			reports: { status: 'na', items: [] },
			price: { quote: 300, amount_paid: 0, amount_due: 300, payment_status: 'unpaid', paid: false },
		}),
	);
	const ids = [x, waiting, draft, later, endedEarly, endsLater, movedLate, confirmedLate, raw];
	await allOf([
		enteredAfterItBegan(run),
		(async () => {
			for (const id of ids) await reports.until('A', 'inspection.created', id);
		})(),
	]);

	// A day in: `endedEarly` ended two days ago; C starts watching Ended now (1).
	await control.setClock(iso(T0 + 27 * HOUR));
	await reports.until('A', 'inspection.ended', endedEarly);
	await editTrigger(run, 'C', { events: ['inspection.starting', 'inspection.ended'] });
	// `movedLate` moved a week on, dated 6 hours back: no walk lists it (7).
	await control.setClock(iso(T0 + 21 * HOUR));
	await control.rescheduleInspection(movedLate, iso(S + 7 * 24 * HOUR));

	// Inside the lead time of the inspections at S (3, 7, 8).
	await control.setClock(iso(S - 24 * HOUR + MINUTE));
	const startingX = await reports.until('A', 'inspection.starting', x);
	expect((await reports.until('A', 'inspection.starting', raw))[0].moment_at).toBe(
		iso(S - 24 * HOUR),
	);
	await reports.until('E', 'inspection.starting', waiting);
	const found = await reports.until('F', 'inspection.rescheduled', movedLate);
	expect(startingX[0].moment_at).toBe(iso(S - 24 * HOUR));
	expect(reports.of('A', 'inspection.starting', waiting)).toEqual([]);
	expect(reports.of('A', 'inspection.starting', draft)).toEqual([]);
	expect(reports.of('E', 'inspection.starting', draft)).toEqual([]);
	expect(reports.of('F', 'inspection.starting', movedLate)).toEqual([]);
	expect(found).toHaveLength(1);
	// F's idle polls since its lookup: one request each (7).
	const idle = await watchPolls(n8n, 'F');
	await idle.ended(3);
	const { requests, polls } = await idle.since();
	expect({ polls: polls.length >= 3, requests: requests.length }).toEqual({
		polls: true,
		requests: polls.length,
	});

	// A new length reminds no one; moved two hours on, the new time is reminded of when its hours come (2).
	const remindedOfX = async (count: number) =>
		await waitFor(
			`reminder ${count} for x`,
			async () => {
				await reports.collect();
				return reports.of('A', 'inspection.starting', x).length >= count || undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 1000 },
		);
	await control.rescheduleInspection(x, iso(S), 4);
	await control.rescheduleInspection(x, iso(S + 2 * HOUR), 4);
	await control.setClock(iso(S - 22 * HOUR + MINUTE));
	await remindedOfX(2);
	// Back to the first time: not the time last reminded of, so reminded again.
	await control.rescheduleInspection(x, iso(S), 4);
	await remindedOfX(3);
	// On to a time whose hours have not come (seen), and back to the time last reminded of: no one.
	await reports.sawVersion(['A'], await control.rescheduleInspection(x, iso(S + 5 * HOUR), 4));
	await control.rescheduleInspection(x, iso(S), 4);
	await control.setClock(iso(S - 21 * HOUR + MINUTE));
	await reports.until('A', 'inspection.starting', later);
	expect(reports.of('A', 'inspection.starting', x).map((item) => item.moment_at)).toEqual([
		iso(S - 24 * HOUR),
		iso(S - 22 * HOUR),
		iso(S - 24 * HOUR),
	]);
	// Two hours into the inspections at S: a booking confirmed now gets no reminder (3).
	await control.setClock(iso(S + 2 * HOUR));
	await confirmedTwoHoursIn(run, confirmedLate);
	// Past every end (1, 3).
	await control.setClock(iso(S + 29 * HOUR));
	await reports.until('A', 'inspection.ended', x);
	await reports.until('E', 'inspection.ended', waiting);
	await reports.until('C', 'inspection.ended', endsLater);
	expect(reports.of('A', 'inspection.ended', waiting)).toEqual([]);
	expect(reports.of('A', 'inspection.ended', draft)).toEqual([]);
	expect(reports.of('E', 'inspection.ended', draft)).toEqual([]);
	expect(reports.of('C', 'inspection.ended', endedEarly)).toEqual([]);
	// H unpublished for days, then an inspection let go after its 90 days (the clock's last moves).
	await letGo(run, await awayForDays(run));
	// Nothing reported twice: no event twice for one version of a record, in any workflow.
	for (const letter of Object.keys(reports.items) as Letter[]) {
		const keys = reports.items[letter].map((item) => {
			const record = item.record as Json;
			return JSON.stringify([item.event, record?.id, record?.updated_at, item.moment_at]);
		});
		expect({ letter, repeated: keys.filter((key, i) => keys.indexOf(key) !== i) }).toEqual({
			letter,
			repeated: [],
		});
	}
}

/** The file's tests: a fresh n8n under `scheduler`, then each scenario against it in turn. */
export function misfireTests(scheduler: Scheduler): void {
	let run: Misfires;
	beforeAll(async () => {
		run = await startMisfires(scheduler);
	}, 10 * MINUTE);
	afterAll(async () => await run?.n8n.dispose());

	it(
		"a second payment, a new agreement, nothing to sign and a role given again, and the contract's change cases: each moment as often as it should come",
		async () => await changeMoments(run),
		12 * MINUTE,
	);
	it(
		'Starting selected while an inspection is inside its lead time sends it no reminder; a later booking gets one',
		async () => await startingAddedLater(run),
		6 * MINUTE,
	);
	it(
		'time moments: Ended selected later, new lengths and moves back, statuses, a change listed late, a time without an offset, no reminder once begun, a long absence and a record let go',
		async () => await timeMoments(run),
		15 * MINUTE,
	);
}
