import {
	checkFileSize as sizeRule,
	checkFileType as typeRule,
	type FileKind,
} from '../nodes/shared/rules/files';
import { ApiError } from './http';
export { sanitizeFilename } from '../nodes/shared/filenames';
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
