/**
 * The stored state keeps the keys the first release wrote (mode, position,
 * clockOffset, walk with floor/since/cursor/top/anchor, priorFloor, seen,
 * dict, first), while the code names them by meaning (the table at
 * ResourceState in core/state.ts). A state saved by an earlier version must
 * still be read after an upgrade, and be written back unchanged.
 */
import type { IDataObject } from 'n8n-workflow';

import { readState, writeState } from '../../nodes/InspectionBusinessTrigger/memory';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MINUTE = 60_000;

/** A state as an earlier version stored it, every optional key present. */
const stored = {
	version: 1,
	first: 'attachments',
	contacts: {
		mode: 'live',
		position: T0,
		clockOffset: -1_200,
		walk: {
			floor: T0 - 5 * MINUTE,
			since: T0 - 5 * MINUTE,
			cursor: 'next-page',
			top: T0 - 1_000,
			anchor: T0,
		},
		seen: `c=${T0.toString(36)}.def`,
	},
	attachments: {
		mode: 'existing',
		position: T0 - MINUTE,
		priorFloor: T0 - 10 * MINUTE,
		seen: '',
	},
};

test('a state stored by an earlier version decodes into the named fields', () => {
	const { resources, goesFirst } = readState(stored as IDataObject);
	expect(goesFirst).toBe('attachments');
	const contacts = resources.contacts!;
	expect(contacts.phase).toBe('live');
	expect(contacts.highWaterMark).toBe(T0);
	expect(contacts.serverClockOffset).toBe(-1_200);
	expect(contacts.unfinishedWalk).toEqual({
		windowStart: T0 - 5 * MINUTE,
		updatedSince: T0 - 5 * MINUTE,
		nextPageCursor: 'next-page',
		newestProcessed: T0 - 1_000,
		firstCutAt: T0,
	});
	expect(contacts.inheritedWindowStart).toBeUndefined();
	expect(contacts.fingerprints.get('c')).toEqual({ updatedAt: T0, contentHash: 'def' });
	const attachments = resources.attachments!;
	expect(attachments.phase).toBe('existing');
	expect(attachments.inheritedWindowStart).toBe(T0 - 10 * MINUTE);
	expect(attachments.unfinishedWalk).toBeUndefined();
	expect(attachments.fingerprints.size).toBe(0);
});

test('a decoded state is written back under the same keys, byte for byte', () => {
	const reread = writeState(readState(JSON.parse(JSON.stringify(stored)) as IDataObject));
	expect(JSON.stringify(reread)).toBe(JSON.stringify(stored));
});

test.each<[string, IDataObject]>([
	['a mode no version wrote', { mode: 'paused', position: T0, seen: '' }],
	['a position that is not a time', { mode: 'live', position: '2030-01-01', seen: '' }],
	['no position', { mode: 'live', seen: '' }],
	['no fingerprints', { mode: 'live', position: T0 }],
])('a resource stored with %s counts as no state: a new baseline', (_name, contacts) => {
	expect(readState({ version: 1, contacts }).resources).toEqual({});
});
