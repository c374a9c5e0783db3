/**
 * The trigger's persisted state and its compact encoding.
 *
 * Per watched resource: the walk mode, the position (largest updated_at
 * processed, never past the server's time), the offset between the server's
 * clock and the local one, a walk the budget cut short, and the
 * fingerprints packed into one string ("key=fields key=fields ..."). One string
 * instead of an object keeps 100k fingerprints cheap to store, to copy and to
 * compare: n8n snapshots and diffs the static data around every poll.
 *
 * Bound: at most `cap` fingerprints per resource (default 100,000), plus one
 * dictionary of the strings their watched values share (tags, roles, agency
 * and inspector ids), rebuilt when mostly unused. Contacts, inspections and
 * inspection events keep one fingerprint per record, because the derived
 * events and `changes` compare against the last one (see KEEPS_EVERY_RECORD);
 * attachments keep only versions inside the overlap window (all the dedupe
 * needs; after a walk of several pages, one overlap more, see `priorFloor`).
 * Over the cap, the least recently updated fingerprints go first, those inside
 * the window last.
 */
import type { IDataObject } from 'n8n-workflow';

import { isUuid } from '../../shared/rules/formats';
import { type Fingerprint, type Resource, RESOURCES } from './events';
import { type Dictionary, packValues, refsIn, unpackValues } from './watch';

const STATE_VERSION = 1;
export const DEFAULT_CAP = 100_000;

/** baseline: record without emitting; existing: emit as existing; live: emit changes. */
export type Mode = 'baseline' | 'existing' | 'live';

/**
 * A walk the poll budget cut short: its updated_since and the cursor of its
 * next page (bound to each other, D2); `top`, the newest updated_at it has
 * processed (for an ascending walk, how far it got); `floor`, the start of the
 * window it belongs to ("created" and "added" are judged against it, and the
 * state keeps versions back to it); and `anchor`, where it stood when first
 * cut: the window after it starts at `anchor - overlap`, to find what became
 * visible behind its cursor meanwhile.
 */
export interface PendingWalk {
	floor: number | null;
	since: number | null;
	cursor: string | null;
	top: number | null;
	anchor: number | null;
}

/**
 * `priorFloor`: a newest-first walk that took more than one page misses a record
 * that changed between its pages (it jumps above the walk, unread). The next
 * window finds it, and judges "added" against this earlier floor, not its own.
 */
interface StoredResource {
	mode: Mode;
	position: number | null;
	/** The server's clock minus the local one, as last stored (see followServerClock in walks.ts). */
	clockOffset?: number;
	walk?: PendingWalk;
	priorFloor?: number | null;
	seen: string;
	/** The strings the watched values refer to by index (see watch.ts). */
	dict?: string[];
}

/** `first`: the resource a poll cut short could not finish; it goes first next time. */
export type StoredState = { version: typeof STATE_VERSION; first?: Resource } & Partial<
	Record<Resource, StoredResource>
>;

/** The decoded, mutable form a poll works on; the stored form is never touched. */
export interface ResourceState {
	mode: Mode;
	position: number | null;
	/** The server's clock minus the local one, as last stored (see followServerClock in walks.ts). */
	clockOffset?: number;
	walk?: PendingWalk;
	priorFloor?: number | null;
	seen: Fingerprints;
}

/** A UUID packs into 22 base64url characters; anything else is escaped behind `~`. */
function packId(id: string): string {
	return isUuid(id)
		? Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url')
		: `~${encodeURIComponent(id)}`;
}

/** Keys are only ever compared, never unpacked. Attachment keys are `inspection/id`. */
export function packKey(key: string): string {
	const slash = key.indexOf('/');
	return slash === -1
		? packId(key)
		: `${packId(key.slice(0, slash))}/${packId(key.slice(slash + 1))}`;
}

/** A packed fingerprint's updated_at, read without unpacking the rest. */
const updatedAtOf = (packed: string) => parseInt(packed, 36);

class StateDictionary implements Dictionary {
	readonly values: string[];
	private readonly index = new Map<string, number>();

	constructor(values: readonly string[] = []) {
		this.values = [...values];
		this.values.forEach((value, i) => this.index.set(value, i));
	}

	indexOf(value: string): number {
		let i = this.index.get(value);
		if (i === undefined) {
			i = this.values.push(value) - 1;
			this.index.set(value, i);
		}
		return i;
	}

	valueAt(index: number): string {
		return this.values[index] ?? '';
	}
}

/** A dictionary this long is checked for values no fingerprint uses any more. */
const DICTIONARY_CHECK_SIZE = 256;

/**
 * One resource's fingerprints, by packed record key. Held packed
 * ("updatedAt.contentHash,slot,slot,..."; numbers in base 36, the slots are the
 * watched values of watch.ts) and unpacked only when asked for, so a poll that
 * touches a few records of 100,000 costs little beyond reading the string.
 */
export class Fingerprints {
	private readonly packed = new Map<string, string>();
	private dict: StateDictionary;

	constructor(
		private readonly resource: Resource,
		text = '',
		dict: readonly string[] = [],
	) {
		this.dict = new StateDictionary(dict);
		if (text === '') return;
		for (const entry of text.split(' ')) {
			const eq = entry.indexOf('=');
			if (eq > 0) this.packed.set(entry.slice(0, eq), entry.slice(eq + 1));
		}
	}

	get size(): number {
		return this.packed.size;
	}

	get(key: string): Fingerprint | undefined {
		const text = this.packed.get(key);
		return text === undefined ? undefined : this.unpack(text);
	}

