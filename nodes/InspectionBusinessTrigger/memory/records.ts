/**
 * What the trigger remembers of one record (its memory), field by field, and
 * how a resource's records are stored: one string ("key=version,field,field
 * key=…") and one dictionary of the strings records share (tags, roles,
 * inspectors, services, agencies, email domains), because n8n reads the static
 * data for every poll and rewrites all of it after every poll that emits.
 *
 * One vocabulary: RECORD_FIELDS names each field once, and that name is the
 * memory's property, the field's place in a stored entry and its name in the
 * docs. A field is only ever appended to its table; an entry stored before
 * lacks it and reads it as its codec's default.
 */
import {
	code,
	COUNT,
	Dictionary,
	EMAIL,
	escapeText,
	flags,
	INTEGER,
	keptText,
	NAMED_LIST,
	REF,
	SERVICE_LIST,
	TEXT,
	TEXT_LIST,
	TIME,
	type Codec,
	unescapeText,
} from './codecs';

export {
	hashText,
	type HeldList,
	heldList,
	idsHashOf,
	keptText,
	MAX_KEPT_LIST,
	MAX_KEPT_TEXT,
	type Named,
	type Service,
	serviceId,
	unescapeText,
} from './codecs';

/** The moments that come at most once per inspection: each has happened, or not (docs/moments.md). */
export const ONCE_MOMENTS = [
	'confirmed',
	'published',
	'paid',
	'signed',
	'paidAndSigned',
	'paidSignedPublished',
	'ended',
] as const;
export type OnceMoment = (typeof ONCE_MOMENTS)[number];

/** An inspection's yes/no facts (shared/inspectionFacts.ts). */
const INSPECTION_FACTS = ['deleted', 'paid', 'signed', 'nothingToSign', 'nothingToPay'] as const;
export type InspectionFact = (typeof INSPECTION_FACTS)[number];

const INSPECTION_STATUS_CODES = ['draft', 'waiting', 'review', 'confirmed', 'canceled'];
const REPORT_STATUS_CODES = ['na', 'pending', 'partial', 'published'];
/** Payment statuses the API's examples use (the contract lists none); any other is kept as text. */
const PAYMENT_STATUS_CODES = ['paid', 'unpaid', 'partial'];

/**
 * Every field of a record's memory, per resource, in stored order. What each
 * means is said where it is read (judge/) and in docs/polling-trigger.md.
 */
export const RECORD_FIELDS = {
	contacts: {
		email: EMAIL,
		tags: NAMED_LIST,
		/** Every role the contact has had (the API's `roles` are the roles it has had). */
		rolesHad: TEXT_LIST,
		agencyId: REF,
	},
	// Often-empty fields last: an entry's empty slots at its end are not stored.
	inspections: {
		status: code(INSPECTION_STATUS_CODES),
		reportsStatus: code(REPORT_STATUS_CODES),
		facts: flags(INSPECTION_FACTS),
		start: TIME,
		lengthQuarters: COUNT,
		quoteCents: INTEGER,
		amountDueCents: INTEGER,
		amountPaidCents: INTEGER,
		paymentStatus: code(PAYMENT_STATUS_CODES),
		inspectors: NAMED_LIST,
		services: SERVICE_LIST,
		publishedReports: COUNT,
		/** The once-moments that have happened (reported, or held when the trigger began). */
		happened: flags(ONCE_MOMENTS),
		/** The start time the client was last reminded of (Starting). */
		remindedStart: TIME,
		/** While the inspection has no scheduled time: the last one it had (else null). */
		lastStart: TIME,
	},
	events: {
		name: TEXT,
		startAt: TIME,
		endAt: TIME,
		inspectorIds: TEXT_LIST,
	},
	attachments: {},
} as const;

type Fields = typeof RECORD_FIELDS;
export type HeldResource = keyof Fields;
type ValueOf<C> = C extends Codec<infer T> ? T : never;
/** The memory of one record of `R`: a property per field of RECORD_FIELDS[R]. */
export type MemoryOf<R extends HeldResource> = { [K in keyof Fields[R]]: ValueOf<Fields[R][K]> };
export type ContactMemory = MemoryOf<'contacts'>;
export type InspectionMemory = MemoryOf<'inspections'>;
export type AppointmentMemory = MemoryOf<'events'>;
export type AnyMemory = ContactMemory | InspectionMemory | AppointmentMemory;

/**
 * What the trigger holds of one record: the version it saw last (its change
 * time on the API's clock, and a hash of its content, so a new version is told
 * apart even when its updated_at is not newer) and, for a record it holds for
 * its moments, its memory. A record without memory is known only by its
 * version (inside the poll window, to recognise a version seen before).
 */
export interface Held<M = AnyMemory> {
	updatedAt: number;
	hash: string;
	memory?: M;
}

const codecsOf = (resource: HeldResource) =>
	Object.entries(RECORD_FIELDS[resource]) as Array<[string, Codec<unknown>]>;

/** Lookups in the stored text before it is split into its records once. */
const LOOKUPS_BEFORE_SPLITTING = 32;

/** A dictionary this long is checked for values no record uses any more. */
const DICTIONARY_CHECK_SIZE = 256;

/**
 * One resource's held records by key, packed as stored and unpacked only when
 * asked for, so a poll that touches a few records of many costs little beyond
 * reading the string.
 */
export class RecordBook<M = AnyMemory> {
	/** The records as stored, with a space in front: a record is ` key=…` (a key holds no space or `=`). */
	private readonly stored: string;
	/** Every record by key, once a poll needs them all or has looked up many. */
	private parsed?: Map<string, string>;
	/** What this poll stored (a text) or let go (null) before the records were parsed. */
	private readonly overlay = new Map<string, string | null>();
	private lookups = 0;
	private dict: Dictionary;
	/** Whether this poll stored or dropped a record (the state it writes back differs). */
	changed = false;

