/**
 * The state's bound per record, whatever a record holds: a text longer than
 * MAX_KEPT_TEXT is kept as its length and a hash, a list longer than
 * MAX_KEPT_LIST as its first entries and one entry that stands for the rest.
 * A change to the text or the list still changes what is kept, so it is still
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

/**
 * A sorted list as kept: as it is, or its first MAX_KEPT_LIST entries and
 * `standIn` of the rest (its count and the hash of all its entries).
 */
export function keptList(entries: string[], standIn: (summary: string) => string): string[] {
	if (entries.length <= MAX_KEPT_LIST) return entries;
	const rest = entries.length - MAX_KEPT_LIST;
	const summary = `[${rest} more, hash ${hashText(entries.join('\n'))}]`;
	return [...entries.slice(0, MAX_KEPT_LIST), standIn(summary)];
}
