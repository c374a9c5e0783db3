/**
 * The one migration step: a state written by an earlier release (`version: 1`:
 * 0.1.0, 0.2.0 and the releases up to the moments' contract) read into the
 * current format. Walk positions carry over under their current names; each
 * record's version carries over, and its memory where the earlier state kept
 * every field the current one reads from: 0.1.0 kept no fields and 0.2.0
 * kept no business facts, so those records are held by their version only,
 * and their next change is judged as a record seen for the first time
 * (docs/moments.md). A once-moment counts as having happened when the
 * earlier state reported it or its fact held.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	type AnyMemory,
	heldList,
	type HeldResource,
	type InspectionFact,
	type InspectionMemory,
	type MemoryOf,
	type Named,
	type OnceMoment,
	packId,
	RecordBook,
	type Service,
	serviceId,
	unescapeText,
	unpackId,
} from './records';

const RESOURCES = ['contacts', 'inspections', 'events', 'attachments'] as const;
const MINUTE = 60_000;

/** One earlier entry's slots, as that format read them. */
interface Slots {
	slots: string[];
	dict: string[];
}

const at = ({ slots }: Slots, i: number) => slots[i] ?? '';
const text = (slot: string): string | null =>
	slot === '' ? null : slot === '%' ? '' : unescapeText(slot);
const ref = (s: Slots, i: number): string | null =>
	at(s, i) === '' ? null : (s.dict[parseInt(at(s, i), 36)] ?? '');
const refs = (s: Slots, i: number): string[] =>
	at(s, i) === ''
		? []
		: at(s, i)
				.split('+')
				.map((r) => s.dict[parseInt(r, 36)] ?? '');
/** Times were whole minutes when shorter than 8 digits, else ms. */
function time(slot: string): number | null {
	if (slot === '') return null;
	const digits = slot.startsWith('-') ? slot.slice(1) : slot;
	const value = parseInt(digits, 36) * (digits.length === slot.length ? 1 : -1);
	return digits.length < 8 ? value * MINUTE : value;
}
/** Codes were a decimal index into the known values, `~text`, or (earlier) the text itself. */
function codeOf(codes: readonly string[], slot: string): string | null {
	if (slot === '') return null;
	if (slot.startsWith('~')) return unescapeText(slot.slice(1));
	return /^\d+$/.test(slot) && codes[Number(slot)] !== undefined ? codes[Number(slot)] : text(slot);
}
function email(slot: string, dict: string[]): string | null {
	const i = slot.indexOf('@');
	if (i === -1) return text(slot);
	return `${unescapeText(slot.slice(0, i))}@${dict[parseInt(slot.slice(i + 1), 36)] ?? ''}`;
}

/**
 * An earlier list entry that stood for the rest of a long list: `[n more, hash
 * h]`. Its hash covered whole entries, not ids: the list is kept cut with no
 * hash of its ids (`''`, unknown), so its first change after the upgrade
 * reports nothing it cannot tell.
 */
const STAND_IN = /^\[\d+ more, hash [0-9a-z]+\]$/;
const UNKNOWN_IDS = { complete: false, idsHash: '' };

function namedList(entries: string[]) {
	const named = entries.map((entry) => JSON.parse(entry) as Array<string | null>);
	const cut = named.find(([id]) => STAND_IN.test(String(id)));
	const list = heldList(
		named
			.filter((n) => n !== cut)
			.map(([id, name]): Named => ({ id: String(id), name: name ?? null })),
		(n) => n.id,
	);
	return cut ? { ...list, ...UNKNOWN_IDS } : list;
}

function serviceList(entries: string[]) {
	const parsed = entries.map((entry) => JSON.parse(entry) as Array<string | null>);
	const cut = parsed.find(([, id]) => STAND_IN.test(String(id)));
	const list = heldList(
		parsed
			.filter((p) => p !== cut)
			.map(
				([kind, id, name]): Service => ({
					kind: kind === 'a' ? 'add_on' : 'service',
					id: String(id),
					name: name ?? null,
				}),
			),
		serviceId,
	);
	return cut ? { ...list, ...UNKNOWN_IDS } : list;
}

function textList(entries: string[]) {
	const cut = entries.find((entry) => STAND_IN.test(entry));
	const list = heldList(
		entries.filter((entry) => entry !== cut),
		(t) => t,
	);
	return cut ? { ...list, ...UNKNOWN_IDS } : list;
}

const INSPECTION_STATUSES = ['draft', 'waiting', 'review', 'confirmed', 'canceled'];
const REPORT_STATUSES = ['na', 'pending', 'partial', 'published'];
const PAYMENT_STATUSES = ['paid', 'unpaid', 'partial'];
/** The earlier kept facts' "reported" bits, by moment. */
const REPORTED_BITS: Array<[number, OnceMoment]> = [
	[1, 'paid'],
	[2, 'signed'],
	[4, 'paidAndSigned'],
	[8, 'paidSignedPublished'],
	[16, 'ended'],
];

/** Slots an earlier entry of each resource needs for a memory; fewer: version only. */
const FULL_SLOTS: Record<HeldResource, number> = {
	contacts: 4,
	inspections: 10,
	events: 4,
	attachments: 0,
};

