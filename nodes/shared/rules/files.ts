/**
 * Upload rules per FILE_RULES (the table in endpoints.ts): an allowed
 * extension, a content type that matches it, and the size limit.
 */
import { FILE_RULES } from '../endpoints';
import { megabytes } from './formats';
import { RuleViolation } from './violation';

export type FileKind = keyof typeof FILE_RULES;

const extensionOf = (filename: string): string => {
	const dot = filename.lastIndexOf('.');
	return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
};

/** The file's extension is allowed and its content type matches it; returns the bare content type. */
export function checkFileType(kind: FileKind, filename: string, contentType: string): string {
	const types: Readonly<Record<string, readonly string[]>> = FILE_RULES[kind].types;
	const extension = extensionOf(filename);
	const matching = types[extension];
	if (matching === undefined)
		throw new RuleViolation(
			'file',
			`a ${kind} must be one of ${Object.keys(types).join(', ')}; "${filename}" is not`,
			'file_type_not_allowed',
		);
	const bare = contentType.split(';')[0].trim().toLowerCase();
	if (!matching.includes(bare))
		throw new RuleViolation(
			'file',
			`the content type "${bare}" does not match ".${extension}" (expected ${matching.join(' or ')})`,
			'content_type_mismatch',
		);
	return bare;
}

/** The size limit of the kind, e.g. 10 MB for a photo (the API answers 413 above it). */
export function checkFileSize(kind: FileKind, bytes: number): void {
	const { maxBytes } = FILE_RULES[kind];
	if (bytes > maxBytes)
		throw new RuleViolation(
			'file',
			`a ${kind} may be at most ${megabytes(maxBytes)}; this file has ${megabytes(bytes)}`,
		);
}
