/**
 * The trigger's state follows activity, not the account (docs/moments.md, what
 * the trigger remembers): what one held record takes, measured on realistic
 * records; an account of a year of history held within 1 MB with every event
 * selected; records let go 90 days past their activity; the total budget,
 * oldest activity first; and the state JSON round-tripped losslessly. Through
 * runPoll with an in-memory list.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_ROWS, type PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import {
	readState,
	REMEMBER_MS,
	type Resource,
	writeState,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';
import {
	type ListRequest,
	type ListSource,
	runPoll,
} from '../../nodes/InspectionBusinessTrigger/poll';
import { uuid } from './fake-api';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The documented figures (docs/polling-trigger.md, state size): per held record. */
const BYTES_PER_INSPECTION = 85;
const BYTES_PER_CONTACT = 80;
const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);

/** Lists sorted by updated_at once, served by offset cursors: enough list semantics for a size measurement. */
class ListedAccount implements ListSource {
	requests = 0;
	private readonly lists: Record<string, IDataObject[]>;

	constructor(lists: Partial<Record<Resource, IDataObject[]>>) {
		const at = (r: IDataObject) => Date.parse(String(r.updated_at));
		this.lists = Object.fromEntries(
			(['contacts', 'inspections', 'events', 'attachments'] as const).map((name) => [
				name,
				[...(lists[name] ?? [])].sort((a, b) => at(a) - at(b)),
			]),
		);
	}

	async fetch({ resource, query, cursor }: ListRequest) {
		this.requests++;
		const all = this.lists[resource];
		const since =
			typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : -Infinity;
		const listed = all.filter((r) => Date.parse(String(r.updated_at)) >= since);
		if (query.sort === '-updated_at' || resource === 'attachments') listed.reverse();
		const start = cursor === null ? 0 : Number(cursor);
		const end = Math.min(start + Number(query.limit), listed.length);
		return {
			records: listed.slice(start, end),
			nextCursor: end < listed.length ? String(end) : null,
			serverTime: NOW,
		};
	}
}

const INSPECTORS = Array.from({ length: 10 }, (_, i) => ({
	id: uuid(5_000_000 + i),
	name: `Inspector ${i}`,
}));
const SERVICES = Array.from({ length: 6 }, (_, i) => ({
	id: uuid(6_000_000 + i),
	name: `Service ${i}`,
}));
const ADD_ONS = Array.from({ length: 8 }, (_, i) => ({
	id: uuid(7_000_000 + i),
	name: `Add-on ${i}`,
}));
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Inspections over `days` up to NOW (and a tenth of them ahead), each changed a
 * day or two after it took place: booked on the half hour, one or two of ten
 * inspectors, one of six services, 0 to 2 add-ons, most paid, signed and published.
 */
function inspections(count: number, days: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => {
		const start = NOW - days * DAY + Math.floor((i / count) * days * 1.1 * 48) * 30 * MINUTE;
		const done = start < NOW - 2 * DAY;
		const quote = 350 + (i % 12) * 25;
		return {
			id: uuid(i + 1),
			status: i % 10 === 0 ? 'canceled' : 'confirmed',
			scheduled_for: iso(start),
			duration_hours: 2 + (i % 3) * 0.5,
			created_at: iso(start - 40 * DAY),
			updated_at: iso(Math.min(NOW - MINUTE, done ? start + DAY : start - 40 * DAY)),
			reports: { status: done ? 'published' : 'pending' },
			price: {
				quote,
				amount_paid: done ? quote : 0,
				amount_due: done ? 0 : quote,
				payment_status: done ? 'paid' : 'unpaid',
				paid: done,
			},
			agreements: { present: true, all_signed: done, items: [] },
			inspectors:
				i % 3 === 0 ? [INSPECTORS[i % 10], INSPECTORS[(i + 3) % 10]] : [INSPECTORS[i % 10]],
			services: [SERVICES[i % 6]],
			add_ons: ADD_ONS.slice(i % 7, (i % 7) + (i % 3)),
		};
	});
}

const ROLES = ['Customer', 'Buyer Agent', 'Listing Agent', 'Lender', 'Attorney'];
const TAGS = Array.from({ length: 40 }, (_, i) => ({ id: uuid(9_000_000 + i), name: `Tag ${i}` }));

