/**
 * The polling trigger under n8n's durable scheduler (the default from n8n
 * 2.45; in 2.41 the four DURABLE_SCHEDULER settings), in an n8n of its own
 * polling every 15 seconds, each occurrence twice (two identical poll times:
 * n8n starts two polls of the node at once, as it does whenever a poll
 * outlasts the interval), against a sandbox of its own at the real 120
 * requests a minute. Every change the sandbox makes is reported exactly once:
 * across polls, in a burst, across a restart with changes made while n8n was
 * down, and when n8n abandons polls at their timeout. A baseline that takes
 * several polls ends each within its timeout, commits its progress although it
 * emits nothing, and never starts over. The large account is in
 * durable-large.e2e.test.ts (`npm run test:durable`).
 * @long: waits minutes for polls across restarts (test/sequencer.js starts it early)
 */
import { waitFor } from '../../scripts/processes';
import {
	ABANDONED,
	DurableN8n,
	every15Seconds,
	pollRuns,
	pollWorkflow,
	Reports,
	SKIPPED,
	sqliteTime,
	startsWholeWalk,
	versionOf,
} from './support/durable';
import { SandboxApi } from './support/sandbox-api';

type Json = Record<string, unknown>;
type Rec = Json & { id: string; updated_at: string };
type Inspection = Rec & { status: string; reports: { status: string }; deleted?: boolean };

const MINUTE = 60_000;
const WORKFLOW = 'IbDurablePollE2e';
const EVENTS = [
	'contact.created',
	'contact.updated',
	'contact.tag_added',
	'contact.tag_removed',
	'inspection.created',
	'inspection.updated',
	'inspection.confirmed',
	'inspection.rescheduled',
	'inspection.canceled',
	'inspection.published',
	'inspection.deleted',
];
/** n8n gives a poll 5 s of a 10 s timeout: a baseline of the demo account, slowed down, takes several polls. */
const SHORT_POLLS = { N8N_SCHEDULER_POLL_TIMEOUT: '10' };
/**
 * The sandbox's delay per answer during the baseline: its 27 pages wait 16 s in all, so at
 * least 4 polls of 5 s. At a second a page, a loaded machine read one page a poll: 23 polls.
 */
const BASELINE_PAGE_MS = 600;
/**
 * n8n gives a poll 0.5 s of a 1 s timeout, and the trigger a page at least 1 s: one slow answer
 * and n8n abandons the poll (with a longer timeout the trigger ends the poll itself, in time). At
 * a load of 20 n8n abandons ordinary polls too, so only the abandoned polls run under it.
 */
const ONE_SECOND_POLLS = { N8N_SCHEDULER_POLL_TIMEOUT: '1' };

let n8n: DurableN8n;
let api: SandboxApi;
/** Every item the workflow's executions emitted. */
let reports: Reports;

/** Changes made before the trigger was published: part of the baseline, never reported. */
const madeBefore = new Map<string, string>();
/** A change made after publishing, before the first scheduled poll (n8n discards the test poll's state). */
const betweenPublishingAndFirstPoll = new Map<string, string>();
let noStateAtGap = false;

beforeAll(async () => {
	n8n = await DurableN8n.prepare('durable', () => [
		pollWorkflow(WORKFLOW, EVENTS, every15Seconds(true)),
	]);
	api = new SandboxApi(n8n.sandbox.baseUrl);
	reports = new Reports(n8n, WORKFLOW);
	// Before n8n starts, so before the test poll that publishes the trigger and begins its baseline.
	const [late] = (await api.get<{ data: Rec[] }>('/v1/contacts', { sort: '-updated_at', limit: 1 }))
		.data;
	madeBefore.set(
		versionOf(await n8n.control.updateContact(late.id, { notes: 'before publishing' })),
		'contact.updated',
	);
	madeBefore.set(
		versionOf(
			await n8n.control.createContact('acme', { first_name: 'Early', email: 'early@example.com' }),
		),
		'contact.created',
	);
	await n8n.control.settings({ latency_ms: BASELINE_PAGE_MS });
	await n8n.start(SHORT_POLLS);
	// The test poll n8n runs at publication (it may take the whole baseline: n8n gives it minutes)
	// has ended: it read the inspections, and the trigger has sent nothing for 2.5 s since (a page
	// takes a second; the first scheduled poll that runs comes 10 s or more after it).
	await waitFor(
		'the test poll at publication to end',
		async () => {
			const requests = await n8n.triggerRequests();
			const last = requests.at(-1);
			const quiet = last !== undefined && Date.now() - Date.parse(last.time) > 2_500;
			return (quiet && requests.some((entry) => entry.path === '/v1/inspections')) || undefined;
		},
		{ timeoutMs: 2 * MINUTE, intervalMs: 100 },
	);
	noStateAtGap = (await n8n.committedState(WORKFLOW)) === null;
	betweenPublishingAndFirstPoll.set(
		versionOf(
			await n8n.control.createContact('acme', { first_name: 'Gap', email: 'gap@example.com' }),
		),
		'contact.created',
	);
}, 10 * MINUTE);

