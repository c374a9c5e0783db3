/**
 * How a record's memory packs into its stored text, field by field: the
 * codecs (a slot never holds a comma or a space, which separate slots and
 * records), the dictionary of strings records share, and the bounds a record
 * is kept within, whatever it holds. records.ts names the fields.
 */
import { LONE_SURROGATE } from '../../shared/rules/formats';

/*
 * The bounds per record, whatever a record holds: a text longer than
 * MAX_KEPT_TEXT is kept as its length and a hash, a list longer than
 * MAX_KEPT_LIST as its first entries, marked cut, with a hash of all its ids.
 * A change to such a text or list still changes what is kept, so it is still
 * reported; only its full before-value is not kept. Ordinary records (emails,
 * names, a few tags or inspectors) are far below both.
 */
/** Characters (UTF-16 units) of a watched text, a record id or a list entry kept as they are. */
export const MAX_KEPT_TEXT = 200;
/** Entries of a watched list (tags, roles, inspectors, services) kept one by one. */
export const MAX_KEPT_LIST = 32;

/**
 * Read once: in a vm context (jest's test environment, a sandboxed runner) every
 * read of the global `Math` goes through the context's global object, which made
 * the hash loop 30 times slower per character.
 */
const imul = Math.imul;

/**
 * A short hash (32-bit FNV-1a, base 36) of text: what a record version's
 * content hash is made of, and what stands for a text or list too long to keep.
 */
export function hashText(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36);
}

/** The text as kept: as it is, or its length and hash when longer than MAX_KEPT_TEXT. */
export const keptText = (text: string): string =>
	text.length <= MAX_KEPT_TEXT ? text : `[${text.length} characters, hash ${hashText(text)}]`;

