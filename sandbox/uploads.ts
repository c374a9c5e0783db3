import type { FileRule } from '../nodes/shared/endpoints';
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
