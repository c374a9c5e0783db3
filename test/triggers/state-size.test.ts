/**
 * The trigger's state stays bounded: measured for an account of 100,000
 * inspections and one of 50,000 contacts (through runPoll, with an in-memory
 * list), held to the cap with the least recently updated evicted first, and
 * losslessly JSON round-tripped.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import {
	DEFAULT_CAP,
	readState,
	writeState,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import type { ListRequest, ListSource } from '../../nodes/InspectionBusinessTrigger/poll';
import { uuid } from './fake-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

/** The node's defaults, one item per change (version 1's shape, which these tests read). */
const PER_CHANGE = withDefaults({ oneItemPerMoment: false });

const MINUTE = 60_000;
/**
 * The documented bounds (docs/polling-trigger.md, "State"): at most 70 bytes of
 * static data per tracked inspection (its watched status, reports status,
 * deleted, schedule, payment status, amount due, the moments' facts, inspectors,
 * services and add-ons and quote, besides updated_at, content hash and id) and 80 per contact (email, tags, roles and agency; measured 76 with 40-character emails).
 */
const BYTES_PER_INSPECTION = 70;
const BYTES_PER_CONTACT = 80;
const START = Date.parse('2029-01-01T00:00:00.000Z');
const STATUSES = ['draft', 'waiting', 'review', 'confirmed', 'canceled'];

/** Lists sorted by updated_at once, served by offset cursors: enough list semantics for a size measurement. */
class ListedAccount implements ListSource {
	requests = 0;
	private readonly times: Record<string, number[]>;

	constructor(private readonly lists: Record<string, IDataObject[]>) {
		this.times = Object.fromEntries(
			Object.entries(lists).map(([name, list]) => [
				name,
				list.map((r) => Date.parse(String(r.updated_at))),
			]),
		);
	}

	async fetch({ resource, query, cursor }: ListRequest) {
		this.requests++;
		const times = this.times[resource];
		const since =
			typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : -Infinity;
		let first = 0;
		while (first < times.length && times[first] < since) first += 1;
		const descending = query.sort === '-updated_at' || resource === 'attachments';
		const count = times.length - first;
		const start = cursor === null ? 0 : Number(cursor);
		const end = Math.min(start + Number(query.limit), count);
		const list = this.lists[resource];
		const records = [];
		for (let i = start; i < end; i++)
			records.push(list[descending ? times.length - 1 - i : first + i]);
		return { records, nextCursor: end < count ? String(end) : null };
	}
}

function inspections(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		id: uuid(i + 1),
		status: STATUSES[i % STATUSES.length],
		scheduled_for: i % 7 === 0 ? null : new Date(START + 86_400_000 + i * 1000).toISOString(),
		created_at: new Date(START + i * 1000).toISOString(),
		updated_at: new Date(START + i * 1000).toISOString(),
		reports: { status: i % 3 === 0 ? 'published' : 'pending' },
		price: {
			payment_status: i % 4 === 0 ? 'paid' : 'unpaid',
			amount_due: i % 4 === 0 ? 0 : 375 + (i % 9) * 25,
		},
		deleted: i % 50 === 0,
	}));
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
const PAYMENT_STATUSES = ['paid', 'partial', 'unpaid', 'unpaid'];

/**
 * Inspections with every field the business moments keep: booked on the half
 * hour, one or two of ten inspectors, one of six services, 0 to 2 of eight
 * add-ons, a quote from a price list, agreements signed or not.
 */
const realisticInspections = (count: number): IDataObject[] =>
	inspections(count).map((record, i) => ({
		...record,
		scheduled_for: new Date(START + 86_400_000 + Math.floor(i / 3) * 1_800_000).toISOString(),
		duration_hours: 2 + (i % 3) * 0.5,
		price: {
			payment_status: PAYMENT_STATUSES[i % 4],
			paid: i % 4 === 0,
			amount_due: i % 4 === 0 ? 0 : 375 + (i % 9) * 25,
			quote: 350 + (i % 12) * 25,
		},
		agreements: { present: true, all_signed: i % 2 === 0, items: [] },
		inspectors: i % 3 === 0 ? [INSPECTORS[i % 10], INSPECTORS[(i + 3) % 10]] : [INSPECTORS[i % 10]],
		services: [SERVICES[i % 6]],
		add_ons: ADD_ONS.slice(i % 7, (i % 7) + (i % 3)),
	}));

const ROLES = ['Customer', 'Buyer Agent', 'Listing Agent', 'Lender', 'Attorney'];
const TAGS = Array.from({ length: 40 }, (_, i) => ({ id: uuid(9_000_000 + i), name: `Tag ${i}` }));

/** Realistic contacts: a name-based email, 0 to 3 of 40 tags, one or two roles, most linked to one of 300 agencies. */
const contacts = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		id: uuid(1_000_000 + i),
		email: `firstname.lastname${i}@brokerage-${i % 300}.com`,
		tags: TAGS.slice(i % 37, (i % 37) + (i % 4)),
		roles: i % 3 === 0 ? [ROLES[i % 5], ROLES[(i + 1) % 5]] : [ROLES[i % 5]],
		agency_id: i % 10 < 7 ? uuid(8_000_000 + (i % 300)) : null,
		created_at: new Date(START + i * 1000).toISOString(),
		updated_at: new Date(START + i * 1000).toISOString(),
	}));

