import {
	checkFileSize as sizeRule,
	checkFileType as typeRule,
	type FileKind,
} from '../nodes/shared/rules/files';
import { ApiError } from './http';
import type { UploadedFile } from './multipart';
import { underRule } from './rules';

/** The rule book's file type rule: an allowed extension and a content type matching it (400). */
export function checkFileType(kind: FileKind, file: UploadedFile): string {
	return underRule(() => typeRule(kind, file.filename, file.contentType), 'invalid_field');
}

/** The rule book's size limit; above it the API answers 413. */
export function checkFileSize(kind: FileKind, bytes: number): void {
	try {
		sizeRule(kind, bytes);
	} catch (error) {
		if (error instanceof Error) throw new ApiError(413, 'file_too_large', error.message, 'file');
		throw error;
	}
}

const clean = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/ /g, '_')
		.replace(/[^A-Za-z0-9._-]/g, '');

/** D8 (busboy already dropped any path): spaces become underscores; only letters, digits, dot, underscore and hyphen stay; accents lose their marks. */
export function sanitizeFilename(filename: string): string {
	const dot = filename.lastIndexOf('.');
	const [stem, ext] =
		dot > 0 ? [filename.slice(0, dot), clean(filename.slice(dot + 1))] : [filename, ''];
	return `${clean(stem).replace(/^\.+/, '') || 'file'}${ext ? `.${ext}` : ''}`;
}
