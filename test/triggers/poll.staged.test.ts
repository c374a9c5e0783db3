/**
 * The polling trigger under n8n 2.41's cursor staging (StagedPoller: n8n-core's
 * PollTriggerExecutor and PollContext with a durable cursor) against the
 * sandbox: the state is committed only with its poll's emit or cursor commit,
 * an error in the middle of a walk commits nothing and the next poll covers
 * the window again, and a walk the poll budget cuts short resumes where it
 * stopped without skipping or repeating anything.
 */
import type { IDataObject } from 'n8n-workflow';

import { InspectionBusinessTrigger } from '../../nodes/InspectionBusinessTrigger/InspectionBusinessTrigger.node';
import { withSandbox } from '../helpers/n8n';
import { StagedPoller } from './staged-poll';

const sandbox = withSandbox({}, { reset: true });
const trigger = new InspectionBusinessTrigger();

/** Enough 5xx answers to outlast the transport's retries of a GET. */
const failingGets = (path: string) =>
	Array.from({ length: 4 }, () => ({ kind: '500' as const, method: 'GET', path }));

async function listAll(path: string): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const url = new URL(`${sandbox.baseUrl}${path}`);
		url.searchParams.set('limit', '200');
		if (cursor) url.searchParams.set('cursor', cursor);
		const response = await fetch(url, {
			headers: { Authorization: `Bearer ${sandbox.credentials().apiKey}` },
		});
		const page = (await response.json()) as { data: IDataObject[]; next_cursor: string | null };
		records.push(...page.data);
		cursor = page.next_cursor;
	} while (cursor !== null);
	return records;
}

test('an error in the middle of a walk commits nothing, and the next poll covers the same window', async () => {
	const poller = new StagedPoller(
		trigger,
		{ events: ['contact.created', 'inspection.created', 'inspection.updated'], options: {} },
		sandbox.credentials(),
	);

	// The baseline walks all 1,200 inspections; its second page fails after the transport's retries.
	await sandbox.control.queueFaults(
		{ kind: 'slow', delay_ms: 0, method: 'GET', path: '/v1/inspections' },
		...failingGets('/v1/inspections'),
	);
	let tick = await poller.tick();
	expect(tick.error?.message).toMatch(/HTTP 500/);
	expect(tick.items).toBeNull();
	expect(poller.committed).toEqual({});
	expect(poller.commits).toBe(0);

	tick = await poller.tick();
	expect(tick.error).toBeUndefined();
	expect(tick.items).toBeNull(); // the baseline emits nothing…
	expect(poller.commits).toBe(1); // …and is committed through the cursor commit
	const baseline = structuredClone(poller.committed);

	const contact = (await sandbox.control.createContact('acme', {
		first_name: 'Grace',
		email: 'grace@example.com',
	})) as IDataObject;
	const inspection = await sandbox.control.createInspection({ org: 'acme' });

	// Contacts come back, then inspections fail: nothing of the poll is emitted or kept.
	await sandbox.control.queueFaults(...failingGets('/v1/inspections'));
	await sandbox.control.clearRequests();
	tick = await poller.tick();
	expect(tick.error).toBeDefined();
	expect(tick.items).toBeNull();
	expect(poller.committed).toEqual(baseline);
	expect((await sandbox.control.requests({ pathPrefix: '/v1/contacts' })).count).toBe(1);

	tick = await poller.tick();
	expect(tick.error).toBeUndefined();
	expect(
		tick.items?.map((item) => [item.json.event, (item.json.record as IDataObject).id]),
	).toEqual([
		['contact.created', contact.id],
		['inspection.created', inspection.id],
	]);
	expect(poller.commits).toBe(2);

	// An idle poll changes nothing, so there is nothing to commit.
	tick = await poller.tick();
	expect(tick.items).toBeNull();
	expect(poller.commits).toBe(2);
});

