/**
 * The moments' contract's hard cases (docs/moments.md), each as a business
 * lives it, in the misfires run (misfires-run.ts): node version 2's workflows
 * G and H, and A where version 1 keeps the same rule. The scenarios of
 * moments-misfires.ts call them. Every "not reported" is checked once the same
 * workflow reported that very change (its Updated item: the same poll judged
 * every moment of it) or a later one (a companion).
 */
import { randomUUID } from 'node:crypto';

import { waitFor } from '../../../scripts/processes';
import {
	BRANCHES,
	type Branch,
	bookedAt,
	companion,
	editTrigger,
	HOUR,
	iso,
	type Json,
	type Letter,
	MINUTE,
	type Misfires,
	publish,
	publishLater,
	unpublish,
} from './misfires-run';

const DAY = 24 * HOUR;
const idOf = (record: Json) => String(record.id);
const eventsAbout = (run: Misfires, letter: Letter, id: string) =>
	run.reports.about(letter, id).map((item) => item.event);

/** A confirmed inspection five days ahead; its id. */
const booked = async (run: Misfires) =>
	await bookedAt(run.n8n, Date.parse((await run.n8n.control.getClock()).now) + 5 * DAY, 3);

/**
 * 1 and 2. Paid and signed, two reports: the first published (reports status
 * partial) is Report Published and Paid and Signed and Published at once; the
 * second, the first set back for a fix and published again, and a third
 * report are not Published again (Only Trigger Once).
 */
export async function reportsOneByOne(run: Misfires): Promise<void> {
	const { control } = run.n8n;
	const { reports } = run;
	const id = await booked(run);
	await control.addAgreements(id, ['Pre-Inspection Agreement']);
	await control.signAgreements(id);
	await control.payInspection(id);
	await control.addReport(id, 'Home Inspection Report');
	const ready = await control.addReport(id, 'Radon Report');
	const [home, radon] = (ready.reports as { items: Json[] }).items.map(idOf);
	await reports.sawVersion(['G'], ready);
	await control.setReportStatus(id, home, 'published');
	const [published] = await reports.until('G', 'inspection.published', id);
	const [opened] = await reports.until('G', 'inspection.paid_signed_published', id);
	expect((published.record as Json).reports).toMatchObject({ status: 'partial' });
	expect((opened.record as Json).updated_at).toBe((published.record as Json).updated_at);

	await reports.sawVersion(['G'], await control.setReportStatus(id, radon, 'published'));
	await reports.sawVersion(['G'], await control.setReportStatus(id, home, 'pending'));
	await reports.sawVersion(['G'], await control.setReportStatus(id, home, 'published'));
	const pool = (await control.addReport(id, 'Pool Report')).reports as { items: Json[] };
	const third = await control.setReportStatus(id, idOf(pool.items[2]), 'published');
	expect(third.reports).toMatchObject({ status: 'published' });
	await reports.sawVersion(['G'], third);
	expect(reports.of('G', 'inspection.published', id)).toHaveLength(1);
	expect(reports.of('G', 'inspection.paid_signed_published', id)).toHaveLength(1);
}

/**
 * Waits until the sandbox's clock is past the second of `version`'s change. A
 * baseline dates its start by the API's Date header, in whole seconds: a
 * change in that same second counts as made while the baseline ran
 * (docs/polling-trigger.md, the first activation).
 */
async function pastTheSecondOf(run: Misfires, version: Json): Promise<void> {
	const next = Math.floor(Date.parse(String(version.updated_at)) / 1000) * 1000 + 1000;
	await waitFor(
		'the sandbox clock to pass the second of the last change',
		async () => Date.parse((await run.n8n.control.getClock()).now) >= next || undefined,
		{ timeoutMs: MINUTE, intervalMs: 100 },
	);
}

/**
 * 5. H is published when Q is already paid, signed and released. Then an
 * addendum is signed, and a refund is paid back: none of the moments that
 * held comes (Only Trigger Once), only Updated.
 */
