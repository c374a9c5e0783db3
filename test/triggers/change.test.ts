/**
 * The words the trigger's event rules are written in (judge/change.ts), each
 * at its edges: a fact a version does not tell, a time on the window's start,
 * a list known in one version only, a first-seen record created or not (its
 * created_at on the window's start included). Each row is one change and what
 * the rule says of it. The rules' use inside whole polls is in moments.test.ts
 * and poll.*.test.ts.
 */
import { rowOf } from '../../nodes/InspectionBusinessTrigger/catalog';
import {
	addedTo,
	allOf,
	became,
	type Change,
	differs,
	FACTS,
	firstSeen,
	newIn,
	ownTimeInWindow,
	removedFrom,
	rescheduled,
} from '../../nodes/InspectionBusinessTrigger/judge/change';
import { deriveEvents } from '../../nodes/InspectionBusinessTrigger/judge/judgeVersion';
import { fingerprintOf } from '../../nodes/InspectionBusinessTrigger/memory';
import { packFacts } from '../../nodes/InspectionBusinessTrigger/memory/keptFacts';
import type { WatchedValues } from '../../nodes/InspectionBusinessTrigger/memory/packing';

const WINDOW_START = Date.parse('2026-03-01T10:00:00Z');
const tag = (id: string, name = id) => JSON.stringify([id, name]);
const facts = (paid: boolean, signed = false, nothingToSign = false) =>
	packFacts({
		paid,
		signed,
		nothingToSign,
		lengthQuarters: 8,
		reported: 0,
		remindedStarts: [],
	});

const change = (over: Partial<Change>): Change => ({
	now: {},
	before: {},
	created: false,
	record: {},
	from: WINDOW_START,
	...over,
});

describe('facts read from a version', () => {
	test.each<[string, keyof typeof FACTS, WatchedValues, boolean | undefined]>([
		['a status that is there decides', 'confirmed', { status: 'confirmed' }, true],
		['another status', 'confirmed', { status: 'scheduled' }, false],
		['no status kept: unknown', 'confirmed', {}, undefined],
		['canceled', 'canceled', { status: 'canceled' }, true],
		['published reports', 'published', { 'reports.status': 'published' }, true],
		['draft reports', 'published', { 'reports.status': 'draft' }, false],
		['no reports status kept: unknown', 'published', {}, undefined],
		['deleted', 'deleted', { deleted: true }, true],
		['kept facts decide paid', 'paid', { facts: facts(true) }, true],
		[
			'kept facts win over an older payment status',
			'paid',
			{ facts: facts(false), 'price.payment_status': 'paid' },
			false,
		],
		[
			'an older state: the payment status decides',
			'paid',
			{ 'price.payment_status': 'PAID' },
			true,
		],
		['an older state: unpaid', 'paid', { 'price.payment_status': 'due' }, false],
		['neither kept: unknown', 'paid', {}, undefined],
		['signed', 'signed', { facts: facts(false, true) }, true],
		['no kept facts: signing unknown', 'signed', {}, undefined],
		[
			'nothing to sign counts as signed',
			'signedOrNothingToSign',
			{ facts: facts(false, false, true) },
			true,
		],
		['unsigned', 'signedOrNothingToSign', { facts: facts(false) }, false],
		['no kept facts: unknown', 'signedOrNothingToSign', {}, undefined],
	])('%s', (_case, fact, values, expected) => {
		expect(FACTS[fact](values)).toBe(expected);
	});

	test('all of: unknown when one is unknown, else whether every one holds', () => {
		const paidAndSigned = allOf(FACTS.paid, FACTS.signed);
		expect(paidAndSigned({ facts: facts(true, true) })).toBe(true);
		expect(paidAndSigned({ facts: facts(true, false) })).toBe(false);
		expect(allOf(FACTS.paid, FACTS.confirmed)({ facts: facts(true) })).toBeUndefined();
	});
});

describe('a first-seen record: its own time inside the window', () => {
	const at = (time: string | undefined, from: number | null = WINDOW_START) =>
		ownTimeInWindow('paid_at')(change({ before: null, record: { paid_at: time }, from }));

	test.each<[string, string | undefined, number | null, boolean]>([
		['no window: everything is new', 'not a time', null, true],
		['on the window start', '2026-03-01T10:00:00Z', WINDOW_START, true],
		['a millisecond before it', '2026-03-01T09:59:59.999Z', WINDOW_START, false],
		['after it', '2026-03-01T10:00:00.001Z', WINDOW_START, true],
		['no time', undefined, WINDOW_START, false],
	])('%s', (_case, time, from, expected) => {
		expect(at(time, from)).toBe(expected);
	});
});

describe('an appointment first seen: created, or updated', () => {
	const appointment = (created_at: string | undefined, over: Partial<Change>) =>
		change({ before: null, record: { id: 'e-1', created_at }, ...over });
	test.each<[string, Change, 'created' | 'updated']>([
		[
			'created inside the window',
			appointment('2026-03-01T10:05:00Z', { created: true }),
			'created',
		],
		['created before the window', appointment('2026-03-01T09:00:00Z', {}), 'updated'],
		['no created_at: new', appointment(undefined, {}), 'created'],
		['seen before, no created_at', appointment(undefined, { before: {} }), 'updated'],
	])('%s', (_case, seen, expected) => {
		expect(rowOf('inspection_event.created').happened!(seen)).toBe(expected === 'created');
		expect(rowOf('inspection_event.updated').happened!(seen)).toBe(expected === 'updated');
	});
});

