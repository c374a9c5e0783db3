/**
 * The server's file-name rule, which the API documentation only sketches
 * ("spaces become underscores, special characters removed"); the package's
 * reading of it is the assumption storedFileNames. Written once: the sandbox
 * stores names with it, and the node predicts with it what name an upload
 * will be stored under (to recognise a report that is already there).
 */

const clean = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/ /g, '_')
		.replace(/[^A-Za-z0-9._-]/g, '');

/** A path is dropped; spaces become underscores; only letters, digits, dot, underscore and hyphen stay; accents lose their marks; leading dots go; an empty stem becomes `file`. */
export function sanitizeFilename(filename: string): string {
	const base = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
	const dot = base.lastIndexOf('.');
	const [stem, ext] = dot > 0 ? [base.slice(0, dot), clean(base.slice(dot + 1))] : [base, ''];
	return `${clean(stem).replace(/^\.+/, '') || 'file'}${ext ? `.${ext}` : ''}`;
}

/**
 * Characters no file name keeps: controls (C0, DEL, C1), invisible format
 * characters (zero-width space and joiners, soft hyphen, byte-order mark, the
 * marks that reverse how a name reads), line and paragraph separators
 * (U+2028, U+2029), and half of a surrogate pair, which UTF-8 cannot encode.
 */
const UNSAFE_CHARACTER = /^[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]$/u;

/** Whether `character` (one code point) is one no file name keeps. */
export function isUnsafeCharacter(character: string): boolean {
	return UNSAFE_CHARACTER.test(character);
}

/** Characters Windows refuses in a name (`:` also opens an NTFS stream); each becomes `_`, as path separators do. */
const REFUSED_BY_FILE_SYSTEMS = /[/\\<>:"|?*]/g;

/**
 * Names Windows reserves for devices, whatever the extension (`con.txt` is the
 * console too): CON, PRN, AUX, NUL, COM0–9 and LPT0–9 (with ¹²³ as well),
 * compared without case and without trailing spaces before the first dot.
 */
const RESERVED_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** Longest name kept, in UTF-8 bytes: what ext4, APFS, NTFS and most others allow. */
export const MAX_NAME_BYTES = 255;

/** Longest extension kept whole when a long name is cut, in characters. */
const MAX_EXTENSION_LENGTH = 16;

/** `text` without `character` at either end; a loop, not a pattern, so a long run costs linear time. */
function trimAll(text: string, characters: string): string {
	let start = 0;
	let end = text.length;
	while (start < end && characters.includes(text[start])) start++;
	while (end > start && characters.includes(text[end - 1])) end--;
	return text.slice(start, end);
}

/** The longest start of `text` within `bytes` UTF-8 bytes, cut between whole code points. */
function cutToBytes(text: string, bytes: number): string {
	let used = 0;
	let end = 0;
	for (const character of text) {
		used += Buffer.byteLength(character);
		if (used > bytes) break;
		end += character.length;
	}
	return text.slice(0, end);
}

/** `name` cut to MAX_NAME_BYTES, keeping a short extension whole. */
function cutName(name: string): string {
	if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
	const dot = name.lastIndexOf('.');
	const extension = dot > 0 && name.length - dot <= MAX_EXTENSION_LENGTH ? name.slice(dot) : '';
	const stem = cutToBytes(
		name.slice(0, name.length - extension.length),
		MAX_NAME_BYTES - Buffer.byteLength(extension),
	);
	return trimAll(stem, '. ') + extension;
}

/** A device name Windows reserves gets a leading `_`: `con.txt` becomes `_con.txt`. */
function notReserved(name: string): string {
	const dot = name.indexOf('.');
	const base = trimAll(dot < 0 ? name : name.slice(0, dot), ' ');
	return RESERVED_DEVICE.test(base) ? `_${name}` : name;
}

/**
 * A downloaded file's name (from Content-Disposition, the link or the record),
 * made safe to write to disk by whatever comes next (Write Binary File, an
 * FTP or Drive upload, a Windows share): path separators and the characters
 * Windows refuses (`<>:"|?*`, so no `:` stream either) become `_`; control,
 * invisible and line-separator characters go; dot runs shrink to one dot (so
 * no `..`); leading and trailing dots and spaces go; a name Windows reserves
 * (CON, con.txt, LPT1…) gets a leading `_`; a long name is cut to 255 UTF-8
 * bytes at a whole character, keeping its extension. Undefined when nothing
 * is left. Unlike sanitizeFilename, it keeps spaces and letters of any
 * script: it predicts nothing, it only protects.
 */
export function safeFileName(name: string | undefined): string | undefined {
	if (name === undefined) return undefined;
	// Bounded first: at most 255 bytes are kept, so a megabyte of name costs no more than a kilobyte.
	const bounded = name.length > 1024 ? name.slice(0, 1000) + name.slice(-24) : name;
	const flat = [...bounded]
		.filter((character) => !isUnsafeCharacter(character))
		.join('')
		.replace(REFUSED_BY_FILE_SYSTEMS, '_')
		.replace(/\.{2,}/g, '.');
	const trimmed = trimAll(flat, '. ');
	if (trimmed === '') return undefined;
	return trimAll(cutName(notReserved(trimmed)), '. ');
}