export async function publishedWhenAlreadyDone(run: Misfires): Promise<void> {
	const { control } = run.n8n;
	const { reports } = run;
	const id = await booked(run);
	await control.addAgreements(id, ['Pre-Inspection Agreement']);
	await control.signAgreements(id);
	await control.payInspection(id);
	await pastTheSecondOf(run, await control.publishReports(id));
	await publishLater(run);
	await reports.sawVersion(['H'], await control.addAgreements(id, ['Radon Addendum']));
	const signed = await control.signAgreements(id);
	expect(signed.agreements).toMatchObject({ all_signed: true });
	await reports.sawVersion(['H'], signed);
	await reports.sawVersion(['H'], await control.refund(id, 425));
	const paidBack = await control.payInspection(id);
	await reports.sawVersion(['H'], paidBack);
	expect(eventsAbout(run, 'H', id)).toEqual(Array(4).fill('inspection.updated'));
}

/**
 * 7. G's Switch on `event`: a booking confirmed at once reaches both the
 * Created and the Confirmed branches; a payment that completes Paid and Signed
 * (nothing to sign) reaches both the Paid and the Paid and Signed branches.
 */
export async function switchOnEvent(run: Misfires): Promise<void> {
	const { control } = run.n8n;
	const { reports } = run;
	const id = idOf(await control.createInspection({ org: 'acme', status: 'confirmed' }));
	const branchItems = (branch: Branch) =>
		reports.branches[branch].filter((item) => idOf(item.record as Json) === id);
	const reached = (branches: Branch[]) =>
		waitFor(
			`${id} to reach ${branches.join(' and ')}`,
			async () => {
				await reports.collect();
				return branches.every((branch) => branchItems(branch).length > 0) || undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 1000 },
		);
	await reached(['Created', 'Confirmed']);
	await control.payInspection(id);
	await reached(['Paid', 'Paid and Signed']);
	for (const [branch, event] of Object.entries(BRANCHES)) {
		expect({ branch, events: branchItems(branch as Branch).map((item) => item.event) }).toEqual({
			branch,
			events: [event],
		});
		expect(reports.branches[branch as Branch].every((item) => item.event === event)).toBe(true);
	}
	const versionIn = (branch: Branch) => (branchItems(branch)[0].record as Json).updated_at;
	expect(versionIn('Confirmed')).toBe(versionIn('Created'));
	expect(versionIn('Paid and Signed')).toBe(versionIn('Paid'));
}

/** 8. A $0 inspection (quote 0, nothing due) with an agreement: Paid and Signed when signed, never Paid. */
export async function nothingToPay(run: Misfires): Promise<void> {
	const { control } = run.n8n;
	const { reports } = run;
	const id = await booked(run);
	await reports.sawVersion(['G'], await control.addAgreements(id, ['Pre-Inspection Agreement']));
	const free = await control.setQuote(id, 0);
	expect(free.price).toMatchObject({ quote: 0, amount_due: 0, paid: false });
	await reports.sawVersion(['G'], free);
	await control.signAgreements(id);
	const [opened] = await reports.until('G', 'inspection.paid_and_signed', id);
	expect((opened.record as Json).price).toMatchObject({ quote: 0, paid: false });
	expect(reports.of('G', 'inspection.paid', id)).toEqual([]);
}

/** 9. A quote that differs only in floating point, or that is briefly null, is no Fees Changed; a real change is. */
export async function quoteNoise(run: Misfires): Promise<void> {
	const { control } = run.n8n;
	const { reports } = run;
	const id = idOf(
		await control.createInspection({ org: 'acme', status: 'confirmed', quote: 425.1 }),
	);
	await reports.until('G', 'inspection.created', id);
	for (const quote of [425.09999999999997, null, 425.1])
		await reports.sawVersion(['G'], await control.setQuote(id, quote));
	await control.setQuote(id, 500);
	const fees = await reports.until('G', 'inspection.fees_changed', id);
	expect(fees).toHaveLength(1);
	expect((fees[0].changes as Json)['price.quote']).toEqual({ before: 425.1, after: 500 });
}

/**
 * 10. A contact with 33 tags (the trigger holds 32 one by one) gets a 34th:
 * no Tag Added, and no Tag Removed for the tag it pushed past the 32. A tag
 * removed beyond the 32 is not reported either; one removed among them is,
 * by its own id and name. No stand-in for the rest shows as a tag.
 */
