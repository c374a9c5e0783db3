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

/** Control characters (C0, DEL, C1) and the invisible marks that can reverse how a name reads. */
export function isUnsafeCharacter(character: string): boolean {
	const code = character.charCodeAt(0);
	return (
		code <= 0x1f ||
		(code >= 0x7f && code <= 0x9f) ||
		code === 0x200e ||
		code === 0x200f ||
		(code >= 0x202a && code <= 0x202e) ||
		(code >= 0x2066 && code <= 0x2069)
	);
}
/** Longest name kept, in characters: file systems allow 255 bytes, and a name may be UTF-8. */
const MAX_NAME_LENGTH = 120;

/** `text` without `character` at either end; a loop, not a pattern, so a long run costs linear time. */
function trimAll(text: string, characters: string): string {
	let start = 0;
	let end = text.length;
	while (start < end && characters.includes(text[start])) start++;
	while (end > start && characters.includes(text[end - 1])) end--;
	return text.slice(start, end);
}

/**
 * A downloaded file's name (from Content-Disposition, the link or the record),
 * made safe to write to disk by whatever comes next (Write Binary File, an
 * FTP or Drive upload): path separators become `_`, control and direction
 * characters go, dot runs shrink to one dot (so no `..`), leading and trailing
 * dots and spaces go, and a long name is cut to 120 characters keeping its
 * extension. Undefined when nothing is left. Unlike sanitizeFilename, it keeps
 * spaces and letters of any script: it predicts nothing, it only protects.
 */
export function safeFileName(name: string | undefined): string | undefined {
	if (name === undefined) return undefined;
	// Bounded first: only 120 characters are kept, so a megabyte of name costs no more than a kilobyte.
	const bounded = name.length > 1024 ? name.slice(0, 1000) + name.slice(-24) : name;
	const flat = [...bounded]
		.filter((character) => !isUnsafeCharacter(character))
		.join('')
		.replace(/[/\\]/g, '_')
		.replace(/\.{2,}/g, '.');
	const trimmed = trimAll(flat, '. ');
	if (trimmed === '') return undefined;
	if (trimmed.length <= MAX_NAME_LENGTH) return trimmed;
	const dot = trimmed.lastIndexOf('.');
	const extension = dot > 0 && trimmed.length - dot <= 16 ? trimmed.slice(dot) : '';
	return trimAll(trimmed.slice(0, MAX_NAME_LENGTH - extension.length), '. ') + extension;
}
