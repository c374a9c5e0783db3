/**
 * The moments where earlier versions misfired, as an inspection business lives
 * them, in a real n8n under `n8n start` against a sandbox of its own, under one
 * scheduler (`misfireTests`, one e2e file each, so that both run side by side):
 * n8n's poller, or the durable scheduler (n8n 2.45's default). Six
 * trigger workflows poll every 15 seconds; the sandbox's clock moves the
 * inspections through their days. Every "not reported" is checked after the
 * same workflow reported something that came later (a companion), so it is a
 * poll that ran, not a wait that was long enough.
 *
 * 1. A time event selected later starts then: Ended added a day in (C), Starting
 *    added while an inspection is inside its lead time (D).
 * 2. A new length or a move back to a time already reminded reminds no one.
 * 3. Draft and waiting inspections get no Starting or Ended by default (A), and
 *    do when the statuses say so (E).
 * 4. Only Trigger Once: a second payment and a new agreement signed are not
 *    reported again (A), and are with it off (B).
 * 5. Nothing to sign counts as signed for the gates.
 * 6. A role taken away and given again is not new.
 * 7. A schedule change the API lists late is looked up once: then one request
 *    per idle poll (F, a key of its own).
 * 8. A time without an offset is UTC, with n8n running in New York's zone.
 */
import { randomUUID } from 'node:crypto';

import { SANDBOX_KEYS } from '../../../sandbox/index';
import { waitFor } from '../../../scripts/processes';
import { SANDBOX_CREDENTIAL, sandboxCredential } from '../../../scripts/workflows';
import { chain, NODE_TYPES } from '../workflows/build';
import { DURABLE_SCHEDULER, DurableN8n, every15Seconds, TRIGGER_NODE } from './durable';
import { PollWatch } from './polls';

type Json = Record<string, unknown>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
/** F and D poll with keys of their own, so their requests can be told apart in the sandbox's log. */
const KEYS = {
	F: { id: 'IbSandboxAcmeStaff', name: 'Sandbox (Acme staff key)', apiKey: SANDBOX_KEYS.acmeStaff },
	D: {
		id: 'IbSandboxAcmeOwner2',
		name: 'Sandbox (Acme second key)',
		apiKey: SANDBOX_KEYS.acmeOwner2,
	},
} as const;

/** The workflows, by letter: their events and options. */
const WORKFLOWS = {
	A: {
		events: [
			'inspection.created',
			'inspection.updated',
			'contact.updated',
			'inspection.rescheduled',
			'inspection.paid',
			'inspection.agreements_signed',
			'inspection.paid_and_signed',
			'inspection.paid_signed_published',
			'inspection.starting',
			'inspection.ended',
			'contact.new_role',
		],
		options: {},
	},
	B: {
		events: ['inspection.updated', 'inspection.paid', 'inspection.paid_and_signed'],
		options: { onlyOnce: false },
	},
	C: { events: ['inspection.starting'], options: {} },
	D: { events: ['inspection.ended'], options: {} },
	E: {
		events: ['inspection.starting', 'inspection.ended'],
		options: { momentStatuses: ['waiting', 'confirmed'] },
	},
	F: { events: ['inspection.starting', 'inspection.rescheduled'], options: {} },
} as const;
type Letter = keyof typeof WORKFLOWS;
const idOf = (letter: Letter) => `IbMisfire${letter}`;

type Scheduler = 'poller' | 'durable';

/** What each workflow reported so far, read from its executions. */
class Reports {
	private readonly seen = new Set<string>();
	readonly items: Record<Letter, Json[]> = { A: [], B: [], C: [], D: [], E: [], F: [] };

	constructor(private readonly n8n: DurableN8n) {}

	async collect(): Promise<void> {
		for (const letter of Object.keys(WORKFLOWS) as Letter[]) {
			for (const execution of (await this.n8n.rest.executions(idOf(letter))).reverse()) {
				if (this.seen.has(execution.id) || !['success', 'error'].includes(execution.status))
					continue;
				this.seen.add(execution.id);
				const data = await this.n8n.rest.executionData<{
					resultData: { runData: Record<string, Array<{ data?: { main: Json[][] } }>> };
				}>(execution.id);
				for (const run of data.resultData.runData[TRIGGER_NODE] ?? [])
					this.items[letter].push(...(run.data?.main[0] ?? []).map((item) => item.json as Json));
			}
		}
	}

	/** The items of `letter` for `event` and record `id`. */
	of(letter: Letter, event: string, id: string): Json[] {
		return this.items[letter].filter(
			(item) => item.event === event && String((item.record as Json)?.id) === id,
		);
	}

