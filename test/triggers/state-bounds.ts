/**
 * The trigger's stored state has a bound per record, whatever a record holds:
 * a text, an id or a list entry of any length is kept as its length and a hash,
 * a list of any length as its first entries and one that stands for the rest.
 * A change to such a text or list is still reported.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from '../../nodes/InspectionBusinessTrigger/catalog';
import { runPoll } from '../../nodes/InspectionBusinessTrigger/poll';
import type { ListRequest, ListSource } from '../../nodes/InspectionBusinessTrigger/poll';
import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { uuid } from './fake-api';
import { withDefaults } from '../../nodes/InspectionBusinessTrigger/options';

export function stateBounds(): void {
	/**
	 * The most one hostile record may add to the stored state: a few watched texts
	 * of 200 characters and lists of 32 entries at most (ordinary records take
	 * under 80 bytes).
	 */
	const BOUND_BYTES = 16_000;
	/** Far past every bound (200 characters, 32 entries), yet quick to hash and list. */
	const LONG = 256 * 1024;
	const T0 = Date.parse('2030-01-01T00:00:00.000Z');
	const iso = (ms: number) => new Date(ms).toISOString();

	/** One page per resource, the records as given. */
	class Lists implements ListSource {
		constructor(public lists: Partial<Record<Resource, IDataObject[]>>) {}
		async fetch({ resource }: ListRequest) {
			return { records: this.lists[resource] ?? [], nextCursor: null, serverTime: T0 + 3_600_000 };
		}
	}

	const stamp = (record: IDataObject, at = T0) => ({
		...record,
		created_at: iso(at),
		updated_at: iso(at),
	});

	const HOSTILE: Array<{
		name: string;
		resource: Resource;
		event: PollEvent;
		record: IDataObject;
	}> = [
		{
			name: 'an appointment named with 256 KB of text',
			resource: 'events',
			event: 'inspection_event.updated',
			record: { id: uuid(1), inspection_id: uuid(2), name: 'n'.repeat(LONG) },
		},
		{
			name: 'a contact with 256 KB CJK texts in its email, tag, role and agency',
			resource: 'contacts',
			event: 'contact.updated',
			record: {
				id: uuid(3),
				email: `${'字'.repeat(LONG)}@example.com`,
				tags: [{ id: uuid(4), name: '字'.repeat(LONG) }],
				roles: ['役'.repeat(LONG)],
				agency_id: 'a'.repeat(LONG),
			},
		},
		{
			name: 'an inspection with 5,000 inspectors',
			resource: 'inspections',
			event: 'inspection.updated',
			record: {
				id: uuid(5),
				status: 'confirmed',
				inspectors: Array.from({ length: 5_000 }, (_, i) => ({
					id: uuid(100 + i),
					name: `I ${i}`,
				})),
			},
		},
		{
			name: 'an inspection whose id is 256 KB long',
			resource: 'inspections',
			event: 'inspection.updated',
			record: { id: 'x'.repeat(LONG), status: 'confirmed' },
		},
		{
			name: 'an attachment whose id is 256 KB long',
			resource: 'attachments',
			event: 'attachment.added',
			record: { id: 'y'.repeat(LONG), inspection_id: uuid(6) },
		},
	];

	const stateBytes = (state: IDataObject) => JSON.stringify(state).length;

	describe.each(HOSTILE)('$name', ({ resource, event, record }) => {
		it('adds at most the bound to the stored state, and a change to it is still reported', async () => {
			const ordinary = stamp({ id: uuid(9), inspection_id: uuid(2), status: 'draft' });
			const source = new Lists({ [resource]: [ordinary] });
			const options = {
				...withDefaults(),
				events: [event],
				overlapMs: 300_000,
				emitExisting: false,
				budgetMs: 60_000,
				now: () => T0 + 3_600_000,
			};
			const before = (await runPoll({}, source, options)).state as unknown as IDataObject;
			source.lists[resource] = [ordinary, stamp(record)];
			const after = await runPoll(before, source, options);
			const grown = stateBytes(after.state as unknown as IDataObject) - stateBytes(before);
			expect(grown).toBeLessThan(BOUND_BYTES);

			if (resource === 'attachments') return; // an attachment is only ever added
			const changed = JSON.parse(
				JSON.stringify(record).replace(/(n|字|役|I 1)/, 'z'),
			) as IDataObject;
			source.lists[resource] = [ordinary, stamp(changed, T0 + 60_000)];
			const next = await runPoll(after.state as unknown as IDataObject, source, options);
			expect(next.items.map((item) => item.event)).toEqual([event]);
		});
	});
}
