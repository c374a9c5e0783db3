/**
 * The trigger's state stays bounded: measured for an account of 100,000
 * inspections and 100,000 contacts (through runPoll, with an in-memory list),
 * held to the cap with the least recently updated evicted first, and losslessly
 * JSON round-tripped.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	runPoll,
	type ListRequest,
	type ListSource,
} from '../../nodes/InspectionBusinessTrigger/core/poll';
import {
	DEFAULT_CAP,
	decodeState,
	encodeState,
} from '../../nodes/InspectionBusinessTrigger/core/state';
import { uuid } from './fake-api';

const MINUTE = 60_000;
/**
 * The documented bound: at most 60 bytes of static data per tracked inspection
 * (measured 53.5; it was 50 before each fingerprint gained its content hash,
 * about 7 bytes, so a new version dated before the one seen is recognised).
 */
const BYTES_PER_INSPECTION = 60;
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
		deleted: i % 50 === 0,
	}));
}

const contacts = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		id: uuid(1_000_000 + i),
		created_at: new Date(START + i * 1000).toISOString(),
		updated_at: new Date(START + i * 1000).toISOString(),
	}));

const options = {
	events: ['inspection.confirmed', 'contact.updated'] as const,
	overlapMs: 5 * MINUTE,
	emitExisting: false,
	budgetMs: Number.MAX_SAFE_INTEGER,
	now: () => 0,
};

test('the state of a 100,000-inspection, 100,000-contact account stays within 60 bytes per inspection', async () => {
	const account = new ListedAccount({
		inspections: inspections(100_000),
		contacts: contacts(100_000),
		attachments: [],
	});
	const started = performance.now();
	const result = await runPoll({}, account, options);
	const pollMs = performance.now() - started;
	const bytes = Buffer.byteLength(JSON.stringify(result.state));

	expect(result.items).toEqual([]);
	expect(account.requests).toBe(500 + 2); // the full inspections walk, and the contacts' newest 301 (two pages)
	const { resources } = decodeState(result.state);
	expect(resources.inspections?.seen.size).toBe(100_000);
	// Contacts keep only what the overlap window holds: 5 minutes at one change a second.
	expect(resources.contacts?.seen.size).toBe(301);
	expect(bytes).toBeLessThanOrEqual(100_000 * BYTES_PER_INSPECTION);
	process.stdout.write(
		`trigger state for 100k inspections + 100k contacts: ${bytes} bytes (${(bytes / 100_000).toFixed(1)} per inspection), baseline poll ${pollMs.toFixed(0)} ms\n`,
	);

	// Lossless: decoding and encoding again gives the same stored state, and an idle poll keeps it.
	expect(encodeState(resources, undefined)).toEqual(result.state);
	account.requests = 0;
	const idle = await runPoll(
		JSON.parse(JSON.stringify(result.state)) as IDataObject,
		account,
		options,
	);
	expect(idle.items).toEqual([]);
	// One change a second puts 301 versions in each 5-minute overlap: two pages per resource.
	expect(account.requests).toBe(4);
	expect(idle.state).toEqual(result.state);
});

test('past the cap the least recently updated fingerprints are evicted first', async () => {
	const all = inspections(DEFAULT_CAP + 10);
	const account = new ListedAccount({ inspections: all, contacts: [], attachments: [] });
	const result = await runPoll({}, account, { ...options, events: ['inspection.confirmed'] });
	const seen = decodeState(result.state).resources.inspections?.seen;
	expect(seen?.size).toBe(DEFAULT_CAP);
	const oldest = Math.min(...[...(seen?.values() ?? [])].map((fp) => fp.updatedAt));
	expect(oldest).toBe(Date.parse(String(all[10].updated_at)));
});

test('a small cap holds too, and what is evicted is only older than the window', async () => {
	const all = inspections(50);
	const account = new ListedAccount({ inspections: all, contacts: [], attachments: [] });
	const result = await runPoll({}, account, {
		...options,
		events: ['inspection.confirmed'],
		cap: 20,
	});
	const seen = decodeState(result.state).resources.inspections?.seen;
	expect(seen?.size).toBe(20);
	const kept = [...(seen?.values() ?? [])].map((fp) => fp.updatedAt).sort((a, b) => a - b);
	expect(kept[0]).toBe(Date.parse(String(all[30].updated_at)));
});
