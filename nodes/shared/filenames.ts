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
