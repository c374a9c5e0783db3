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
 * Bound: at most `cap` fingerprints per resource (default 100,000). Contacts
 * and attachments keep only versions inside the overlap window (all the
 * dedupe needs; after an attachments walk of several pages, one overlap more,
 * see `priorFloor`); inspections keep one fingerprint per inspection, because the
 * derived events compare against the last one. Over the cap, the least
 * recently updated fingerprints go first, those inside the window last.
 */
import type { IDataObject } from 'n8n-workflow';

import { INSPECTION_STATUSES, REPORT_STATUSES } from '../../shared/endpoints';
import { isUuid } from '../../shared/rules/formats';
import { type Fingerprint, type Resource, RESOURCES } from './events';

/** Fingerprint codes: a known status packs into its index, anything else into its text. */
const STATUS_CODES: readonly string[] = INSPECTION_STATUSES;
const REPORT_CODES: readonly string[] = REPORT_STATUSES;

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
	seen: Map<string, Fingerprint>;
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

const packCode = (value: string | undefined, codes: readonly string[]) => {
	const index = codes.indexOf(value ?? '');
	return index === -1 ? `~${encodeURIComponent(value ?? '')}` : String(index);
};
const unpackCode = (text: string, codes: readonly string[]) =>
	text.startsWith('~') ? decodeURIComponent(text.slice(1)) : (codes[Number(text)] ?? '');

/** `updatedAt.contentHash[,status,reports,deleted,scheduledFor]`, numbers in base 36. */
function packFingerprint(fp: Fingerprint): string {
	const version =
		fp.contentHash === undefined
			? fp.updatedAt.toString(36)
			: `${fp.updatedAt.toString(36)}.${fp.contentHash}`;
	if (fp.status === undefined) return version;
	const scheduled = fp.scheduledFor == null ? '' : fp.scheduledFor.toString(36);
	return `${version},${packCode(fp.status, STATUS_CODES)},${packCode(fp.reports, REPORT_CODES)},${fp.deleted ? 1 : 0},${scheduled}`;
}

function unpackFingerprint(text: string): Fingerprint {
	const [version, status, reports, deleted, scheduled] = text.split(',');
	const [updatedAt, contentHash] = version.split('.');
	const time = {
		updatedAt: parseInt(updatedAt, 36),
		...(contentHash === undefined ? {} : { contentHash }),
	};
	if (status === undefined) return time;
	return {
		...time,
		status: unpackCode(status, STATUS_CODES),
		reports: unpackCode(reports ?? '', REPORT_CODES),
		deleted: deleted === '1',
		scheduledFor: scheduled ? parseInt(scheduled, 36) : null,
	};
}

function packSeen(seen: Map<string, Fingerprint>): string {
	const parts: string[] = [];
	for (const [key, fp] of seen) parts.push(`${key}=${packFingerprint(fp)}`);
	return parts.join(' ');
}

function unpackSeen(text: string): Map<string, Fingerprint> {
	const seen = new Map<string, Fingerprint>();
	if (text === '') return seen;
	for (const entry of text.split(' ')) {
		const eq = entry.indexOf('=');
		if (eq > 0) seen.set(entry.slice(0, eq), unpackFingerprint(entry.slice(eq + 1)));
	}
	return seen;
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
			seen: unpackSeen(stored.seen),
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
			seen: packSeen(state.seen),
		};
	}
	return stored;
}

/** Drops versions older than the next window: the API will not return them again. */
export function pruneBefore(seen: Map<string, Fingerprint>, from: number | null): void {
	if (from === null) return;
	for (const [key, fp] of seen) if (fp.updatedAt < from) seen.delete(key);
}

/**
 * Holds the map to `cap` entries: least recently updated first, but versions at
 * or after `keepFrom` (the next window, which the dedupe needs) only when
 * nothing else is left.
 */
export function enforceCap(
	seen: Map<string, Fingerprint>,
	cap: number,
	keepFrom: number | null,
): void {
	if (seen.size <= cap) return;
	const inWindow = (fp: Fingerprint) => keepFrom !== null && fp.updatedAt >= keepFrom;
	const byAge = [...seen].sort(
		([, a], [, b]) => Number(inWindow(a)) - Number(inWindow(b)) || a.updatedAt - b.updatedAt,
	);
	for (let i = 0; seen.size > cap; i++) seen.delete(byAge[i][0]);
}
