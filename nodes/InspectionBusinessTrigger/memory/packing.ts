/**
 * How one watched value packs into a slot of a stored fingerprint, and back
 * (the slots are joined in fingerprints.ts).
 * A slot never holds a comma or a space (they separate slots and entries).
 * Every slot a state written by an earlier version holds still reads the same:
 * a format only ever gains forms that no earlier slot can have.
 */
import { LONE_SURROGATE } from '../../shared/rules/formats';

/**
 * `code` is an index into known values (other text is kept behind `~`; null is
 * an empty slot); `ref`/`refs` index the resource's dictionary (tags, roles,
 * agencies and inspectors repeat across records, so each is stored once);
 * `email` keeps its domain there too; `time` is a moment in ms; `counts` is a
 * list of whole numbers (an inspection's kept facts, memory/keptFacts.ts).
 */
export type Codec =
	| { kind: 'text' | 'email' | 'number' | 'bool' | 'time' | 'counts' | 'ref' | 'refs' }
	| { kind: 'code'; codes: readonly string[] };

/** A watched value as the trigger holds it: times in ms, lists sorted, codes as text. */
export type WatchedValue = string | number | boolean | null | string[] | number[];
export type WatchedValues = Partial<Record<string, WatchedValue>>;

/** The strings a resource's dictionary maps to small numbers, and back. */
export interface Dictionary {
	indexOf(value: string): number;
	valueAt(index: number): string;
}

export const NULL_SLOT = '';
/** encodeURIComponent never yields a lone `%`: it marks the empty string, as `''` marks null. */
const EMPTY_TEXT = '%';

/** How a lone surrogate is escaped; `%u` never comes out of encodeURIComponent (u is not a hex digit). */
const SURROGATE_ESCAPE = /%u([0-9A-F]{4})/g;

/**
 * encodeURIComponent, which throws on a lone surrogate: such text is valid in
 * JSON and in a JavaScript string, so a record may carry it. Each one is kept
 * as `%uXXXX`, so the text comes back exactly.
 */
export function escapeText(text: string): string {
	let out = '';
	let at = 0;
	for (const match of text.matchAll(LONE_SURROGATE)) {
		out += encodeURIComponent(text.slice(at, match.index));
		out += `%u${match[0].charCodeAt(0).toString(16).toUpperCase()}`;
		at = match.index! + 1;
	}
	return out + encodeURIComponent(text.slice(at));
}

/** The inverse of escapeText (and of encodeURIComponent, which stored states before it used). */
export function unescapeText(slot: string): string {
	let out = '';
	let at = 0;
	for (const match of slot.matchAll(SURROGATE_ESCAPE)) {
		out += decodeURIComponent(slot.slice(at, match.index));
		out += String.fromCharCode(parseInt(match[1], 16));
		at = match.index! + match[0].length;
	}
	return out + decodeURIComponent(slot.slice(at));
}

const packText = (value: WatchedValue) =>
	value === null ? NULL_SLOT : value === '' ? EMPTY_TEXT : escapeText(String(value));
const unpackText = (slot: string) =>
	slot === NULL_SLOT ? null : slot === EMPTY_TEXT ? '' : unescapeText(slot);

/**
 * Times are packed in whole minutes when they are (a schedule nearly always is):
 * five base-36 digits up to the year 2084, against eight for milliseconds. A
 * time in milliseconds always takes at least eight digits (zero-padded), which
 * is how the two forms are told apart; states written before kept every time
 * in milliseconds, eight digits for any time after June 1972.
 */
const MINUTE = 60_000;
const MS_DIGITS = 8;

function packTime(ms: number): string {
	const sign = ms < 0 ? '-' : '';
	const minutes = Math.abs(ms) / MINUTE;
	const inMinutes = minutes.toString(36);
	if (Number.isInteger(minutes) && inMinutes.length < MS_DIGITS) return sign + inMinutes;
	return sign + Math.abs(ms).toString(36).padStart(MS_DIGITS, '0');
}

function unpackTime(slot: string): number {
	const digits = slot.startsWith('-') ? slot.slice(1) : slot;
	const value = parseInt(digits, 36) * (digits.length === slot.length ? 1 : -1);
	return digits.length < MS_DIGITS ? value * MINUTE : value;
}

/**
 * A known code's index. States written before a field became a code hold its
 * text, read back as such (text that is itself a small number, a known code's
 * index, cannot be told apart: no status the API uses is one).
 */
function unpackCode(codes: readonly string[], slot: string): WatchedValue {
	if (slot === NULL_SLOT) return null;
	if (slot === EMPTY_TEXT) return '';
	if (slot.startsWith('~')) return unescapeText(slot.slice(1));
	const index = Number(slot);
	const known = Number.isInteger(index) && String(index) === slot ? codes[index] : undefined;
	return known ?? unescapeText(slot);
}

export function packValue(codec: Codec, value: WatchedValue, dict: Dictionary): string {
	switch (codec.kind) {
		case 'text':
			return packText(value);
		case 'email': {
			// encodeURIComponent escapes "@", so the one left separates the domain's index.
			const at = typeof value === 'string' ? value.lastIndexOf('@') : -1;
			if (typeof value !== 'string' || at <= 0) return packText(value);
			const domain = dict.indexOf(value.slice(at + 1)).toString(36);
			return `${escapeText(value.slice(0, at))}@${domain}`;
		}
		case 'number':
			return value === null ? NULL_SLOT : String(value);
		case 'bool':
			return value === true ? '1' : '0';
		case 'time':
			return typeof value === 'number' ? packTime(value) : NULL_SLOT;
		case 'counts':
			// Whole numbers only (base 36, `+` between): the slot never holds a comma or a space.
			return (Array.isArray(value) ? value : [])
				.map((n) => (Number.isSafeInteger(n) && Number(n) >= 0 ? Number(n).toString(36) : '0'))
				.join('+');
		case 'code': {
			if (value === null) return NULL_SLOT;
			const index = codec.codes.indexOf(String(value));
			return index === -1 ? `~${escapeText(String(value))}` : String(index);
		}
		case 'ref':
			return value === null ? NULL_SLOT : dict.indexOf(String(value)).toString(36);
		case 'refs':
			return (Array.isArray(value) ? value : [])
				.map((v) => dict.indexOf(String(v)).toString(36))
				.join('+');
	}
}

export function unpackValue(codec: Codec, slot: string, dict: Dictionary): WatchedValue {
	switch (codec.kind) {
		case 'text':
			return unpackText(slot);
		case 'email': {
			const at = slot.indexOf('@');
			if (at === -1) return unpackText(slot);
			return `${unescapeText(slot.slice(0, at))}@${dict.valueAt(parseInt(slot.slice(at + 1), 36))}`;
		}
		case 'number':
			return slot === NULL_SLOT ? null : Number(slot);
		case 'bool':
			return slot === '1';
		case 'time':
			return slot === NULL_SLOT ? null : unpackTime(slot);
		case 'counts':
			return slot === NULL_SLOT ? [] : slot.split('+').map((n) => parseInt(n, 36) || 0);
		case 'code':
			return unpackCode(codec.codes, slot);
		case 'ref':
			return slot === NULL_SLOT ? null : dict.valueAt(parseInt(slot, 36));
		case 'refs':
			return slot === NULL_SLOT ? [] : slot.split('+').map((i) => dict.valueAt(parseInt(i, 36)));
	}
}
