/**
 * A state an earlier release stored (test/triggers/fixtures: 0.1.0, 0.2.0 and
 * the release before the moments' contract, each written by that release's own
 * poll over the same account) is read by the one migration step
 * (memory/upgrade.ts): every record keeps its place, an idle poll reports
 * nothing, and the next changes report what that format kept: the full
 * moments where it kept their facts, Updated with `changes` null where it kept
 * only the version (docs/moments.md, a record seen for the first time).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { EVENT_ROWS } from '../../nodes/InspectionBusinessTrigger/catalog';
import {
	type HeldResource,
	readState,
	recordKey,
	type Resource,
} from '../../nodes/InspectionBusinessTrigger/memory';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';
import {
	type ListRequest,
	type ListSource,
	runPoll,
} from '../../nodes/InspectionBusinessTrigger/poll';

export function upgrade(): void {
	interface Sample {
		serverTime: number;
		records: Record<Resource, IDataObject[]>;
		state: IDataObject;
	}
	const sample = (name: string): Sample =>
		JSON.parse(
			readFileSync(path.join(__dirname, 'fixtures', `state-${name}.json`), 'utf8'),
		) as Sample;

	const MINUTE = 60_000;
	const at = (record: IDataObject) => Date.parse(String(record.updated_at ?? record.created_at));

	/** The sample's account: lists by updated_at (attachments newest first), `ids=` lookups. */
	class SampleApi implements ListSource {
		constructor(
			public now: number,
			readonly records: Record<Resource, IDataObject[]>,
		) {}

		async fetch({ resource, query }: ListRequest) {
			const all = this.records[resource];
			let listed = all;
			if (typeof query.ids === 'string') {
				const ids = new Set(query.ids.split(','));
				listed = all.filter((record) => ids.has(String(record.id)));
			} else {
				const since =
					typeof query.updated_since === 'string' ? Date.parse(query.updated_since) : -Infinity;
				listed = all.filter((record) => at(record) >= since).sort((a, b) => at(a) - at(b));
				if (resource === 'attachments' || query.sort === '-updated_at') listed.reverse();
			}
			return { records: structuredClone(listed), nextCursor: null, serverTime: this.now };
		}

		change(resource: Resource, id: string, apply: (record: IDataObject) => void) {
			const record = this.records[resource].find((r) => r.id === id)!;
			apply(record);
			this.now += MINUTE;
			record.updated_at = new Date(this.now).toISOString();
		}
	}

	const ALL_EVENTS = EVENT_ROWS.map((row) => row.value);
	const poll = (api: SampleApi, state: IDataObject) =>
		runPoll(state, api, {
			...withDefaults(),
			events: ALL_EVENTS,
			budgetMs: 60_000,
			now: () => api.now,
		});
	const eventsOf = (items: IDataObject[], id: string) =>
		items
			.filter((item) => (item.record as IDataObject).id === id)
			.map((item) => item.event)
			.sort();

	const A = '3f2a7c10-8b4e-4d21-9c6a-1e5b7d9f0a21'; // confirmed, unpaid, an unsigned agreement
	const DONE = '8c41e5d2-2a7f-4b93-8e10-6d4c2b9a7f33'; // paid, signed, published
	const PART = 'e91b3d57-6f2a-4c08-9d4e-2b8a1c7f6e66'; // 100 paid of 425.50
	const DANA = '1a6f4e2b-9d3c-4e81-b7a5-3c2d1e0f9a01'; // two tags
	const MORGAN = '3c8f6a4d-1f5e-4a03-9d7c-5e4f3a2b1c03'; // 35 tags

	describe.each(['0.1.0', '0.2.0', 'pre-moments'])('a state 0.x stored: %s', (name) => {
		const { serverTime, records, state } = sample(name);

		test('reads into the current format: each held record under the key the trigger gives it now', () => {
			const { resources } = readState(state);
			expect(Object.keys(resources).length).toBeGreaterThanOrEqual(3);
			for (const [resource, resourceState] of Object.entries(resources)) {
				expect(resourceState.phase).toBe('live');
				const known = new Set(
					records[resource as Resource].map((r) => recordKey(resource as HeldResource, r)),
				);
				for (const key of resourceState.records.keys()) expect(known).toContain(key);
			}
		});

		test('an idle poll reports nothing, and writes the current format', async () => {
			const api = new SampleApi(serverTime + MINUTE, structuredClone(records));
			const idle = await poll(api, structuredClone(state));
			expect(idle.items).toEqual([]);
			expect(idle.state.format).toBe(2);
		});

		test('the changes after it report what that format kept', async () => {
			const api = new SampleApi(serverTime + MINUTE, structuredClone(records));
			const upgraded = (await poll(api, structuredClone(state))).state;
			api.change('inspections', A, (r) =>
				Object.assign(r.price as IDataObject, {
					amount_paid: 425,
					amount_due: 0,
					payment_status: 'paid',
					paid: true,
				}),
			);
			api.change('inspections', PART, (r) =>
				Object.assign(r.price as IDataObject, {
					amount_paid: 425.5,
					amount_due: 0,
					payment_status: 'paid',
					paid: true,
				}),
			);
			// Refunded and paid again between two polls: the same version as before, but a new updated_at.
			api.change('inspections', DONE, (r) => (r.notes = 'refund reversed'));
			api.change('contacts', DANA, (r) =>
				(r.tags as IDataObject[]).push({ id: 'new-tag', name: 'VIP' }),
			);
			api.change('contacts', MORGAN, (r) => (r.email = 'morgan@coastalhomes.com'));
			const { items } = await poll(api, JSON.parse(JSON.stringify(upgraded)) as IDataObject);
			const morgan = items.find((item) => (item.record as IDataObject).id === MORGAN)!;
			if (name === 'pre-moments') {
				// Its facts were kept: the payment is Paid, and money received; what happened stays happened.
				expect(eventsOf(items, A)).toEqual([
					'inspection.paid',
					'inspection.payment_received',
					'inspection.updated',
				]);
				expect(
					items.find(
						(i) =>
							i.event === 'inspection.payment_received' && (i.record as IDataObject).id === PART,
					),
				).toMatchObject({ amount_received: 325.5 });
				expect(eventsOf(items, DONE)).toEqual(['inspection.updated']);
			} else {
				// Only the version was kept: updated, nothing it cannot tell.
				expect(eventsOf(items, A)).toEqual(['inspection.updated']);
				expect(items.find((i) => (i.record as IDataObject).id === A)!.changes).toBeNull();
			}
			if (name === '0.1.0') {
				expect(eventsOf(items, DANA)).toEqual(['contact.updated']);
				expect(morgan.changes).toBeNull();
			} else {
				expect(eventsOf(items, DANA)).toEqual(['contact.tag_added', 'contact.updated']);
				// 35 tags, kept cut (or whole, by 0.2.0): only the email changed.
				expect(morgan.changes).toEqual({
					email: { before: 'morgan.lee@coastalhomes.com', after: 'morgan@coastalhomes.com' },
				});
			}
		});
	});

	test('a reminder an earlier release sent is not sent again', async () => {
		const { serverTime, records, state } = sample('pre-moments');
		const api = new SampleApi(serverTime + 10 * MINUTE, structuredClone(records));
		const { items } = await poll(api, structuredClone(state));
		expect(items.filter((item) => item.event === 'inspection.starting')).toEqual([]);
	});
}
