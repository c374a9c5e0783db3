/**
 * Uploads (multipart; the API names the attachment fields kind, file, name,
 * description and internal_only, and the photo field file): the local checks
 * per FILE_RULES (extension,
 * matching content type, size, a report's name, a document's file) and the
 * request itself, built with native FormData so the HTTP client sets the
 * multipart boundary header (never application/json).
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { type Endpoint, ENDPOINTS, FILE_RULES } from '../endpoints';
import { checkFileSize, checkFileType } from '../rules/files';
import { invalidInput, underRule, validatePathParams } from '../validation';
import { callApi } from './request';

export type UploadRule = keyof typeof FILE_RULES;

interface UploadFileInput {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

/** Extension, matching content type and size per FILE_RULES (the rule book's file rules); returns the bare content type. */
export function validateUploadFile(node: INode, rule: UploadRule, file: UploadFileInput): string {
	return underRule(node, () => {
		const contentType = checkFileType(rule, file.fileName, file.mimeType);
		checkFileSize(rule, file.data.length);
		return contentType;
	});
}

/** The multipart fields of an upload, checked per rule; `kind` is set from the rule for attachments. */
export function validateUploadFields(
	node: INode,
	endpoint: 'uploadContactPhoto' | 'uploadAttachment',
	rule: UploadRule,
	fields: Record<string, string>,
	hasFile: boolean,
): Record<string, string> {
	const spec: Endpoint = ENDPOINTS[endpoint];
	const known = (spec.body?.fields ?? [])
		.filter((field) => field.type !== 'file')
		.map((field) => field.name);
	const wire: Record<string, string> = {};
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined || value === '') continue;
		if (!known.includes(name))
			throw invalidInput(node, name, `not a field of ${spec.body?.schema}`);
		wire[name] = String(value);
	}
	if (endpoint === 'uploadContactPhoto') {
		if (rule !== 'photo') throw invalidInput(node, 'rule', 'a contact photo uses the photo rule');
	} else {
		if (rule === 'photo')
			throw invalidInput(node, 'rule', 'an attachment is a report or a document');
		if (wire.kind !== undefined && wire.kind !== rule)
			throw invalidInput(node, 'kind', `"${wire.kind}" does not match the ${rule} upload`);
		wire.kind = rule;
		if (rule === 'report' && !wire.name?.trim())
			throw invalidInput(node, 'name', 'a report needs a name');
		if (wire.internal_only !== undefined) {
			if (rule !== 'document')
				throw invalidInput(node, 'internal_only', 'only documents can be internal only');
			if (wire.internal_only !== 'true' && wire.internal_only !== 'false')
				throw invalidInput(node, 'internal_only', 'must be "true" or "false"');
		}
	}
	if (!hasFile && rule !== 'report')
		throw invalidInput(node, 'file', `a ${rule} upload needs a file`);
	return wire;
}

export interface UploadOptions {
	pathParams: Record<string, string>;
	/** The attachment's text fields: kind, name, description, internal_only ("true"/"false"). */
	fields: Record<string, string>;
	file?: { data: Buffer; fileName: string; mimeType: string };
	rule: UploadRule;
}

/**
 * Multipart upload with native FormData; the HTTP client sets the multipart
 * boundary header. Checked locally first: extension, matching content type,
 * size, a report's name, a document's file. Never repeated once it may have
 * been received (a report upload emails the client).
 */
export async function uploadFile(
	this: IExecuteFunctions,
	endpoint: 'uploadContactPhoto' | 'uploadAttachment',
	options: UploadOptions,
): Promise<IDataObject> {
	const node = this.getNode();
	const spec = ENDPOINTS[endpoint];
	const pathParams = validatePathParams(node, endpoint, options.pathParams);
	const fields = validateUploadFields(
		node,
		endpoint,
		options.rule,
		options.fields,
		options.file !== undefined,
	);
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	if (options.file) {
		const contentType = validateUploadFile(node, options.rule, options.file);
		form.append(
			'file',
			new Blob([options.file.data], { type: contentType }),
			options.file.fileName,
		);
	}
	const answer = await callApi.call(this, {
		method: spec.method,
		endpoint,
		pathParams,
		body: form,
		upload: options.rule,
	});
	return answer.json as IDataObject;
}