/** Contacts created over `days`, a third changed since: a name-based email, 0 to 3 tags, one or two roles, most with an agency. */
const contacts = (count: number, days: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => {
		const created = NOW - days * DAY + Math.floor((i / count) * days * DAY);
		return {
			id: uuid(1_000_000 + i),
			email: `firstname.lastname${i}@brokerage-${i % 300}.com`,
			tags: TAGS.slice(i % 37, (i % 37) + (i % 4)),
			roles: i % 3 === 0 ? [ROLES[i % 5], ROLES[(i + 1) % 5]] : [ROLES[i % 5]],
			agency_id: i % 10 < 7 ? uuid(8_000_000 + (i % 300)) : null,
			created_at: iso(created),
			updated_at: iso(i % 3 === 0 ? created + ((NOW - created) * (i % 7)) / 7 : created),
		};
	});

const settings = (events: readonly PollEvent[], over: object = {}) => ({
	...withDefaults(),
	events,
	budgetMs: Number.MAX_SAFE_INTEGER,
	now: () => NOW,
	...over,
});

/** A baseline of the account, its state's size, and what an idle poll then costs. */
async function baseline(
	lists: Partial<Record<Resource, IDataObject[]>>,
	events: readonly PollEvent[],
	over: object = {},
) {
	const account = new ListedAccount(lists);
	const result = await runPoll({}, account, settings(events, over));
	expect(result.items).toEqual([]);
	const bytes = Buffer.byteLength(JSON.stringify(result.state));
	const { resources, generation } = readState(result.state);
	// Lossless: read and written again, the same state.
	expect(writeState({ resources, generation })).toEqual(result.state);
	account.requests = 0;
	const idle = await runPoll(
		JSON.parse(JSON.stringify(result.state)) as IDataObject,
		account,
		settings(events, over),
	);
	expect(idle.items).toEqual([]);
	expect(idle.state).toEqual(result.state);
	return { bytes, resources, idleRequests: account.requests, baselineState: result.state };
}

const held = (resources: ReturnType<typeof readState>['resources'], resource: Resource) => {
	const records = resources[resource]!.records;
	return [...records.keys()].filter((key) => records.get(key)!.memory !== undefined).length;
};

test(`an inspection held for every moment takes at most ${BYTES_PER_INSPECTION} bytes; a contact ${BYTES_PER_CONTACT}`, async () => {
	const recent = (records: IDataObject[]) =>
		records.map((r, i) => ({ ...r, updated_at: iso(NOW - 30 * DAY + i * MINUTE) }));
	const ofInspections = await baseline(
		{ inspections: recent(inspections(5_000, 60)) },
		ALL_EVENTS.filter((e) => e.startsWith('inspection.')),
	);
	expect(held(ofInspections.resources, 'inspections')).toBe(5_000);
	const ofContacts = await baseline(
		{ contacts: recent(contacts(10_000, 60)) },
		ALL_EVENTS.filter((e) => e.startsWith('contact.')),
	);
	expect(held(ofContacts.resources, 'contacts')).toBe(10_000);
	process.stdout.write(
		`held state: ${(ofInspections.bytes / 5_000).toFixed(1)} bytes an inspection, ${(ofContacts.bytes / 10_000).toFixed(1)} a contact\n`,
	);
	expect(ofInspections.bytes).toBeLessThanOrEqual(5_000 * BYTES_PER_INSPECTION);
	expect(ofContacts.bytes).toBeLessThanOrEqual(10_000 * BYTES_PER_CONTACT);
});