export async function manyTags(run: Misfires): Promise<void> {
	const { control } = run.n8n;
	const { reports } = run;
	const batch = randomUUID().slice(0, 8);
	const tags: Array<{ id: string; name: string }> = [];
	for (let i = 0; i < 34; i++) {
		const { id, name } = await control.createTag('acme', `Misfire ${batch} ${i}`);
		tags.push({ id, name });
	}
	// The trigger keeps the first 32 by id: tags[0] sorts before every other.
	tags.sort((a, b) => (a.id < b.id ? -1 : 1));
	const ids = (from: number, to: number) => tags.slice(from, to).map((tag) => tag.id);
	const contact = await control.createContact('acme', {
		first_name: 'Tess',
		email: `tess.${batch}@example.com`,
		tag_ids: ids(1, 34),
	});
	const id = idOf(contact);
	await reports.sawVersion(['G'], contact);
	await reports.sawVersion(['G'], await control.updateContact(id, { tag_ids: ids(0, 34) }));
	await reports.sawVersion(['G'], await control.updateContact(id, { tag_ids: ids(0, 33) }));
	await control.updateContact(id, { tag_ids: ids(1, 33) });
	const [removed] = await reports.until('G', 'contact.tag_removed', id);
	expect((removed.changes as Json).tags).toMatchObject({ added: [], removed: [tags[0]] });
	expect(reports.of('G', 'contact.tag_added', id)).toHaveLength(1); // its first 33, when new
	expect(reports.of('G', 'contact.tag_removed', id)).toHaveLength(1);
	const shown = reports.about('G', id).flatMap((item) => {
		const change = ((item.changes as Json | null)?.tags ?? {}) as Record<string, Json[]>;
		return ['before', 'after', 'added', 'removed'].flatMap((part) => change[part] ?? []);
	});
	expect(shown.length).toBeGreaterThan(0);
	for (const tag of shown) expect(tags).toContainEqual(tag);
}

/**
 * 3. No reminder once an inspection has begun: a job entered an hour after
 * its start gets none (A and G), while one booked to start in two hours does.
 */
export async function enteredAfterItBegan(run: Misfires): Promise<void> {
	const now = Date.parse((await run.n8n.control.getClock()).now);
	const begun = await bookedAt(run.n8n, now - HOUR, 3);
	const soon = await bookedAt(run.n8n, now + 2 * HOUR, 2);
	await run.reports.until('G', 'inspection.starting', soon);
	await run.reports.until('A', 'inspection.starting', soon);
	expect(run.reports.of('G', 'inspection.starting', begun)).toEqual([]);
	expect(run.reports.of('A', 'inspection.starting', begun)).toEqual([]);
}

/**
 * 3. A booking waiting at its start, confirmed two hours in: Confirmed, no
 * reminder. `waiting`: booked waiting before; the clock is two hours past its start.
 */
export async function confirmedTwoHoursIn(run: Misfires, waiting: string): Promise<void> {
	await run.n8n.control.confirmInspection(waiting);
	await run.reports.until('G', 'inspection.confirmed', waiting);
	await companion(run, 'G');
	expect(run.reports.of('G', 'inspection.starting', waiting)).toEqual([]);
}

const SKIPPED_LATE = /Inspection Ended: (\d+) moment\(s\) skipped, more than 48 hours late/g;

/**
 * 6 and 3. H unpublished for 80 hours (from U): the moments that came meanwhile
 * are judged at its first poll back. An Ended 15 hours late is sent, one 54
 * hours late is not (past the default 48) and n8n's log counts it; a reminder
 * whose hours came meanwhile goes out if its inspection has not begun, not for
 * one an hour under way. Returns the inspection paid and reviewed, and the
 * one under way (for letGo).
 */