test('walks cut short by the poll budget resume where they stopped: every record once, none skipped', async () => {
	const poller = new StagedPoller(
		trigger,
		{ events: ['contact.created', 'attachment.added'], options: { emitExisting: true } },
		sandbox.credentials(),
	);
	const expected = new Set([
		...(await listAll('/v1/contacts')).map((c) => `contact.existing ${String(c.id)}`),
		...(await listAll('/v1/attachments')).map(
			(a) => `attachment.existing ${String(a.inspection_id)}/${String(a.id)}`,
		),
	]);
	expect(expected.size).toBeGreaterThan(1000); // several pages of each

	const seen: string[] = [];
	let ticks = 0;
	let requests = 0;
	while (seen.length < expected.size && ticks < 40) {
		await sandbox.control.clearRequests();
		// A budget this small lets each poll fetch a single page (the first page of a poll always goes).
		const tick = await poller.tick(1);
		expect(tick.error).toBeUndefined();
		requests += (await sandbox.control.requests({ pathPrefix: '/v1/' })).count;
		ticks++;
		for (const item of tick.items ?? []) {
			const record = item.json.record as IDataObject;
			const key =
				item.json.event === 'contact.existing'
					? String(record.id)
					: `${String(record.inspection_id)}/${String(record.id)}`;
			seen.push(`${String(item.json.event)} ${key}`);
		}
	}
	expect(requests).toBe(ticks); // one page per poll
	expect(ticks).toBeGreaterThan(6);
	expect(new Set(seen).size).toBe(seen.length); // nothing twice
	expect(new Set(seen)).toEqual(expected); // nothing skipped

	// Caught up: the next polls finish their walks and emit nothing more.
	for (let i = 0; i < 4; i++) expect((await poller.tick()).items).toBeNull();
});

describe("a poll's time is its budget, waits and slow answers included", () => {
	const BUDGET_MS = 2_000;
	const WAIT_MS = 8_000;

	/** Polls until every contact came out as existing; the ticks' durations and the keys seen. */
	async function pollAll(poller: StagedPoller, expected: number) {
		const seen: string[] = [];
		const durations: number[] = [];
		for (let ticks = 0; seen.length < expected && ticks < 20; ticks++) {
			const started = Date.now();
			const tick = await poller.tick(BUDGET_MS);
			durations.push(Date.now() - started);
			expect(tick.error).toBeUndefined();
			for (const item of tick.items ?? []) seen.push(String((item.json.record as IDataObject).id));
		}
		return { seen, durations };
	}

	it.each([
		['a 429 whose Retry-After outlasts the budget', { kind: '429' as const, retry_after: 8 }],
		['an answer slower than the budget', { kind: 'slow' as const, delay_ms: WAIT_MS }],
	])(
		'%s: the poll returns on time with the pages it has, and the next polls go on from there',
		async (_, fault) => {
			const poller = new StagedPoller(
				trigger,
				{ events: ['contact.created'], options: { emitExisting: true } },
				sandbox.credentials(),
			);
			const contacts = (await listAll('/v1/contacts')).map((c) => String(c.id));
			// The first page answers; the second waits.
			await sandbox.control.queueFaults(
				{ kind: 'slow', delay_ms: 0, method: 'GET', path: '/v1/contacts' },
				{ ...fault, method: 'GET', path: '/v1/contacts' },
			);
			const started = Date.now();
			const first = await poller.tick(BUDGET_MS);
			expect(Date.now() - started).toBeLessThan(WAIT_MS - 2_000);
			expect(first.error).toBeUndefined();
			expect(first.items).toHaveLength(200);
			expect(poller.commits).toBe(1);

			const rest = await pollAll(poller, contacts.length - 200);
			const seen = [
				...(first.items ?? []).map((item) => String((item.json.record as IDataObject).id)),
				...rest.seen,
			];
			expect(new Set(seen).size).toBe(seen.length);
			expect(new Set(seen)).toEqual(new Set(contacts));
			// No poll outlasted its budget by more than the time it takes to wrap up.
			expect(Math.max(...rest.durations)).toBeLessThan(WAIT_MS - 2_000);
		},
	);
});

test('one page a poll still ends the baseline and reports what changes after it', async () => {
	const poller = new StagedPoller(
		trigger,
		{ events: ['contact.created', 'contact.updated'], options: {} },
		sandbox.credentials(),
	);
	// 520 contacts are 3 pages: the baseline and the window after it take a few polls of one page.
	for (let i = 0; i < 8; i++) expect((await poller.tick(1)).items).toBeNull();
	const [contact] = await listAll('/v1/contacts');
	const changed = (await sandbox.control.updateContact(String(contact.id), {
		notes: 'after the baseline',
	})) as IDataObject;
	const reported: unknown[] = [];
	for (let i = 0; i < 4 && reported.length === 0; i++) {
		const tick = await poller.tick(1);
		expect(tick.error).toBeUndefined();
		reported.push(
			...(tick.items ?? []).map((item) => [
				item.json.event,
				(item.json.record as IDataObject).updated_at,
			]),
		);
	}
	expect(reported).toEqual([['contact.updated', changed.updated_at]]);
});