describe('a contact first seen: created when created_at is inside the window', () => {
	test.each<[string, string, string | undefined, number | null]>([
		['created on the window start', 'contact.created', '2026-03-01T10:00:00Z', WINDOW_START],
		['a millisecond before it', 'contact.updated', '2026-03-01T09:59:59.999Z', WINDOW_START],
		['no created_at', 'contact.updated', undefined, WINDOW_START],
		['no window: everything is new', 'contact.created', undefined, null],
	])('%s: %s', (_case, event, created_at, from) => {
		const record = { id: 'c-1', email: 'a@x.test', created_at };
		const current = fingerprintOf('contacts', record);
		expect(deriveEvents('contacts', null, record, current, from).events).toEqual([event]);
	});
});

describe('became: holds now, known not to before', () => {
	const confirmedNow = { status: 'confirmed' };
	test.each<[string, Partial<Change>, boolean]>([
		['was not', { now: confirmedNow, before: { status: 'scheduled' } }, true],
		['already was', { now: confirmedNow, before: { status: 'confirmed' } }, false],
		['unknown before', { now: confirmedNow, before: {} }, false],
		['does not hold now', { now: { status: 'scheduled' }, before: { status: 'canceled' } }, false],
		['first seen, created in the window', { now: confirmedNow, before: null, created: true }, true],
		['first seen, older', { now: confirmedNow, before: null, created: false }, false],
	])('%s', (_case, over, expected) => {
		expect(became(FACTS.confirmed)(change(over))).toBe(expected);
	});

	test('a first-seen record counts when its own time says it happened in the window', () => {
		const seen = change({
			now: { status: 'confirmed' },
			before: null,
			record: { at: '2026-03-02T00:00:00Z' },
		});
		expect(became(FACTS.confirmed, ownTimeInWindow('at'))(seen)).toBe(true);
		expect(became(FACTS.confirmed, ownTimeInWindow('other'))(seen)).toBe(false);
	});
});

describe('named lists and text entries', () => {
	const a = tag('a');
	const b = tag('b');
	test.each<[string, Partial<Change>, { added: boolean; removed: boolean }]>([
		[
			'one added',
			{ now: { tags: [a, b] }, before: { tags: [a] } },
			{ added: true, removed: false },
		],
		[
			'one removed',
			{ now: { tags: [a] }, before: { tags: [a, b] } },
			{ added: false, removed: true },
		],
		[
			'renamed only',
			{ now: { tags: [tag('a', 'A')] }, before: { tags: [a] } },
			{ added: false, removed: false },
		],
		['unknown before', { now: { tags: [a] }, before: {} }, { added: false, removed: false }],
		['unknown now', { now: {}, before: { tags: [a] } }, { added: false, removed: false }],
		[
			'created with one',
			{ now: { tags: [a] }, before: null, created: true },
			{ added: true, removed: false },
		],
		[
			'first seen, older',
			{ now: { tags: [a] }, before: null, created: false },
			{ added: false, removed: false },
		],
	])('%s', (_case, over, expected) => {
		const seen = change(over);
		expect({ added: addedTo('tags')(seen), removed: removedFrom('tags')(seen) }).toEqual(expected);
	});

	test.each<[string, Partial<Change>, boolean]>([
		['a new role', { now: { roles: ['agent', 'client'] }, before: { roles: ['client'] } }, true],
		['the same roles', { now: { roles: ['client'] }, before: { roles: ['client'] } }, false],
		['roles unknown before', { now: { roles: ['agent'] }, before: {} }, false],
		['created as an agent', { now: { roles: ['agent'] }, before: null, created: true }, true],
		['first seen, older', { now: { roles: ['agent'] }, before: null }, false],
	])('new role: %s', (_case, over, expected) => {
		expect(newIn('roles')(change(over))).toBe(expected);
	});
});

describe('differs and rescheduled', () => {
	test.each<[string, Partial<Change>, 'ids' | undefined, boolean]>([
		['another value', { now: { email: 'x' }, before: { email: 'y' } }, undefined, true],
		['the same value', { now: { email: 'x' }, before: { email: 'x' } }, undefined, false],
		['unknown before', { now: { email: 'x' }, before: {} }, undefined, false],
		['unknown now', { now: {}, before: { email: 'x' } }, undefined, false],
		['first seen', { now: { email: 'x' }, before: null }, undefined, false],
		['other ids', { now: { tags: [tag('a')] }, before: { tags: [tag('b')] } }, 'ids', true],
		[
			'renamed, same ids',
			{ now: { tags: [tag('a', 'A')] }, before: { tags: [tag('a')] } },
			'ids',
			false,
		],
	])('%s', (_case, over, compare, expected) => {
		const field = over.now && 'tags' in over.now ? 'tags' : 'email';
		expect(differs(field, compare)(change(over))).toBe(expected);
	});

	test.each<[string, Partial<Change>, boolean]>([
		['moved', { now: { scheduled_for: 2 }, before: { scheduled_for: 1 } }, true],
		['the same time', { now: { scheduled_for: 1 }, before: { scheduled_for: 1 } }, false],
		['no time before', { now: { scheduled_for: 1 }, before: {} }, false],
		['no time now', { now: {}, before: { scheduled_for: 1 } }, false],
		['first seen', { now: { scheduled_for: 1 }, before: null }, false],
	])('rescheduled: %s', (_case, over, expected) => {
		expect(rescheduled(change(over))).toBe(expected);
	});

	test('first seen: no version before', () => {
		expect(firstSeen(change({ before: null }))).toBe(true);
		expect(firstSeen(change({ before: {} }))).toBe(false);
	});
});