afterAll(async () => await n8n?.dispose());

/** The committed state's view of one list: its phase and how far its unfinished walk got (ms). */
async function committedList(list: string): Promise<{ phase?: string; top?: number | null }> {
	const state = await n8n.committedState(WORKFLOW);
	const stored = state?.[list] as Json | undefined;
	const times = [stored?.highWaterMark, (stored?.unfinishedWalk as Json)?.newestProcessed];
	const known = times.filter((time): time is number => typeof time === 'number');
	return {
		phase: stored?.phase as string | undefined,
		top: known.length ? Math.max(...known) : null,
	};
}

/** The first page of a list in the baseline's order (oldest update first): what it reads first. */
const oldestFirst = async (path: string) =>
	(
		await api.get<{ data: Rec[] }>(path, {
			sort: 'updated_at',
			limit: 200,
			...(path === '/v1/inspections' ? { include_canceled: true } : {}),
		})
	).data;

/**
 * Twenty changes of every kind, each to a record the baseline reads first (the
 * oldest) or a new one; each version with the event it must be reported with.
 * The oldest records are long past the 90 days the trigger holds a record
 * (docs/moments.md): a change of one is judged as seen for the first time,
 * so it is Updated, or Canceled or Deleted by its own time.
 */
async function changeEveryKind(contacts: Rec[], inspections: Inspection[]) {
	const expected = new Map<string, string>();
	const used = new Set<string>();
	const take = <T extends Rec>(list: T[], what: string, test: (record: T) => boolean) => {
		const found = list.find((record) => !used.has(record.id) && test(record));
		if (!found) throw new Error(`The first page of the demo seed has no ${what}`);
		used.add(found.id);
		return found;
	};
	const expect_ = (record: Json, event: string) => expected.set(versionOf(record), event);
	const tag = await n8n.control.createTag('acme', 'During the baseline');
	for (let i = 0; i < 3; i++) {
		const contact = take(contacts, 'contact', () => true);
		expect_(
			await n8n.control.updateContact(contact.id, { city: `Baseline ${i}` }),
			'contact.updated',
		);
	}
	for (let i = 0; i < 2; i++) {
		const contact = take(contacts, 'contact', () => true);
		const tags = (contact.tags as Json[] | undefined)?.map((t) => t.id) ?? [];
		expect_(
			await n8n.control.updateContact(contact.id, { tag_ids: [...tags, tag.id] }),
			'contact.updated',
		);
	}
	const tagged = take(contacts, 'tagged contact', (c) => ((c.tags as Json[]) ?? []).length > 0);
	expect_(await n8n.control.updateContact(tagged.id, { tag_ids: [] }), 'contact.updated');
	for (let i = 0; i < 2; i++)
		expect_(
			await n8n.control.createContact('acme', {
				first_name: `Baseline${i}`,
				email: `baseline${i}@example.com`,
			}),
			'contact.created',
		);
	const waiting = (i: Inspection) => i.status === 'waiting' || i.status === 'review';
	const confirmed = (i: Inspection) => i.status === 'confirmed' && i.deleted !== true;
	for (let i = 0; i < 3; i++)
		expect_(
			await n8n.control.confirmInspection(take(inspections, 'waiting inspection', waiting).id),
			'inspection.updated',
		);
	const later = new Date(Date.now() + 11 * 24 * 60 * MINUTE)
		.toISOString()
		.replace(/:\d{2}\.\d{3}Z$/, ':00.000Z');
	for (let i = 0; i < 2; i++)
		expect_(
			await n8n.control.rescheduleInspection(
				take(inspections, 'confirmed inspection', confirmed).id,
				later,
			),
			'inspection.updated',
		);
	for (let i = 0; i < 2; i++)
		expect_(
			await n8n.control.cancelInspection(take(inspections, 'confirmed inspection', confirmed).id),
			'inspection.canceled',
		);
	const unpublished = (i: Inspection) => confirmed(i) && i.reports.status !== 'published';
	expect_(
		await n8n.control.publishReports(take(inspections, 'unpublished inspection', unpublished).id),
		'inspection.updated',
	);
	expect_(
		await n8n.control.deleteInspection(take(inspections, 'confirmed inspection', confirmed).id),
		'inspection.deleted',
	);
	expect_(
		await n8n.control.payInspection(take(inspections, 'inspection', (i) => i.deleted !== true).id),
		'inspection.updated',
	);
	expect_(await n8n.control.createInspection({ org: 'acme' }), 'inspection.created');
	expect_(await n8n.control.createInspection({ org: 'acme' }), 'inspection.created');
	return expected;
}