	/**
	 * Waits until `letters` each reported record `id` in a version `shows`: they
	 * polled after the change that made it, so the next change is a change of its own.
	 */
	async sawEach(letters: Letter[], id: string, shows: (record: Json) => boolean): Promise<void> {
		await waitFor(
			`workflows ${letters.join(', ')} to see ${id} changed`,
			async () => {
				await this.collect();
				const saw = (letter: Letter) =>
					this.items[letter].some(
						(item) => String((item.record as Json)?.id) === id && shows(item.record as Json),
					);
				return letters.every(saw) || undefined;
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 1000 },
		);
	}

	async until(letter: Letter, event: string, id: string, timeoutMs = 3 * MINUTE): Promise<Json[]> {
		return await waitFor(
			`workflow ${letter} to report ${event} for ${id}`,
			async () => {
				await this.collect();
				const found = this.of(letter, event, id);
				return found.length > 0 ? found : undefined;
			},
			{ timeoutMs, intervalMs: 1000 },
		);
	}
}

function triggerWorkflow(letter: Letter) {
	const { events, options } = WORKFLOWS[letter];
	return chain(idOf(letter), `Misfires ${letter}`, [
		{
			name: TRIGGER_NODE,
			type: NODE_TYPES.poll,
			typeVersion: 1,
			parameters: { pollTimes: every15Seconds(), events: [...events], options },
			credentials: {
				inspectionBusinessApi:
					letter === 'F' || letter === 'D'
						? { id: KEYS[letter].id, name: KEYS[letter].name }
						: SANDBOX_CREDENTIAL,
			},
		},
	]);
}

/** Edits the trigger's events as a user in the editor would, and publishes the new version. */
async function selectEvents({ n8n }: Misfires, letter: Letter, events: string[]): Promise<void> {
	const workflow = await n8n.rest.rest<Json & { nodes: Json[]; versionId: string }>(
		'GET',
		`/rest/workflows/${idOf(letter)}`,
	);
	const nodes = workflow.nodes.map((node) =>
		node.name === TRIGGER_NODE
			? { ...node, parameters: { ...(node.parameters as Json), events } }
			: node,
	);
	await n8n.rest.rest('PATCH', `/rest/workflows/${idOf(letter)}`, {
		nodes,
		connections: workflow.connections,
		versionId: workflow.versionId,
	});
	await n8n.rest.publish(idOf(letter));
}

/** Watches the polls of D or F, which poll with keys of their own (the sandbox's log tells them apart). */
const watchPolls = async (n8n: DurableN8n, letter: 'D' | 'F') =>
	await PollWatch.start(n8n.control, n8n.rest, idOf(letter), KEYS[letter].apiKey);

interface Misfires {
	n8n: DurableN8n;
	reports: Reports;
	scheduler: Scheduler;
}

/** A fresh n8n under `scheduler`, its six workflows published and past their baselines. */
async function startMisfires(scheduler: Scheduler): Promise<Misfires> {
	const letters = Object.keys(WORKFLOWS) as Letter[];
	const n8n = await DurableN8n.prepare(
		`misfires-${scheduler}`,
		() => letters.map(triggerWorkflow),
		'demo',
		(url) => Object.values(KEYS).map((key) => sandboxCredential(url, key)),
	);
	// n8n 2.41's own defaults: no durable scheduler, the publication service on.
	const off = {
		...Object.fromEntries(Object.keys(DURABLE_SCHEDULER).map((name) => [name, 'false'])),
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	};
	// New York's zone: a time without an offset read in the server's zone would be 5 hours off.
	await n8n.start({ TZ: 'America/New_York', ...(scheduler === 'poller' ? off : {}) });
	const reports = new Reports(n8n);
	// Every workflow is past its baseline once A reports an inspection created after it.
	let sentinel = '';
	let touched = 0;
	await waitFor(
		'the baselines to end',
		async () => {
			if (Date.now() - touched > 20_000) {
				sentinel = String((await n8n.control.createInspection({ org: 'acme' })).id);
				touched = Date.now();
			}
			await reports.collect();
			return reports.of('A', 'inspection.created', sentinel).length > 0 || undefined;
		},
		{ timeoutMs: 6 * MINUTE, intervalMs: 2000 },
	);
	return { n8n, reports, scheduler };
}

const confirmedAt = async (n8n: DurableN8n, start: number, hours: number, status = 'confirmed') =>
	String(
		(
			await n8n.control.createInspection({
				org: 'acme',
				status,
				scheduled_for: iso(start),
				duration_hours: hours,
			})
		).id,
	);