export async function awayForDays(run: Misfires): Promise<{ reviewed: string; underWay: string }> {
	const { n8n, reports } = run;
	const { control } = n8n;
	await publishLater(run);
	const U = Date.parse((await control.getClock()).now);
	const R = U + 80 * HOUR;
	const tooLate = await bookedAt(n8n, U + HOUR, 1); // its Ended at U + 26 h
	const reviewed = await bookedAt(n8n, U + 40 * HOUR, 1); // its Ended at U + 65 h
	const underWay = await bookedAt(n8n, R - HOUR, 3);
	const upcoming = await bookedAt(n8n, R + 2 * HOUR, 2);
	await reports.until('H', 'inspection.created', reviewed);
	// Paid with nothing to sign: Paid and Signed, which letGo needs.
	await reports.sawVersion(['H'], await control.payInspection(reviewed));
	expect(reports.of('H', 'inspection.paid_and_signed', reviewed)).toHaveLength(1);
	await unpublish(run, 'H');
	await control.setClock(iso(R));
	// The workflows that stayed published log their own skips at their first poll after the move.
	for (const letter of ['A', 'C', 'D', 'E'] as const)
		await reports.until(letter, 'inspection.ended', reviewed);
	const logFrom = n8n.log.length;
	await publish(run, 'H');
	const [ended] = await reports.until('H', 'inspection.ended', reviewed);
	expect(ended.moment_at).toBe(iso(U + 65 * HOUR));
	await reports.until('H', 'inspection.starting', upcoming);
	await reports.until('A', 'inspection.starting', upcoming);
	for (const letter of ['H', 'A'] as const) {
		expect(reports.of(letter, 'inspection.ended', tooLate)).toEqual([]);
		expect(reports.of(letter, 'inspection.starting', underWay)).toEqual([]);
	}
	const skips = await waitFor(
		"H's count of Ended moments skipped",
		async () => {
			const lines = [...n8n.log.slice(logFrom).matchAll(SKIPPED_LATE)];
			return lines.length > 0 ? lines : undefined;
		},
		{ timeoutMs: MINUTE, intervalMs: 500 },
	);
	// Once, or twice when n8n's test poll at publication ran it too (it keeps nothing).
	expect(new Set(skips.map((line) => Number(line[1]))).size).toBe(1);
	expect(Number(skips[0][1])).toBeGreaterThanOrEqual(1);
	return { reviewed, underWay };
}

/**
 * 11. `reviewed` was paid, signed (nothing to sign) and reviewed (Ended); 91
 * days after its end it is let go. Its report published then is Updated, seen
 * for the first time (previous and changes null), neither Report Published
 * nor Paid and Signed and Published nor Ended again, even with every late
 * Ended sent (Skip Ended Moments Later Than 0); what held then counts as
 * having happened, so a refund paid back is no Paid or Paid and Signed either.
 */
export async function letGo(
	run: Misfires,
	{ reviewed, underWay }: { reviewed: string; underWay: string },
): Promise<void> {
	const { n8n, reports } = run;
	const { control } = n8n;
	await editTrigger(run, 'H', { endedLateHours: 0 });
	const [ended] = reports.of('H', 'inspection.ended', reviewed);
	await control.setClock(iso(Date.parse(String(ended.moment_at)) + 91 * DAY));
	// H has polled since the move (the Ended of `underWay`, 90 days late, sent): the trigger
	// follows the API's clock, and a poll judges what it lists by the clock of the poll before.
	await reports.until('H', 'inspection.ended', underWay);
	const late = await control.publishReports(reviewed);
	await reports.sawVersion(['H'], late);
	const [seenAgain] = reports
		.about('H', reviewed)
		.filter((item) => (item.record as Json).updated_at === late.updated_at);
	expect(seenAgain).toMatchObject({ event: 'inspection.updated', previous: null, changes: null });
	await reports.sawVersion(['H'], await control.refund(reviewed, 425));
	await reports.sawVersion(['H'], await control.payInspection(reviewed));
	expect(eventsAbout(run, 'H', reviewed).sort()).toEqual(
		[
			'inspection.created',
			'inspection.updated', // paid
			'inspection.paid',
			'inspection.paid_and_signed',
			'inspection.ended',
			'inspection.updated', // the report, once let go
			'inspection.updated', // the refund
			'inspection.updated', // paid back
		].sort(),
	);
}