test('an account of a year, 20,000 inspections and 50,000 contacts, every event selected: at most 1 MB, what the last 90 days hold', async () => {
	const all = { inspections: inspections(20_000, 365), contacts: contacts(50_000, 365 * 3) };
	const { bytes, resources, idleRequests } = await baseline(all, ALL_EVENTS);
	const active = (records: IDataObject[], activity: (r: IDataObject) => number) =>
		records.filter((r) => activity(r) > NOW - REMEMBER_MS).length;
	// An inspection's activity: its last change, or its Ended time (its end, to the quarter hour up, and 24 hours).
	const quarter = 15 * MINUTE;
	const endedAt = (r: IDataObject) =>
		Date.parse(String(r.scheduled_for)) +
		Math.ceil((Number(r.duration_hours) * 60 * MINUTE) / quarter) * quarter +
		24 * 60 * MINUTE;
	const inspectionActivity = (r: IDataObject) =>
		Math.max(Date.parse(String(r.updated_at)), endedAt(r));
	expect(held(resources, 'inspections')).toBe(active(all.inspections, inspectionActivity));
	expect(held(resources, 'contacts')).toBe(
		active(all.contacts, (r) => Date.parse(String(r.updated_at))),
	);
	process.stdout.write(
		`a year's account: ${bytes} bytes of state; an idle poll: ${idleRequests} requests\n`,
	);
	expect(bytes).toBeLessThanOrEqual(1024 * 1024);
	// One request per watched resource.
	expect(idleRequests).toBe(4);
});

test('a baseline over several polls holds what a baseline in one poll holds, and never more while it runs: what is past its 90 days is let go as it goes', async () => {
	const all = { inspections: inspections(6_000, 365) };
	const events = ALL_EVENTS.filter((event) => event.startsWith('inspection.'));
	const inOnePoll = readState((await baseline(all, events)).baselineState).resources.inspections!;
	const heldAtEnd = new Set(inOnePoll.records.keys());
	// The poll's own clock moves a second each time it is read: a few pages fit in each poll.
	let clock = NOW;
	const account = new ListedAccount(all);
	let stored: IDataObject = {};
	let polls = 0;
	do {
		const poll = await runPoll(
			stored,
			account,
			settings(events, { budgetMs: 30_000, now: () => (clock += 1_000) }),
		);
		expect(poll.items).toEqual([]);
		stored = poll.state;
		polls++;
		// Mid-baseline, n8n may store it: only records the finished baseline holds too.
		const heldNow = [...readState(stored).resources.inspections!.records.keys()];
		expect(heldNow.filter((key) => !heldAtEnd.has(key))).toEqual([]);
	} while (readState(stored).resources.inspections!.phase !== 'live' && polls < 100);
	const overPolls = readState(stored).resources.inspections!;
	expect(polls).toBeGreaterThan(2);
	expect(overPolls.phase).toBe('live');
	expect([...overPolls.records.keys()].sort()).toEqual([...inOnePoll.records.keys()].sort());
	expect(held({ inspections: overPolls }, 'inspections')).toBe(
		held({ inspections: inOnePoll }, 'inspections'),
	);
});

test('past the budget, the memories with the oldest activity are let go first; the window keeps its versions', async () => {
	const records = inspections(2_000, 60).map((r, i) => ({
		...r,
		updated_at: iso(NOW - 40 * DAY + i * 10 * MINUTE),
	}));
	const budget = 120_000;
	const { resources, bytes } = await baseline({ inspections: records }, ['inspection.paid'], {
		stateBudget: budget,
	});
	expect(bytes).toBeLessThanOrEqual(budget + 2_000);
	const book = resources.inspections!.records;
	const withMemory = [...book.keys()].filter((key) => book.get(key)!.memory !== undefined);
	expect(withMemory.length).toBeGreaterThan(0);
	expect(withMemory.length).toBeLessThan(records.length);
	// Every memory kept is newer than every memory let go.
	const oldestKept = Math.min(...withMemory.map((key) => book.get(key)!.updatedAt));
	const letGo = [...book.keys()].filter((key) => book.get(key)!.memory === undefined);
	for (const key of letGo) expect(book.get(key)!.updatedAt).toBeLessThanOrEqual(oldestKept);
});

test('a resource whose selected events read no memory keeps only the window', async () => {
	const { resources } = await baseline(
		{ inspections: inspections(3_000, 120), contacts: contacts(3_000, 120) },
		['inspection.created', 'inspection.canceled', 'contact.created'],
	);
	expect(held(resources, 'inspections')).toBe(0);
	expect(held(resources, 'contacts')).toBe(0);
	// The versions the next window may list again, not the account.
	expect(resources.inspections!.records.size).toBeLessThan(3_000 / 10);
});
