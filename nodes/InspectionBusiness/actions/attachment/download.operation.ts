import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { attachmentIdField, pathIdField } from '../../../shared/fields';
import { attachmentIn, inspectionAttachments } from '../../helpers/attachments';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';
import { binaryPropertyField, downloadToBinary } from '../../helpers/download';

/** Download reads a fresh signed link from the inspection's attachment list, then fetches it. */
export const endpoint: EndpointKey = 'listInspectionAttachments';
export const queryScope: readonly string[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['download'] } },
	[
		{
			displayName: 'Source',
			name: 'source',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Inspection and Attachment ID',
					value: 'attachment',
					description:
						'Read a fresh download link from the inspection (links expire after an hour)',
				},
				{
					name: 'Signed URL',
					value: 'url',
					description:
						'Download a signed link such as the URL of an attachment read less than an hour ago',
				},
			],
			default: 'attachment',
		},
		...recordIdField('inspection', {
			...pathIdField('inspection_id', 'The inspection the attachment belongs to'),
			displayOptions: { show: { source: ['attachment'] } },
		}),
		...recordIdField('attachment', {
			...attachmentIdField,
			displayOptions: { show: { source: ['attachment'] } },
		}),
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '={{ $json.url }}',
			description:
				'The signed link to download, e.g. the URL of an attachment or a photo; the API key is never sent to it',
			displayOptions: { show: { source: ['url'] } },
		},
		binaryPropertyField,
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	let json: IDataObject;
	let url: string;
	if (this.getNodeParameter('source', itemIndex) === 'url') {
		json = this.getInputData()[itemIndex].json;
		const given = this.getNodeParameter('url', itemIndex, '') as unknown;
		if (given !== null && typeof given !== 'string')
			throw urlError(this, itemIndex, `must be a link, got ${typeof given}`);
		url = (given ?? '').trim();
		if (!url) throw urlError(this, itemIndex, 'no link to download');
	} else {
		const inspectionId = recordId(this, 'inspection', 'inspection_id', itemIndex);
		const attachmentId = recordId(this, 'attachment', 'attachment_id', itemIndex);
		const attachments = await inspectionAttachments(this, inspectionId);
		json = attachmentIn(this, attachments, { inspectionId, attachmentId }, itemIndex);
		if (!json.url) {
			throw new NodeOperationError(
				this.getNode(),
				`Attachment ${String(json.id)} has no file to download`,
				{
					itemIndex,
					description:
						'A report may be only a name and a description (for example a link) without a file.',
				},
			);
		}
		url = json.url as string;
	}
	const binary = await downloadToBinary(this, itemIndex, url, {
		fileName: json.filename as string | undefined,
		mimeType: json.content_type as string | undefined,
	});
	return [{ json, binary, pairedItem: { item: itemIndex } }];
}

/** The URL field cannot be downloaded: it names the field and where a link comes from. */
function urlError(ctx: IExecuteFunctions, itemIndex: number, reason: string) {
	return new NodeOperationError(ctx.getNode(), `URL: ${reason}`, {
		itemIndex,
		description: 'Map URL to the url (or photo_url, cover_photo_url) of a record.',
	});
}