/** The strings a resource's dictionary maps to small numbers, and back. */
export class Dictionary {
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

/** How a field packs into a slot (never a comma or a space: they separate slots and entries). */
export interface Codec<T> {
	pack(value: T, dict: Dictionary): string;
	/** `slot` undefined: an entry stored before the field existed. */
	unpack(slot: string | undefined, dict: Dictionary): T;
	/** The dictionary indexes a slot uses (to tell when the dictionary is worth rebuilding). */
	refs?(slot: string): number[];
}

/**
 * A list as held: its entries by id, whether that is all of them (a stored
 * list keeps MAX_KEPT_LIST), and a hash of every id it had.
 */
export interface HeldList<T> {
	entries: T[];
	complete: boolean;
	idsHash: string;
}

export interface Named {
	id: string;
	name: string | null;
}

/** A service or an add-on of an inspection. */
export interface Service extends Named {
	kind: 'service' | 'add_on';
}

/** encodeURIComponent never yields a lone `%`: it marks the empty string, as an empty slot marks null. */
const EMPTY_TEXT = '%';
const SURROGATE_ESCAPE = /%u([0-9A-F]{4})/g;

/** encodeURIComponent, which throws on a lone surrogate: each is kept as `%uXXXX`, so the text comes back exactly. */
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

/** The inverse of escapeText. */
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

export const TEXT: Codec<string | null> = {
	pack: (value) => (value === null ? '' : value === '' ? EMPTY_TEXT : escapeText(keptText(value))),
	unpack: (slot) =>
		slot === undefined || slot === '' ? null : slot === EMPTY_TEXT ? '' : unescapeText(slot),
};

/** An email's domain is shared by many contacts: it goes into the dictionary (`local@index`). */
export const EMAIL: Codec<string | null> = {
	pack(value, dict) {
		const at = value === null ? -1 : value.lastIndexOf('@');
		if (value === null || at <= 0) return TEXT.pack(value, dict);
		return `${escapeText(keptText(value.slice(0, at)))}@${dict.indexOf(value.slice(at + 1)).toString(36)}`;
	},
	unpack(slot, dict) {
		const at = slot?.indexOf('@') ?? -1;
		if (slot === undefined || at === -1) return TEXT.unpack(slot, dict);
		return `${unescapeText(slot.slice(0, at))}@${dict.valueAt(parseInt(slot.slice(at + 1), 36))}`;
	},
	refs: (slot) => (slot.includes('@') ? [parseInt(slot.slice(slot.indexOf('@') + 1), 36)] : []),
};

/** A whole number (money in cents, counts), base 36; null is an empty slot. */
export const INTEGER: Codec<number | null> = {
	pack: (value) => (value === null || !Number.isSafeInteger(value) ? '' : value.toString(36)),
	unpack: (slot) => (slot === undefined || slot === '' ? null : parseInt(slot, 36)),
};

/** A count that is never null: an empty slot is 0. */
export const COUNT: Codec<number> = {
	pack: (value) => (value === 0 ? '' : INTEGER.pack(value, undefined as never)),
	unpack: (slot, dict) => INTEGER.unpack(slot, dict) ?? 0,
};

const MINUTE = 60_000;
/**
 * A time in whole minutes when it is one (a schedule nearly always is), else
 * in ms, at least MS_DIGITS digits, which is how the two are told apart.
 */
const MS_DIGITS = 8;
export const TIME: Codec<number | null> = {
	pack(value) {
		if (value === null) return '';
		const sign = value < 0 ? '-' : '';
		const minutes = Math.abs(value) / MINUTE;
		const short = minutes.toString(36);
		if (Number.isInteger(minutes) && short.length < MS_DIGITS) return sign + short;
		return sign + Math.abs(value).toString(36).padStart(MS_DIGITS, '0');
	},
	unpack(slot) {
		if (slot === undefined || slot === '') return null;
		const digits = slot.startsWith('-') ? slot.slice(1) : slot;
		const value = parseInt(digits, 36) * (digits.length === slot.length ? 1 : -1);
		return digits.length < MS_DIGITS ? value * MINUTE : value;
	},
};

/** A text most records share (an agency id): its dictionary index. */
export const REF: Codec<string | null> = {
	pack: (value, dict) => (value === null ? '' : dict.indexOf(keptText(value)).toString(36)),
	unpack: (slot, dict) =>
		slot === undefined || slot === '' ? null : dict.valueAt(parseInt(slot, 36)),
	refs: (slot) => (slot === '' ? [] : [parseInt(slot, 36)]),
};

/** One of the values `codes` lists, as its index; any other text is kept behind `~`. */
export const code = (codes: readonly string[]): Codec<string | null> => ({
	pack(value) {
		if (value === null) return '';
		const index = codes.indexOf(value);
		return index === -1 ? `~${escapeText(keptText(value))}` : index.toString(36);
	},
	unpack(slot) {
		if (slot === undefined || slot === '') return null;
		return slot.startsWith('~') ? unescapeText(slot.slice(1)) : (codes[parseInt(slot, 36)] ?? null);
	},
});

/** Named yes/no facts as the bits of one number, in the order `names` gives. */
export const flags = <N extends string>(names: readonly N[]): Codec<N[]> => ({
	pack: (value) => {
		const bits = names.reduce((sum, name, i) => (value.includes(name) ? sum + 2 ** i : sum), 0);
		return bits === 0 ? '' : bits.toString(36);
	},
	unpack: (slot) => {
		const bits = slot === undefined || slot === '' ? 0 : parseInt(slot, 36);
		return names.filter((_, i) => Math.floor(bits / 2 ** i) % 2 === 1);
	},
});

/** Marks the last slot of a list cut at MAX_KEPT_LIST: `*` and the hash of all its ids. */
const CUT = '*';

/**
 * A list of entries the dictionary holds as text (`toText`, `fromText`),
 * stored sorted by `idOf` and cut at MAX_KEPT_LIST: the first entries, then
 * `*` and the hash of every id, so a change beyond them is still told.
 */
function list<T>(
	toText: (entry: T) => string,
	fromText: (text: string) => T,
	idOf: (entry: T) => string,
): Codec<HeldList<T>> {
	return {
		pack(value, dict) {
			const kept = heldList(value.entries, idOf);
			const refs = kept.entries
				.slice(0, MAX_KEPT_LIST)
				.map((entry) => dict.indexOf(toText(entry)).toString(36));
			const complete = value.complete && kept.entries.length <= MAX_KEPT_LIST;
			if (!complete) refs.push(`${CUT}${value.complete ? kept.idsHash : value.idsHash}`);
			return refs.join('+');
		},
		unpack(slot, dict) {
			const parts = slot === undefined || slot === '' ? [] : slot.split('+');
			const cut = parts.length > 0 && parts[parts.length - 1].startsWith(CUT);
			const entries = (cut ? parts.slice(0, -1) : parts).map((ref) =>
				fromText(dict.valueAt(parseInt(ref, 36))),
			);
			return {
				entries,
				complete: !cut,
				idsHash: cut ? parts[parts.length - 1].slice(1) : idsHashOf(entries.map(idOf)),
			};
		},
		refs: (slot) =>
			slot === ''
				? []
				: slot
						.split('+')
						.filter((part) => !part.startsWith(CUT))
						.map((ref) => parseInt(ref, 36)),
	};
}

/** The hash of a list's ids, sorted: equal for the same ids in any order. */
export const idsHashOf = (ids: readonly string[]) => hashText([...ids].sort().join('\n'));

/** A whole list, sorted by id, as a record shows it now (it is cut only when stored). */
export function heldList<T>(entries: readonly T[], idOf: (entry: T) => string): HeldList<T> {
	const sorted = [...entries].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
	return { entries: sorted, complete: true, idsHash: idsHashOf(sorted.map(idOf)) };
}

const namedText = (n: Named) => JSON.stringify([n.id, n.name]);
const namedFrom = (text: string): Named => {
	const [id, name] = JSON.parse(text || '[""]') as [string, string | null];
	return { id: String(id), name: name ?? null };
};
const SERVICE_KINDS = { service: 's', add_on: 'a' } as const;
const serviceText = (s: Service) => JSON.stringify([SERVICE_KINDS[s.kind], s.id, s.name]);
const serviceFrom = (text: string): Service => {
	const [kind, id, name] = JSON.parse(text || '["s",""]') as [string, string, string | null];
	return { kind: kind === 'a' ? 'add_on' : 'service', id: String(id), name: name ?? null };
};
/** A service and an add-on may share an id: the kind is part of its identity. */
export const serviceId = (s: Service) => `${SERVICE_KINDS[s.kind]}/${s.id}`;

export const NAMED_LIST = list(namedText, namedFrom, (n: Named) => n.id);
export const TEXT_LIST = list(
	(text: string) => text,
	(text) => text,
	(text) => text,
);
export const SERVICE_LIST = list(serviceText, serviceFrom, serviceId);
