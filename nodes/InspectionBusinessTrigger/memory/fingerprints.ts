/**
 * What the trigger knows of each record version it listed (its key, change
 * time, content hash and watched values: a fingerprint), and one resource's
 * fingerprints in the compact form the state stores: one string
 * ("key=fields key=fields ...") instead of an object keeps 100k fingerprints
 * cheap to store, to copy and to compare, since n8n snapshots and diffs the
 * static data around every poll. The strings the watched values share (tags,
 * roles, agency and inspector ids) go into one dictionary, rebuilt when mostly
 * unused.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIGNED_LINK_FIELDS } from '../../shared/endpoints';
import { apiTime } from '../../shared/inspectionFacts';
import { isUuid } from '../../shared/rules/formats';
import type { Resource } from '../resources';
import { hashText, keptText } from './bounds';
import { type Dictionary, escapeText, unescapeText, type WatchedValues } from './packing';
import { packValues, refsIn, unpackValues, watchedValues } from './watchedFields';

/**
 * What the trigger remembers about a record version: its updated_at (ms,
 * server clock), a hash of its content, so a new version is recognised even
 * when its updated_at is not newer (a clock set back, a restore), and its
 * watched values (watchedFields.ts), which the events and `changes` compare.
 * `contentHash` is undefined only in a state stored before it existed: then
 * updated_at alone decides. `values` is undefined, or lacks a field, in a
 * state stored before the trigger watched it.
 */
export interface Fingerprint {
	updatedAt: number;
	contentHash?: string;
	values?: WatchedValues;
}

/** The identity of a record: attachment ids are unique only within their inspection. */
export function recordKey(resource: Resource, record: IDataObject): string | null {
	const id = record.id;
	if (typeof id !== 'string' && typeof id !== 'number') return null;
	if (resource !== 'attachments') return String(id);
	const inspectionId = record.inspection_id;
	return typeof inspectionId === 'string' ? `${inspectionId}/${String(id)}` : null;
}

/** A record's change time; attachments may lack updated_at, and then created_at stands in. */
export const changeTime = (record: IDataObject): number =>
	apiTime(record.updated_at) ?? apiTime(record.created_at) ?? 0;

/** The record as JSON with its keys sorted at every level, so equal content gives equal text. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as IDataObject)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

const SIGNED_LINKS: ReadonlySet<string> = new Set(SIGNED_LINK_FIELDS);

/**
 * A short hash (32-bit FNV-1a, base 36) of a record version's content. Signed
 * links are left out: they are minted afresh on every read, the record has not
 * changed. 32 bits keep the state small; two versions of one record colliding
 * is a 1 in 4 billion chance per change.
 */
export function contentHashOf(record: IDataObject): string {
	const content = Object.fromEntries(
		Object.entries(record).filter(([field]) => !SIGNED_LINKS.has(field)),
	);
	return hashText(canonicalJson(content));
}

/** Whether a listed record is the version the fingerprint describes (seen before). */
export function sameVersion(seen: Fingerprint, current: Fingerprint): boolean {
	if (seen.contentHash === undefined) return seen.updatedAt >= current.updatedAt;
	return seen.updatedAt === current.updatedAt && seen.contentHash === current.contentHash;
}

/** `previous`: the version seen before, whose kept values carry over (what was reported, roles had). */
export function fingerprintOf(
	resource: Resource,
	record: IDataObject,
	previous?: Fingerprint | null,
): Fingerprint {
	return {
		updatedAt: changeTime(record),
		contentHash: contentHashOf(record),
		values: watchedValues(resource, record, previous?.values),
	};
}

/** The `previous` of an emitted item: what the trigger last saw, in the API's own field names. */
export function publicFingerprint(resource: Resource, fp: Fingerprint): IDataObject {
	const updatedAt = new Date(fp.updatedAt).toISOString();
	if (resource !== 'inspections') return { updated_at: updatedAt };
	const v = fp.values ?? {};
	const scheduled = v.scheduled_for;
	return {
		updated_at: updatedAt,
		status: v.status ?? null,
		scheduled_for: typeof scheduled === 'number' ? new Date(scheduled).toISOString() : null,
		reports_status: v['reports.status'] ?? null,
		deleted: v.deleted ?? false,
	};
}

/**
 * A UUID packs into 22 base64url characters; anything else is escaped behind
 * `~`, and an id longer than the bound is kept as its length and hash.
 */
function packId(id: string): string {
	return isUuid(id)
		? Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url')
		: `~${escapeText(keptText(id))}`;
}

/** Attachment keys are `inspection/id`; only an inspection's key is ever unpacked (unpackId). */
export function packKey(key: string): string {
	const slash = key.indexOf('/');
	return slash === -1
		? packId(key)
		: `${packId(key.slice(0, slash))}/${packId(key.slice(slash + 1))}`;
}

/** The id a packed (non-attachment) key stands for: the inverse of packId. */
export function unpackId(packed: string): string {
	if (packed.startsWith('~')) return unescapeText(packed.slice(1));
	const hex = Buffer.from(packed, 'base64url').toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