	constructor(
		readonly resource: HeldResource,
		text = '',
		dictionary: readonly string[] = [],
	) {
		this.stored = text === '' ? '' : ` ${text}`;
		this.dict = new Dictionary(dictionary);
	}

	/**
	 * A record's stored text. An idle poll looks up only what its pages bring, in the stored text
	 * as it is; past a few dozen lookups it is quicker to split it once.
	 */
	private textOf(key: string): string | undefined {
		if (this.parsed) return this.parsed.get(key);
		if (this.overlay.has(key)) return this.overlay.get(key) ?? undefined;
		if (++this.lookups > LOOKUPS_BEFORE_SPLITTING) return this.all().get(key);
		const at = this.stored.indexOf(` ${key}=`);
		if (at === -1) return undefined;
		const from = at + key.length + 2;
		const end = this.stored.indexOf(' ', from);
		return this.stored.slice(from, end === -1 ? undefined : end);
	}

	/** Every record, split once, with what this poll changed applied. */
	private all(): Map<string, string> {
		if (this.parsed) return this.parsed;
		const parsed = new Map<string, string>();
		for (const entry of this.stored === '' ? [] : this.stored.slice(1).split(' ')) {
			const eq = entry.indexOf('=');
			if (eq > 0) parsed.set(entry.slice(0, eq), entry.slice(eq + 1));
		}
		for (const [key, text] of this.overlay)
			if (text === null) parsed.delete(key);
			else parsed.set(key, text);
		this.overlay.clear();
		this.parsed = parsed;
		return parsed;
	}

	get size(): number {
		return this.all().size;
	}

	has(key: string): boolean {
		return this.textOf(key) !== undefined;
	}

	get(key: string): Held<M> | undefined {
		const text = this.textOf(key);
		return text === undefined ? undefined : this.unpack(text);
	}

	set(key: string, held: Held<M>): void {
		const slots = [`${held.updatedAt.toString(36)}.${held.hash}`];
		if (held.memory !== undefined) {
			for (const [name, codec] of codecsOf(this.resource))
				slots.push(codec.pack((held.memory as Record<string, unknown>)[name], this.dict));
			// Empty slots at the end read back as their defaults; one stays, so the memory does.
			while (slots.length > 2 && slots[slots.length - 1] === '') slots.pop();
			if (slots.length === 1) slots.push('');
		}
		const text = slots.join(',');
		if (this.textOf(key) === text) return;
		this.changed = true;
		if (this.parsed) this.parsed.set(key, text);
		else this.overlay.set(key, text);
	}

	delete(key: string): void {
		if (this.textOf(key) === undefined) return;
		this.changed = true;
		if (this.parsed) this.parsed.delete(key);
		else this.overlay.set(key, null);
	}

	/** What a record takes in the stored text, in characters (0 when not held). */
	sizeOf(key: string): number {
		const text = this.textOf(key);
		return text === undefined ? 0 : key.length + text.length + 2;
	}

	keys(): IterableIterator<string> {
		return this.all().keys();
	}

	/** What all the records take in the stored text, in characters; as read when nothing changed. */
	storedSize(): number {
		if (!this.changed) return this.stored.length;
		let size = 0;
		for (const [key, text] of this.all()) size += key.length + text.length + 2;
		return size;
	}

	/**
	 * The stored form: as it was read when nothing changed; else written again, a dictionary
	 * mostly of values no record uses any more rebuilt first.
	 */
	encode(): { records: string; dictionary?: string[] } {
		const records = this.changed ? this.joined() : this.stored.slice(1);
		const dictionary = this.dict.values;
		return { records, ...(dictionary.length > 0 ? { dictionary: [...dictionary] } : {}) };
	}

	private joined(): string {
		if (this.dict.values.length > DICTIONARY_CHECK_SIZE) this.compact();
		const parts: string[] = [];
		for (const [key, text] of this.all()) parts.push(`${key}=${text}`);
		return parts.join(' ');
	}

	private compact(): void {
		const codecs = codecsOf(this.resource);
		const used = new Set<number>();
		for (const text of this.all().values()) {
			const slots = text.split(',').slice(1);
			codecs.forEach(([, codec], i) => {
				if (slots[i] !== undefined) for (const ref of codec.refs?.(slots[i]) ?? []) used.add(ref);
			});
		}
		if (used.size * 2 > this.dict.values.length) return;
		const all = [...this.all().keys()].map((key) => [key, this.get(key)!] as const);
		this.dict = new Dictionary();
		for (const [key, held] of all) this.set(key, held);
	}

	private unpack(text: string): Held<M> {
		const [version, ...slots] = text.split(',');
		const dot = version.indexOf('.');
		const held: Held<M> = {
			updatedAt: parseInt(version.slice(0, dot), 36),
			hash: version.slice(dot + 1),
		};
		if (slots.length === 0) return held;
		const memory: Record<string, unknown> = {};
		codecsOf(this.resource).forEach(([name, codec], i) => {
			memory[name] = codec.unpack(slots[i], this.dict);
		});
		return { ...held, memory: memory as M };
	}
}

/** A record's id as held: a UUID packs into 22 base64url characters; anything else is escaped behind `~`. */
export function packId(id: string, isUuid: boolean): string {
	return isUuid
		? Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url')
		: `~${escapeText(keptText(id))}`;
}

/** The id a packed key stands for: the inverse of packId. */
export function unpackId(packed: string): string {
	if (packed.startsWith('~')) return unescapeText(packed.slice(1));
	const hex = Buffer.from(packed, 'base64url').toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