	set(key: string, fp: Fingerprint): void {
		const version =
			fp.contentHash === undefined
				? fp.updatedAt.toString(36)
				: `${fp.updatedAt.toString(36)}.${fp.contentHash}`;
		const slots = fp.values ? packValues(this.resource, fp.values, this.dict) : [];
		this.packed.set(key, [version, ...slots].join(','));
	}

	delete(key: string): void {
		this.packed.delete(key);
	}

	/** Each key with its updated_at (what pruning and the cap go by). */
	*times(): IterableIterator<[string, number]> {
		for (const [key, text] of this.packed) yield [key, updatedAtOf(text)];
	}

	/** The stored form; a dictionary mostly of values no fingerprint uses any more is rebuilt first. */
	encode(): { seen: string; dict?: string[] } {
		if (this.dict.values.length > DICTIONARY_CHECK_SIZE) this.compact();
		const parts: string[] = [];
		for (const [key, text] of this.packed) parts.push(`${key}=${text}`);
		const dict = this.dict.values;
		return { seen: parts.join(' '), ...(dict.length > 0 ? { dict: [...dict] } : {}) };
	}

	private compact(): void {
		const used = new Set<number>();
		for (const text of this.packed.values())
			for (const i of refsIn(this.resource, text.split(',').slice(1))) used.add(i);
		if (used.size * 2 > this.dict.values.length) return;
		const fingerprints = [...this.packed.keys()].map((key) => [key, this.get(key)!] as const);
		this.dict = new StateDictionary();
		for (const [key, fp] of fingerprints) this.set(key, fp);
	}

	private unpack(text: string): Fingerprint {
		const [version, ...slots] = text.split(',');
		const [updatedAt, contentHash] = version.split('.');
		const values = unpackValues(this.resource, slots, this.dict);
		return {
			updatedAt: parseInt(updatedAt, 36),
			...(contentHash === undefined ? {} : { contentHash }),
			...(values === undefined ? {} : { values }),
		};
	}
}

const isMode = (value: unknown): value is Mode =>
	value === 'baseline' || value === 'existing' || value === 'live';
const isTime = (value: unknown): value is number | null =>
	value === null || typeof value === 'number';

function readWalk(value: unknown): PendingWalk | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const walk = value as IDataObject;
	if (!isTime(walk.floor) || !isTime(walk.since) || !isTime(walk.top) || !isTime(walk.anchor))
		return undefined;
	if (walk.cursor !== null && typeof walk.cursor !== 'string') return undefined;
	return {
		floor: walk.floor,
		since: walk.since,
		cursor: walk.cursor,
		top: walk.top,
		anchor: walk.anchor,
	};
}

/**
 * Reads the static data. Anything unrecognised (another version, a hand edit)
 * counts as no state: the trigger takes a new baseline instead of guessing.
 */
export function decodeState(data: IDataObject): {
	resources: Partial<Record<Resource, ResourceState>>;
	first?: Resource;
} {
	const decoded: Partial<Record<Resource, ResourceState>> = {};
	if (data.version !== STATE_VERSION) return { resources: decoded };
	for (const resource of RESOURCES) {
		const stored = data[resource] as IDataObject | undefined;
		if (
			!stored ||
			!isMode(stored.mode) ||
			!isTime(stored.position) ||
			typeof stored.seen !== 'string'
		)
			continue;
		decoded[resource] = {
			mode: stored.mode,
			position: stored.position,
			...(typeof stored.clockOffset === 'number' ? { clockOffset: stored.clockOffset } : {}),
			walk: readWalk(stored.walk),
			...(isTime(stored.priorFloor) ? { priorFloor: stored.priorFloor } : {}),
			seen: new Fingerprints(
				resource,
				stored.seen,
				Array.isArray(stored.dict) ? stored.dict.map(String) : [],
			),
		};
	}
	const first = RESOURCES.find((resource) => resource === data.first);
	return { resources: decoded, first };
}

export function encodeState(
	states: Partial<Record<Resource, ResourceState>>,
	first?: Resource,
): StoredState {
	const stored: StoredState = { version: STATE_VERSION, ...(first ? { first } : {}) };
	for (const resource of RESOURCES) {
		const state = states[resource];
		if (!state) continue;
		stored[resource] = {
			mode: state.mode,
			position: state.position,
			...(state.clockOffset === undefined ? {} : { clockOffset: state.clockOffset }),
			...(state.walk ? { walk: state.walk } : {}),
			...(state.priorFloor === undefined ? {} : { priorFloor: state.priorFloor }),
			...state.seen.encode(),
		};
	}
	return stored;
}

/** Drops versions older than the next window: the API will not return them again. */
export function pruneBefore(seen: Fingerprints, from: number | null): void {
	if (from === null) return;
	for (const [key, updatedAt] of seen.times()) if (updatedAt < from) seen.delete(key);
}

/**
 * Holds the fingerprints to `cap`: least recently updated first, but versions
 * at or after `keepFrom` (the next window, which the dedupe needs) only when
 * nothing else is left.
 */
export function enforceCap(seen: Fingerprints, cap: number, keepFrom: number | null): void {
	if (seen.size <= cap) return;
	const inWindow = (updatedAt: number) => keepFrom !== null && updatedAt >= keepFrom;
	const byAge = [...seen.times()].sort(
		([, a], [, b]) => Number(inWindow(a)) - Number(inWindow(b)) || a - b,
	);
	for (let i = 0; seen.size > cap; i++) seen.delete(byAge[i][0]);
}
