/**
 * What the trigger knows of one listed record version: its key, its change
 * time, a hash of its content and its fingerprint (what the state keeps of it).
 * Pure: no n8n, no HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIGNED_LINK_FIELDS } from '../../shared/endpoints';
import { apiTime } from '../../shared/inspectionFacts';
import type { Resource } from '../resources';
import { hashText } from './bounds';
import type { WatchedValues } from './packing';
import { watchedValues } from './watchedFields';

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