it(
	'reports once each change made while a baseline of several polls runs, none made before it; each poll ends within its timeout and none starts over',
	async () => {
		// The baseline's order: what it reads in its first poll.
		const contacts = await oldestFirst('/v1/contacts');
		const inspections = (await oldestFirst('/v1/inspections')) as Inspection[];
		// The contacts' baseline reads only the last 91 days (what the trigger may hold), a page or
		// two; the inspections' reads them all, the demo's 1,200 in several polls.
		await waitFor(
			"the baseline's first scheduled poll to commit the first page of the inspections",
			async () => {
				const { phase, top } = await committedList('inspections');
				return (
					(phase === 'baseline' &&
						typeof top === 'number' &&
						top >= Date.parse(inspections.at(-1)!.updated_at)) ||
					undefined
				);
			},
			{ timeoutMs: 3 * MINUTE, intervalMs: 500 },
		);
		const during = await changeEveryKind(contacts, inspections);
		expect(during.size).toBe(20);
		// Made while the baseline runs: the inspections' is still in it.
		expect((await committedList('inspections')).phase).toBe('baseline');

		// Each poll reads one to three pages (0.6 s a page and the trigger's own time, 5 s a poll): on a busy machine,
		// one. So the wait ends when the baseline stops moving for 8 polls, not after a fixed time.
		let lastMove = Date.now();
		let lastSeen = '';
		await waitFor(
			'every watched list to be past its baseline in the committed state',
			async () => {
				const phases = [await committedList('contacts'), await committedList('inspections')];
				const seen = JSON.stringify(phases);
				if (seen !== lastSeen) [lastSeen, lastMove] = [seen, Date.now()];
				return phases.every((list) => list.phase === 'live') || undefined;
			},
			{
				timeoutMs: 15 * MINUTE,
				intervalMs: 1000,
				abort: () =>
					Date.now() - lastMove > 2 * MINUTE
						? `the baseline has not moved for 2 minutes (${lastSeen})`
						: undefined,
			},
		);
		const baselineEnded = Date.now();
		await reports.until(new Map([...during, ...betweenPublishingAndFirstPoll]), 3 * MINUTE);
		await n8n.control.settings({ latency_ms: 0 });
		expect(reports.notOnce(new Map([...during, ...betweenPublishingAndFirstPoll]))).toEqual([]);
		for (const version of madeBefore.keys())
			expect(reports.items.filter((item) => versionOf(item.record as Json) === version)).toEqual(
				[],
			);
		// Nothing else: what existed before the baseline began is not reported.
		const expectedVersions = new Set([...during.keys(), ...betweenPublishingAndFirstPoll.keys()]);
		expect(reports.versions().filter((version) => !expectedVersions.has(version))).toEqual([]);

		const requests = await n8n.triggerRequests();
		const runs = pollRuns(await n8n.tasks(), requests);
		const working = runs.filter((run) => run.pages > 0);
		process.stderr.write(
			`[durable] baseline polls (ms/pages): ${working
				.filter((run) => sqliteTime(run.task.startedAt!) < baselineEnded)
				.map((run) => `${run.ms}/${run.pages}`)
				.join(
					' ',
				)}; ${during.size} changes during it, ${betweenPublishingAndFirstPoll.size} between publishing and the first poll (no state committed then: ${String(noStateAtGap)})\n`,
		);
		// Spread over several polls, each within the 10 s timeout; n8n abandoned none.
		expect(
			working.filter((run) => sqliteTime(run.task.startedAt!) < baselineEnded).length,
		).toBeGreaterThanOrEqual(3);
		expect(Math.max(...runs.map((run) => run.ms))).toBeLessThan(10_000);
		expect(n8n.count(ABANDONED)).toBe(0);
		// Each resource's list was walked from its start at most twice: by the test poll n8n runs at
		// publication (it keeps nothing of it) and by the first scheduled poll. Every later poll went
		// on from the cursor the one before it committed.
		for (const path of ['/v1/contacts', '/v1/inspections'])
			expect(
				requests.filter((entry) => entry.path === path && startsWholeWalk(entry)).length,
			).toBeLessThanOrEqual(2);
		expect(requests.some((entry) => entry.query.cursor !== undefined)).toBe(true);
	},
	25 * MINUTE,
);