const options = {
	events: ['inspection.confirmed'] as const,
	overlapMs: 5 * MINUTE,
	emitExisting: false,
	budgetMs: Number.MAX_SAFE_INTEGER,
	now: () => 0,
};

/** A baseline of `records`, its size, then an idle poll that costs one request and leaves the state as it was. */
async function measure(
	resource: 'inspections' | 'contacts',
	records: IDataObject[],
	chosen?: PollEvent[],
) {
	const account = new ListedAccount({
		inspections: [],
		contacts: [],
		attachments: [],
		[resource]: records,
	});
	const events =
		chosen ??
		(resource === 'inspections'
			? ['inspection.confirmed' as const]
			: ['contact.tag_added' as const]);
	const started = performance.now();
	const result = await runPoll({}, account, {
			...PER_CHANGE, ...options, events });
	const pollMs = performance.now() - started;
	const bytes = Buffer.byteLength(JSON.stringify(result.state));
	expect(result.items).toEqual([]);
	// A baseline walks the whole list: every record keeps its fingerprint.
	expect(account.requests).toBe(Math.ceil(records.length / 200));
	const { resources } = readState(result.state);
	expect(resources[resource]?.fingerprints.size).toBe(records.length);
	process.stdout.write(
		`trigger state for ${records.length} ${resource}: ${bytes} bytes (${(bytes / records.length).toFixed(1)} per record), baseline poll ${pollMs.toFixed(0)} ms\n`,
	);

	// Lossless: decoding and encoding again gives the same stored state, and an idle poll keeps it.
	expect(writeState({ resources })).toEqual(result.state);
	account.requests = 0;
	const idleStarted = performance.now();
	const idle = await runPoll(JSON.parse(JSON.stringify(result.state)) as IDataObject, account, {
		...options,
		events,
	});
	process.stdout.write(
		`idle poll over that state: ${(performance.now() - idleStarted).toFixed(0)} ms\n`,
	);
	expect(idle.items).toEqual([]);
	// One change a second puts 301 versions in the 5-minute overlap: two pages.
	expect(account.requests).toBe(2);
	expect(idle.state).toEqual(result.state);
	return bytes;
}

test('the state of a 100,000-inspection account stays within 70 bytes per inspection', async () => {
	const bytes = await measure('inspections', inspections(100_000));
	expect(bytes).toBeLessThanOrEqual(100_000 * BYTES_PER_INSPECTION);
});

test('the state of 20,000 realistic inspections, watched for every business moment, stays within 70 bytes each', async () => {
	const bytes = await measure('inspections', realisticInspections(20_000), [
		'inspection.paid_signed_published',
		'inspection.inspector_assigned',
		'inspection.fees_changed',
	]);
	expect(bytes).toBeLessThanOrEqual(20_000 * BYTES_PER_INSPECTION);
});

test('the state of a 50,000-contact account stays within 80 bytes per contact', async () => {
	const all = contacts(50_000);
	const bytes = await measure('contacts', all);
	expect(bytes).toBeLessThanOrEqual(50_000 * BYTES_PER_CONTACT);
	// The shared strings are stored once: 40 tags, 5 roles, 300 agencies.
	const { resources } = readState(
		(
			await runPoll({}, new ListedAccount({ contacts: all, inspections: [], attachments: [] }), {
				...options,
				events: ['contact.updated'],
			})
		).state,
	);
	const last = resources.contacts?.fingerprints.get(
		[...(resources.contacts?.fingerprints.times() ?? [])].at(-1)![0],
	);
	expect(last?.values).toEqual({
		email: String(all.at(-1)!.email),
		tags: (all.at(-1)!.tags as IDataObject[]).map((t) => JSON.stringify([t.id, t.name])).sort(),
		roles: [...(all.at(-1)!.roles as string[])].sort(),
		agency_id: all.at(-1)!.agency_id,
	});
});

test('past the cap the least recently updated fingerprints are evicted first', async () => {
	const all = inspections(DEFAULT_CAP + 10);
	const account = new ListedAccount({ inspections: all, contacts: [], attachments: [] });
	const result = await runPoll({}, account, {
			...PER_CHANGE, ...options, events: ['inspection.confirmed'] });
	const seen = readState(result.state).resources.inspections?.fingerprints;
	expect(seen?.size).toBe(DEFAULT_CAP);
	const oldest = Math.min(...[...(seen?.times() ?? [])].map(([, updatedAt]) => updatedAt));
	expect(oldest).toBe(Date.parse(String(all[10].updated_at)));
});

test('a small cap holds too, and what is evicted is only older than the window', async () => {
	const all = inspections(50);
	const account = new ListedAccount({ inspections: all, contacts: [], attachments: [] });
	const result = await runPoll({}, account, {
			...PER_CHANGE,
		...options,
		events: ['inspection.confirmed'],
		cap: 20,
	});
	const seen = readState(result.state).resources.inspections?.fingerprints;
	expect(seen?.size).toBe(20);
	const kept = [...(seen?.times() ?? [])].map(([, updatedAt]) => updatedAt).sort((a, b) => a - b);
	expect(kept[0]).toBe(Date.parse(String(all[30].updated_at)));
});
