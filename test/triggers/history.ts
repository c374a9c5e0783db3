/**
 * Random change histories for the polling trigger's property test: records
 * created and changed (with commit lag), idle time, polls with budget
 * cut-offs, faults in the middle of a walk, changes landing between pages,
 * refused stored cursors, restarts that reload the state from JSON, and
 * clocks: changes dated up to 3 h ahead of the server's clock or a little
 * behind it, and the server's clock jumping within ±90 minutes of real time
 * (so back by up to 3 h), which makes updated_at non-monotonic per record.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Resource } from '../../nodes/InspectionBusinessTrigger/memory';
import { type FakeApi, uuid } from './fake-api';

export const INSPECTION_ACTIONS = [
	'confirm',
	'reschedule',
	'cancel',
	'publish',
	'delete',
	'touch',
] as const;

export interface ChangeOp {
	kind: 'create' | 'change';
	resource: Resource;
	/** Picks an existing record (modulo the count). */
	pick: number;
	action: (typeof INSPECTION_ACTIONS)[number];
	lagMs: number;
	/** How far the change's updated_at is off the server's clock. */
	skewMs: number;
}

export type Step =
	| ({ step: 'mutate' } & ChangeOp)
	| { step: 'advance'; ms: number }
	| { step: 'restart' }
	/** The server's clock is set to real time plus this offset. */
	| { step: 'clock'; offsetMs: number }
	| {
			step: 'poll';
			/** Pages the budget allows, roughly; null: no limit. */
			budgetPages: number | null;
			failAt: number | null;
			during: ChangeOp[];
			duringAfter: number;
			refuseStoredCursors: boolean;
	  };

export interface History {
	pageSize: number;
	emitExisting: boolean;
	initial: ChangeOp[];
	steps: Step[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * Dated behind the server's clock by at most this: with the commit lag it stays
 * inside the overlap. An older date is out of any poller's reach (see "What it
 * can miss" in docs/polling-trigger.md).
 */
const MAX_BEHIND_MS = MINUTE;

const changeOp = (maxLagMs: number): fc.Arbitrary<ChangeOp> =>
	fc.record({
		kind: fc.constantFrom('create', 'change', 'change'),
		resource: fc.constantFrom<Resource>(
			'contacts',
			'inspections',
			'inspections',
			'events',
			'attachments',
		),
		pick: fc.nat(50),
		action: fc.constantFrom(...INSPECTION_ACTIONS),
		lagMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: maxLagMs })),
		skewMs: fc.oneof(
			{ weight: 6, arbitrary: fc.constant(0) },
			{ weight: 1, arbitrary: fc.integer({ min: -MAX_BEHIND_MS, max: 3 * HOUR }) },
		),
	});

export function historyArbitrary(maxLagMs: number): fc.Arbitrary<History> {
	const op = changeOp(maxLagMs);
	const step: fc.Arbitrary<Step> = fc.oneof(
		{ weight: 6, arbitrary: op.map((change) => ({ step: 'mutate' as const, ...change })) },
		{
			weight: 2,
			arbitrary: fc
				.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10 * MINUTE }))
				.map((ms) => ({ step: 'advance' as const, ms })),
		},
		{ weight: 1, arbitrary: fc.constant({ step: 'restart' as const }) },
		{
			weight: 1,
			arbitrary: fc
				.integer({ min: -90 * MINUTE, max: 90 * MINUTE })
				.map((offsetMs) => ({ step: 'clock' as const, offsetMs })),
		},
		{
			weight: 4,
			arbitrary: fc.record({
				step: fc.constant('poll' as const),
				budgetPages: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 4 }),
				failAt: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null, freq: 3 }),
				during: fc.array(op, { maxLength: 3 }),
				duringAfter: fc.integer({ min: 1, max: 5 }),
				refuseStoredCursors: fc.boolean(),
			}),
		},
	);
	return fc.record({
		pageSize: fc.integer({ min: 1, max: 3 }),
		emitExisting: fc.boolean(),
		initial: fc.array(
			op.map((change) => ({ ...change, kind: 'create' as const })),
			{ maxLength: 12, size: 'max' },
		),
		steps: fc.array(step, { minLength: 8, maxLength: 50, size: 'max' }),
	});
}

