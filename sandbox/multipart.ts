import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from './http';
import type { LogEntry, LoggedFile } from './requestlog';
import { megabytes } from '../nodes/shared/rules/formats';

export interface UploadedFile extends LoggedFile {
	data: Buffer;
}

export interface MultipartBody {
	fields: Record<string, string>;
	file: UploadedFile | null;
}

export interface MultipartRules {
	/** Text fields allowed besides `file`; any other part is a 400 naming it. */
	fields: readonly string[];
	/** The size limit while the file streams in, given the fields read so far; past it: 413 at once. */
	maxBytes: (fieldsSoFar: Record<string, string>) => number;
}

const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams a multipart/form-data body through busboy into memory. Form fields
 * and file sizes go into the request log. A file over its limit stops the read
 * (the rest of the body is discarded unread) and answers 413.
 */
export function readMultipart(
	req: IncomingMessage,
	entry: LogEntry,
	rules: MultipartRules,
): Promise<MultipartBody> {
	const type = (req.headers['content-type'] ?? '').toLowerCase();
	if (!type.startsWith('multipart/form-data')) {
		return Promise.reject(
			badRequest('body', 'The request body must be multipart/form-data', 'invalid_body'),
		);
	}
	const fields: Record<string, string> = {};
	const logged: LoggedFile[] = [];
	entry.form = { fields, files: logged };
	let file: UploadedFile | null = null;
	return new Promise((resolve, reject) => {
		let settled = false;
		let bb: busboy.Busboy;
		const fail = (error: ApiError) => {
			if (settled) return;
			settled = true;
			req.unpipe(bb);
			req.resume();
			reject(error);
		};
		try {
			bb = busboy({
				headers: req.headers,
				defParamCharset: 'utf8',
				limits: { files: 1, fields: 20, fieldSize: MAX_FIELD_BYTES },
			});
		} catch {
			reject(badRequest('body', 'The multipart body has no boundary', 'invalid_body'));
			return;
		}
		bb.on('field', (name, value, info) => {
			if (name === 'file')
				return fail(
					badRequest('file', 'file must be a file part with a filename', 'invalid_field'),
				);
			if (!rules.fields.includes(name))
				return fail(badRequest(name, `${name} is not a field of this upload`, 'unknown_field'));
			if (name in fields) return fail(badRequest(name, `${name} was sent twice`, 'invalid_field'));
			if (info.valueTruncated)
				return fail(badRequest(name, `${name} is too long`, 'invalid_field'));
			fields[name] = value;
		});
		bb.on('file', (name, stream, info) => {
			if (name !== 'file') {
				stream.resume();
				return fail(
					badRequest(
						name,
						`${name} is not a field of this upload; send the file as file`,
						'unknown_field',
					),
				);
			}
			const record: LoggedFile = {
				field: name,
				filename: info.filename ?? '',
				contentType: info.mimeType,
				size: 0,
			};
			logged.push(record);
			const max = rules.maxBytes(fields);
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => {
				record.size += chunk.length;
				if (record.size > max) {
					stream.resume();
					return fail(
						new ApiError(
							413,
							'file_too_large',
							`The file is over the ${megabytes(max)} limit`,
							'file',
						),
					);
				}
				chunks.push(chunk);
			});
			stream.on('end', () => {
				if (!settled) file = { ...record, data: Buffer.concat(chunks) };
			});
		});
		bb.on('filesLimit', () => fail(badRequest('file', 'Send one file only', 'invalid_field')));
		bb.on('fieldsLimit', () => fail(badRequest('body', 'Too many form fields', 'invalid_body')));
		bb.on('error', () =>
			fail(badRequest('body', 'The multipart body is malformed', 'invalid_body')),
		);
		bb.on('close', () => {
			if (settled) return;
			settled = true;
			resolve({ fields, file });
		});
		req.pipe(bb);
	});
}
