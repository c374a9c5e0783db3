import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { binaryInputField, bodyField, bodyProperty, pathIdField } from '../../../shared/fields';
import { sanitizeFilename } from '../../../shared/filenames';
import { paginate } from '../../../shared/transport/pages';
import { type N8nContext } from '../../../shared/transport/types';
import { uploadFile } from '../../../shared/transport/upload';
import {
	type UploadOptions,
	validateUploadFields,
	validateUploadFile,
} from '../../../shared/transport/upload';
import { readBinaryFile, uploadOptionsField } from '../../helpers/binary';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';

export const endpoint = 'uploadAttachment' satisfies EndpointKey;

const field = (name: string) => bodyProperty(bodyField(endpoint, name));
const onlyFor = (kind: string, property: INodeProperties): INodeProperties => ({
	...property,
	displayOptions: { show: { kind: [kind] } },
});

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['upload'] } },
	[
		...recordIdField(
			'inspection',
			pathIdField(
				'inspection_id',
				'The inspection to attach to; a report needs a confirmed inspection',
			),
		),
		{ ...field('kind'), required: true },
		field('name'),
		onlyFor('report', field('description')),
		onlyFor('document', field('internal_only')),
		{
			displayName: 'Send File',
			name: 'sendFile',
			type: 'boolean',
			default: true,
			description:
				'Whether to upload a file with the report; without one, the report is only its name and description (e.g. a link)',
			displayOptions: { show: { kind: ['report'] } },
		},
		{ ...binaryInputField, displayOptions: { hide: { sendFile: [false] } } },
		{
			displayName: 'Skip Duplicates',
			name: 'skipDuplicates',
			type: 'boolean',
			default: true,
			description:
				"Whether to first list this inspection's reports (one extra request) and, when the same report is already there, output it marked skipped instead of uploading it again. Each report upload emails the client, so this keeps a retry or a re-run from sending a second email.",
			displayOptions: { show: { kind: ['report'] } },
		},
		{
			displayName: 'Skip Duplicates',
			name: 'skipDuplicates',
			type: 'boolean',
			default: false,
			description:
				"Whether to first list this inspection's documents (one extra request) and, when one with the same file name and size is already there, output it marked skipped instead of uploading it again",
			displayOptions: { show: { kind: ['document'] } },
		},
		uploadOptionsField,
	],
);

/**
 * The attachment an earlier run of this same upload left, if any: same kind,
 * and the same file name as the server stores it (`sanitizeFilename`) and size; for a report
 * without a file, the same name and description. The walk stops at a match.
 */
async function findSameUpload(
	ctx: N8nContext,
	upload: UploadOptions,
): Promise<IDataObject | undefined> {
	const { file, fields } = upload;
	const filename = file ? sanitizeFilename(file.fileName) : null;
	const isSame = (attachment: IDataObject) =>
		file
			? attachment.filename === filename && attachment.size_bytes === file.data.length
			: attachment.filename === null &&
				attachment.name === fields.name &&
				(attachment.description ?? '') === (fields.description ?? '');
	for await (const page of paginate.call(ctx, 'listInspectionAttachments', {
		pathParams: upload.pathParams,
		query: { kind: upload.rule },
	})) {
		const same = page.find(isSame);
		if (same) return same;
	}
	return undefined;
}

/**
 * Multipart upload, with the field names of the API's AttachmentUpload (attachmentFormFields).
 * `uploadFile` checks the fields (a report's name) and
 * the file (FILE_RULES of the kind) before anything is sent; the
 * confirmed-inspection rule for reports is the server's, whose 400 is shown.
 * Each report upload emails the client, so the transport never repeats one;
 * n8n's Retry On Fail or a re-run would, which Skip Duplicates prevents.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const inspectionId = recordId(this, 'inspection', 'inspection_id', itemIndex);
	const kind = this.getNodeParameter('kind', itemIndex) as 'report' | 'document';
	const name = (this.getNodeParameter('name', itemIndex, '') as string).trim();
	const fields: Record<string, string> = { kind };
	if (name) fields.name = name;
	if (kind === 'report') {
		const text = this.getNodeParameter('description', itemIndex, '') as string;
		if (text) fields.description = text;
	} else {
		fields.internal_only = String(
			this.getNodeParameter('internal_only', itemIndex, false) as boolean,
		);
	}
	const sendFile =
		kind === 'document' || (this.getNodeParameter('sendFile', itemIndex, true) as boolean);
	const file = sendFile ? await readBinaryFile(this, itemIndex, kind) : undefined;
	const upload: UploadOptions = {
		pathParams: { inspection_id: inspectionId },
		fields,
		file,
		rule: kind,
	};
	if (this.getNodeParameter('skipDuplicates', itemIndex, kind === 'report') as boolean) {
		// Checked first, so that a file the server would refuse costs no list request.
		const node = this.getNode();
		validateUploadFields(node, endpoint, kind, fields, file !== undefined);
		if (file) validateUploadFile(node, kind, file);
		const same = await findSameUpload(this, upload);
		if (same) {
			return [
				{
					json: { ...same, skipped: true, reason: 'duplicate' },
					pairedItem: { item: itemIndex },
				},
			];
		}
	}
	const attachment = await uploadFile.call(this, endpoint, upload);
	return [{ json: attachment, pairedItem: { item: itemIndex } }];
}