it(
	'reports every change once, across polls and in a burst, though n8n starts two polls at every occurrence',
	async () => {
		const skippedBefore = n8n.count(SKIPPED);
		// All contacts but the sentinel (the first by id).
		const contacts = (await api.all<Rec>('/v1/contacts')).slice(1);
		// Inspections the trigger holds (booked now: it lets go of one 90 days past its activity).
		const booked = new Map<string, string>();
		// A version-1 item names the most specific event: a booking confirmed at once is Confirmed.
		const book = async (status: string) => {
			const inspection = (await n8n.control.createInspection({ org: 'acme', status })) as Rec;
			booked.set(
				versionOf(inspection),
				status === 'confirmed' ? 'inspection.confirmed' : 'inspection.created',
			);
			return inspection;
		};
		const waiting = await book('waiting');
		const confirmed = await book('confirmed');
		await reports.until(booked, 3 * MINUTE);

		const first = new Map<string, string>();
		const created = (await n8n.control.createContact('acme', {
			first_name: 'Durable',
			email: 'durable.first@example.com',
		})) as Rec;
		first.set(versionOf(created), 'contact.created');
		for (const contact of contacts.slice(0, 2))
			first.set(
				versionOf((await n8n.control.updateContact(contact.id, { city: 'Aurora' })) as Rec),
				'contact.updated',
			);
		first.set(
			versionOf((await n8n.control.confirmInspection(waiting.id)) as Rec),
			'inspection.confirmed',
		);
		const later = new Date(Date.now() + 9 * 24 * 60 * MINUTE)
			.toISOString()
			.replace(/:\d{2}\.\d{3}Z$/, ':00.000Z');
		first.set(
			versionOf((await n8n.control.rescheduleInspection(confirmed.id, later)) as Rec),
			'inspection.rescheduled',
		);
		await reports.until(first, 3 * MINUTE);

		// A burst: 250 contacts changed at once (two pages of changes), and a new inspection.
		const burst = new Map<string, string>();
		const burstContacts = contacts.slice(2, 252);
		for (let at = 0; at < burstContacts.length; at += 50) {
			const changed = await Promise.all(
				burstContacts
					.slice(at, at + 50)
					.map((contact) => n8n.control.updateContact(contact.id, { notes: 'burst' })),
			);
			for (const contact of changed) burst.set(versionOf(contact as Rec), 'contact.updated');
		}
		burst.set(
			versionOf((await n8n.control.createInspection({ org: 'acme' })) as Rec),
			'inspection.created',
		);
		await reports.until(burst, 3 * MINUTE);

		// A contact changed again, a poll later: its new version is a change of its own.
		const again = new Map([
			[
				versionOf((await n8n.control.updateContact(contacts[0].id, { city: 'Boulder' })) as Rec),
				'contact.updated',
			],
		]);
		await reports.until(again, 3 * MINUTE);

		expect(reports.notOnce(new Map([...booked, ...first, ...burst, ...again]))).toEqual([]);
		// The twin polls did overlap: the trigger skipped one of each pair.
		expect(n8n.count(SKIPPED) - skippedBefore).toBeGreaterThan(0);
		expect(n8n.count(ABANDONED)).toBe(0);
	},
	8 * MINUTE,
);