/** Scenarios 4, 5 and 6 (and 1 for Starting): the change moments, at the sandbox's own time. */
async function changeMoments({ n8n, reports }: Misfires): Promise<void> {
	const { control } = n8n;
	const T0 = Date.parse((await control.getClock()).now);
	const p = await confirmedAt(n8n, T0 + 5 * 24 * HOUR, 3);
	const n = await confirmedAt(n8n, T0 + 5 * 24 * HOUR, 3);
	const k = String(
		(await control.createContact('acme', { first_name: 'Kim', email: 'kim.misfire@example.com' }))
			.id,
	);
	const k2 = String(
		(await control.createContact('acme', { first_name: 'Kai', email: 'kai.misfire@example.com' }))
			.id,
	);
	const i1 = await confirmedAt(n8n, T0 + 6 * 24 * HOUR, 2);
	const i2 = await confirmedAt(n8n, T0 + 7 * 24 * HOUR, 2);

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

/** Scenario 1 for Starting: D watches Ended, then Starting is added while Z is inside its lead time. */
async function startingAddedLater(run: Misfires): Promise<void> {
	const { n8n, reports } = run;
	const T0 = Date.parse((await n8n.control.getClock()).now);
	const z = await confirmedAt(n8n, T0 + 10 * HOUR, 3);
	await reports.until('A', 'inspection.created', z);
	await selectEvents(run, 'D', ['inspection.ended', 'inspection.starting']);
	await (await watchPolls(n8n, 'D')).ended(); // the new version has polled
	const booked = await confirmedAt(n8n, T0 + 20 * HOUR, 3);
	await reports.until('D', 'inspection.starting', booked);
	expect(reports.of('D', 'inspection.starting', z)).toEqual([]);
}

/**
 * Scenarios 1 (Ended), 2, 3, 7 and 8, along one timeline of the sandbox's
 * clock: S is the start of the inspections the reminders are about.
 */
async function timeMoments(run: Misfires): Promise<void> {
	const { n8n, reports } = run;
	const { control } = n8n;
	const T0 = Date.parse((await control.getClock()).now);
	// On a whole minute: the raw record's time without an offset has no fraction either.
	const S = Math.ceil((T0 + 60 * HOUR) / MINUTE) * MINUTE;
	const x = await confirmedAt(n8n, S, 3);
	const waiting = await confirmedAt(n8n, S, 2, 'waiting');
	const draft = await confirmedAt(n8n, S, 2, 'draft');
	const later = await confirmedAt(n8n, S + 3 * HOUR, 2);
	const endedEarly = await confirmedAt(n8n, T0 + HOUR, 1);
	const endsLater = await confirmedAt(n8n, T0 + 28 * HOUR, 1);
	const movedLate = await confirmedAt(n8n, S, 2);
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
	for (const id of [x, waiting, draft, later, endedEarly, endsLater, movedLate, raw])
		await reports.until('A', 'inspection.created', id);

	// A day in: `endedEarly` ended two days ago; C starts watching Ended now (1).
	await control.setClock(iso(T0 + 27 * HOUR));
	await reports.until('A', 'inspection.ended', endedEarly);
	await selectEvents(run, 'C', ['inspection.starting', 'inspection.ended']);
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

	// A new length, a move two hours on, and back (2).
	await control.rescheduleInspection(x, iso(S), 4);
	await control.rescheduleInspection(x, iso(S + 2 * HOUR), 4);
	await control.setClock(iso(S - 22 * HOUR + MINUTE));
	await waitFor(
		'the reminder for the new time',
		async () => {
			await reports.collect();
			return reports.of('A', 'inspection.starting', x).length >= 2 || undefined;
		},
		{ timeoutMs: 3 * MINUTE, intervalMs: 1000 },
	);
	await control.rescheduleInspection(x, iso(S), 4);
	await control.setClock(iso(S - 21 * HOUR + MINUTE));
	await reports.until('A', 'inspection.starting', later);
	expect(reports.of('A', 'inspection.starting', x).map((item) => item.moment_at)).toEqual([
		iso(S - 24 * HOUR),
		iso(S - 22 * HOUR),
	]);
	// Past every end (1, 3).
	await control.setClock(iso(S + 29 * HOUR));
	await reports.until('A', 'inspection.ended', x);
	await reports.until('E', 'inspection.ended', waiting);
	await reports.until('C', 'inspection.ended', endsLater);
	expect(reports.of('A', 'inspection.ended', waiting)).toEqual([]);
	expect(reports.of('A', 'inspection.ended', draft)).toEqual([]);
	expect(reports.of('E', 'inspection.ended', draft)).toEqual([]);
	expect(reports.of('C', 'inspection.ended', endedEarly)).toEqual([]);
	// Nothing reported twice: no event twice for one version of a record, in any workflow.
	for (const letter of Object.keys(WORKFLOWS) as Letter[]) {
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
		'a second payment, a new agreement, nothing to sign and a role given again: each moment as often as it should come',
		async () => await changeMoments(run),
		12 * MINUTE,
	);
	it(
		'Starting selected while an inspection is inside its lead time sends it no reminder; a later booking gets one',
		async () => await startingAddedLater(run),
		6 * MINUTE,
	);
	it(
		'time moments: Ended selected later, new lengths and moves back, statuses, a change listed late and a time without an offset',
		async () => await timeMoments(run),
		15 * MINUTE,
	);
}