function inspectionPatch(
	action: ChangeOp['action'],
	previous: IDataObject,
	now: string,
): IDataObject {
	switch (action) {
		case 'confirm':
			return { ...previous, status: 'confirmed' };
		case 'reschedule':
			return { ...previous, scheduled_for: new Date(Date.parse(now) + 86_400_000).toISOString() };
		case 'cancel':
			return { ...previous, status: 'canceled', canceled_at: now };
		case 'publish':
			return { ...previous, reports: { status: 'published' } };
		case 'delete':
			return { ...previous, deleted: true, deleted_at: now };
		case 'touch':
			return { ...previous, notes: `changed at ${now}` };
	}
}

const TAGS = [0, 1, 2].map((i) => ({ id: uuid(900 + i), name: `Tag ${i}` }));

/** Puts one of three tags on the contact, or takes it off. */
function toggleTag(contact: IDataObject, pick: number): IDataObject[] {
	const tags = Array.isArray(contact.tags) ? (contact.tags as IDataObject[]) : [];
	const tag = TAGS[pick % TAGS.length];
	return tags.some((t) => t.id === tag.id) ? tags.filter((t) => t.id !== tag.id) : [...tags, tag];
}

/** Applies one change to the fake API: a new record, or a new version of an existing one. */
export function applyChange(api: FakeApi, op: ChangeOp): void {
	const existing = [...api.records.values()].filter((r) => r.resource === op.resource);
	const inspections = [...api.records.values()].filter((r) => r.resource === 'inspections');
	if (op.kind === 'create' || existing.length === 0) {
		const n = api.nextId();
		if (op.resource === 'contacts') {
			api.change(
				'contacts',
				uuid(n),
				(_p, now) => ({ id: uuid(n), first_name: `C${n}`, email: `c${n}@x.test`, created_at: now }),
				op.lagMs,
				op.skewMs,
			);
		} else if (op.resource === 'inspections') {
			api.change(
				'inspections',
				uuid(n),
				(_p, now) => ({
					id: uuid(n),
					status: op.pick % 2 === 0 ? 'waiting' : 'confirmed',
					scheduled_for:
						op.pick % 3 === 0 ? null : new Date(Date.parse(now) + 3_600_000).toISOString(),
					created_at: now,
					canceled_at: null,
					reports: { status: 'na' },
					deleted: false,
					deleted_at: null,
				}),
				op.lagMs,
				op.skewMs,
			);
		} else if (op.resource === 'events' && inspections.length > 0) {
			const inspectionId = inspections[op.pick % inspections.length].key;
			api.change(
				'events',
				uuid(n),
				(_p, now) => ({
					id: uuid(n),
					inspection_id: inspectionId,
					name: 'Drop-off',
					start_at: new Date(Date.parse(now) + 3_600_000).toISOString(),
					end_at: null,
					inspector_ids: [],
					created_at: now,
				}),
				op.lagMs,
				op.skewMs,
			);
		} else if (op.resource === 'attachments' && inspections.length > 0) {
			const inspectionId = inspections[op.pick % inspections.length].key;
			const id = String(n);
			api.change(
				'attachments',
				`${inspectionId}/${id}`,
				(_p, now) => ({
					id,
					inspection_id: inspectionId,
					kind: 'document',
					created_at: now,
				}),
				op.lagMs,
				op.skewMs,
			);
		}
		return;
	}
	const record = existing[op.pick % existing.length];
	api.change(
		op.resource,
		record.key,
		(previous, now) => {
			const base = previous ?? {};
			if (op.resource === 'inspections') return inspectionPatch(op.action, base, now);
			if (op.resource === 'contacts' && op.pick % 2 === 0)
				return { ...base, tags: toggleTag(base, op.pick) };
			if (op.resource === 'events' && op.pick % 2 === 0)
				return { ...base, start_at: new Date(Date.parse(now) + 7_200_000).toISOString() };
			return { ...base, name: `changed at ${now}` };
		},
		op.lagMs,
		op.skewMs,
	);
}