it(
	'holds its state across a restart: changes made while n8n was down are reported once, and no list is walked from its start again',
	async () => {
		await reports.collect();
		await n8n.stop();
		const contacts = (await api.get<{ data: Rec[] }>('/v1/contacts', { limit: 20 })).data;
		const whileDown = new Map<string, string>();
		for (const contact of contacts.slice(5, 8))
			whileDown.set(
				versionOf((await n8n.control.updateContact(contact.id, { notes: 'while down' })) as Rec),
				'contact.updated',
			);
		await n8n.control.clearRequests();
		await n8n.start(SHORT_POLLS);

		await reports.until(whileDown, 3 * MINUTE);
		expect(reports.notOnce(whileDown)).toEqual([]);
		const requests = await n8n.triggerRequests();
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.filter(startsWholeWalk)).toEqual([]);
	},
	8 * MINUTE,
);

it(
	'loses nothing when n8n abandons polls at their timeout: the change is reported once',
	async () => {
		const [contact] = (await api.get<{ data: Rec[] }>('/v1/contacts', { limit: 30 })).data.slice(
			20,
		);
		const from = n8n.log.length;
		await n8n.stop();
		await n8n.start(ONE_SECOND_POLLS);
		// The next three polls read contacts at once, then wait 2.5 s for inspections: n8n abandons
		// each at 1 s, with the contact's change in hand, and keeps nothing of it.
		await n8n.control.queueFaults(
			...Array.from({ length: 3 }, () => ({
				kind: 'slow' as const,
				delay_ms: 2500,
				method: 'GET',
				path: '/v1/inspections',
			})),
		);
		const changed = (await n8n.control.updateContact(contact.id, { notes: 'abandoned' })) as Rec;
		const expected = new Map([[versionOf(changed), 'contact.updated']]);
		await waitFor(
			'three polls to be abandoned',
			async () => n8n.count(ABANDONED, from) >= 3 || undefined,
			{
				timeoutMs: 3 * MINUTE,
				intervalMs: 1000,
			},
		);
		// A poll the trigger cut short within the 1 s (a slow machine: it stopped before the
		// inspections) is not abandoned and may report the change already; never twice.
		await reports.collect();
		expect(
			reports.items.filter((item) => versionOf(item.record as Json) === versionOf(changed)).length,
		).toBeLessThanOrEqual(1);

		// Then polls n8n lets end: the state it kept reports the change, once in all.
		await n8n.stop();
		await n8n.start(SHORT_POLLS);
		await reports.until(expected, 3 * MINUTE);
		expect(reports.notOnce(expected)).toEqual([]);
		const contactReads = (await n8n.triggerRequests()).filter(
			(entry) =>
				entry.path === '/v1/contacts' && Date.parse(entry.time) >= Date.parse(changed.updated_at),
		);
		// Whether an abandoned poll had read the change depends on its turn order (contacts first, or
		// the slowed inspections first), which the trigger's committed state decides; either way the
		// change is reported once, after the abandoned polls, as checked above.
		process.stderr.write(
			`[durable] abandoned polls: ${n8n.count(ABANDONED, from)}; contact reads since the change: ${contactReads.length}\n`,
		);
		expect(contactReads.length).toBeGreaterThanOrEqual(1);

		// Over the whole file: no version was ever reported twice.
		await reports.collect();
		const versions = reports.versions();
		expect(versions.length - new Set(versions).size).toBe(0);
	},
	6 * MINUTE,
);