function inspectionMemory(s: Slots): InspectionMemory {
	const [head = 0, reported = 0, ...starts] = at(s, 6)
		.split('+')
		.map((n) => parseInt(n, 36) || 0);
	const facts: InspectionFact[] = [];
	if (at(s, 2) === '1') facts.push('deleted');
	if (head & 1) facts.push('paid');
	if (head & 2) facts.push('signed');
	if (head & 4) facts.push('nothingToSign');
	const quote = ref(s, 9);
	const quoteCents = quote === null || quote === '' ? null : Math.round(Number(quote) * 100);
	const amountDue = at(s, 5) === '' ? null : Math.round(Number(at(s, 5)) * 100);
	if (quoteCents === 0 && (amountDue ?? 0) === 0) facts.push('nothingToPay');
	const status = codeOf(INSPECTION_STATUSES, at(s, 0));
	const reportsStatus = codeOf(REPORT_STATUSES, at(s, 1));
	const published = reportsStatus === 'published' || reportsStatus === 'partial';
	const start = time(at(s, 3));
	const happened = new Set(REPORTED_BITS.filter(([bit]) => reported & bit).map(([, m]) => m));
	// What held counts as having happened (docs/moments.md, Only Trigger Once).
	if (status === 'confirmed') happened.add('confirmed');
	if (published) happened.add('published');
	for (const fact of ['paid', 'signed'] as const) if (facts.includes(fact)) happened.add(fact);
	return {
		status,
		reportsStatus,
		// Not kept before: the reports status says how far publication went.
		publishedReports: 0,
		facts,
		happened: [...happened],
		start,
		lastStart: null,
		lengthQuarters: Math.floor(head / 8),
		remindedStart: starts.length > 0 ? starts[starts.length - 1] * MINUTE : null,
		paymentStatus: codeOf(PAYMENT_STATUSES, at(s, 4)),
		amountDueCents: amountDue,
		// Not kept before: what the quote and the amount due say was paid.
		amountPaidCents:
			quoteCents !== null && amountDue !== null && quoteCents >= amountDue
				? quoteCents - amountDue
				: null,
		quoteCents,
		inspectors: namedList(refs(s, 7)),
		services: serviceList(refs(s, 8)),
	};
}

const MEMORIES: { [R in HeldResource]: (s: Slots) => MemoryOf<R> } = {
	contacts: (s) => ({
		email: email(at(s, 0), s.dict),
		tags: namedList(refs(s, 1)),
		rolesHad: textList(refs(s, 2)),
		agencyId: ref(s, 3),
	}),
	inspections: inspectionMemory,
	events: (s) => ({
		name: text(at(s, 0)),
		startAt: time(at(s, 1)),
		endAt: time(at(s, 2)),
		inspectorIds: textList(refs(s, 3)),
	}),
	attachments: () => ({}),
};

/** An earlier key: ids packed one by one and split at `/`, which only attachments mean. */
function currentKey(resource: HeldResource, key: string): string {
	if (resource === 'attachments' || !key.includes('/') || key.startsWith('!')) return key;
	const id = key.split('/').map(unpackId).join('/');
	return packId(id, false);
}

function upgradeRecords(resource: HeldResource, seen: string, dict: string[]): RecordBook {
	const book = new RecordBook(resource);
	for (const entry of seen === '' ? [] : seen.split(' ')) {
		const eq = entry.indexOf('=');
		if (eq <= 0) continue;
		const [version, ...slots] = entry.slice(eq + 1).split(',');
		const [updatedAt, hash = ''] = version.split('.');
		const held = { updatedAt: parseInt(updatedAt, 36), hash };
		const full = slots.length >= FULL_SLOTS[resource] && FULL_SLOTS[resource] > 0;
		const memory = full ? (MEMORIES[resource]({ slots, dict }) as AnyMemory) : undefined;
		book.set(currentKey(resource, entry.slice(0, eq)), memory ? { ...held, memory } : held);
	}
	return book;
}

const WALK_NAMES: Array<[string, string]> = [
	['floor', 'windowStart'],
	['since', 'updatedSince'],
	['cursor', 'nextPageCursor'],
	['top', 'newestProcessed'],
	['anchor', 'firstCutAt'],
];

function upgradeResource(resource: HeldResource, stored: IDataObject): IDataObject {
	const dict = Array.isArray(stored.dict) ? stored.dict.map(String) : [];
	const records = upgradeRecords(resource, String(stored.seen ?? ''), dict).encode();
	const walk = stored.walk as IDataObject | undefined;
	return {
		phase: stored.mode,
		highWaterMark: stored.position,
		serverClockOffset: stored.clockOffset,
		unfinishedWalk: walk
			? Object.fromEntries(WALK_NAMES.map(([was, is]) => [is, walk[was]]))
			: undefined,
		inheritedWindowStart: stored.priorFloor,
		baselineBegan: stored.began,
		startingFrom: stored.startingFrom,
		endedFrom: stored.endedFrom,
		// Every earlier release kept what the events compared.
		memoryKept: resource !== 'attachments',
		...records,
	};
}

/** The earlier state in the current format, or undefined when it is not one. */
export function upgradeState(data: IDataObject): IDataObject | undefined {
	if (data.version !== 1) return undefined;
	const upgraded: IDataObject = { format: 2, goesFirst: data.first };
	for (const resource of RESOURCES) {
		const stored = data[resource];
		if (
			typeof stored === 'object' &&
			stored !== null &&
			typeof (stored as IDataObject).seen === 'string'
		)
			upgraded[resource] = upgradeResource(resource, stored as IDataObject);
	}
	return upgraded;
}
