import type { FileRule } from '../nodes/shared/endpoints';
export { sanitizeFilename } from '../nodes/shared/filenames';
import { badRequest } from './http';
import type { UploadedFile } from './multipart';

const extensionOf = (filename: string): string => {
	const dot = filename.lastIndexOf('.');
	return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
};

/** The file type rules of the endpoint table (FILE_RULES): allowed extension, and a content type matching it. */
export function checkFileType(rule: FileRule, file: UploadedFile): string {
	const ext = extensionOf(file.filename);
	const allowed = Object.keys(rule.types);
	const types = rule.types[ext];
	if (!types) {
		throw badRequest(
			'file',
			`${file.filename || 'The file'} is not an allowed type; allowed: ${allowed.join(', ')}`,
			'file_type_not_allowed',
		);
	}
	const contentType = file.contentType.split(';')[0].trim().toLowerCase();
	if (!types.includes(contentType)) {
		throw badRequest(
			'file',
			`The content type ${contentType} does not match .${ext} (expected ${types.join(' or ')})`,
			'content_type_mismatch',
		);
	}
	return contentType;
}
