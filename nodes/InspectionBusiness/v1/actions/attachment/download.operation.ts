import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../../shared/endpoints';
import { pathIdField } from '../../../../shared/fields';
import { downloadSignedLink, readAll } from '../../../../shared/transport';
import { forEachItem } from '../../helpers/execution';

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
		{
			...pathIdField('inspection_id', 'The inspection the attachment belongs to'),
			displayOptions: { show: { source: ['attachment'] } },
		},
		{
			displayName: 'Attachment ID',
			name: 'attachment_id',
			type: 'string',
			required: true,
			default: '',
			description:
				'The attachment to download; attachment IDs are unique within their inspection only',
			displayOptions: { show: { source: ['attachment'] } },
		},
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
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			hint: 'The name of the output binary field to put the file in',
		},
	],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// One listing per inspection per execution, shared by the items that download from it.
	const listings = new Map<string, Promise<IDataObject[]>>();
	const listing = (inspectionId: string) => {
		let attachments = listings.get(inspectionId);
		if (!attachments) {
			attachments = listAll(this, inspectionId);
			listings.set(inspectionId, attachments);
		}
		return attachments;
	};

	return await forEachItem(this, items, async (itemIndex) => {
		let json: IDataObject;
		let url: string;
		if (this.getNodeParameter('source', itemIndex) === 'url') {
			json = items[itemIndex].json;
			url = (this.getNodeParameter('url', itemIndex) as string).trim();
		} else {
			const inspectionId = this.getNodeParameter('inspection_id', itemIndex) as string;
			const attachmentId = (this.getNodeParameter('attachment_id', itemIndex) as string).trim();
			json = findAttachment(
				this,
				await listing(inspectionId),
				inspectionId,
				attachmentId,
				itemIndex,
			);
			url = json.url as string;
		}
		if (!url) {
			throw new NodeOperationError(this.getNode(), 'URL: no link to download', {
				itemIndex,
				description: 'Map URL to the url (or photo_url, cover_photo_url) of a record.',
			});
		}
		const file = await downloadSignedLink.call(this, url);
		const binary = await this.helpers.prepareBinaryData(
			file.data,
			file.fileName ?? (json.filename as string | undefined),
			file.mimeType ?? (json.content_type as string | undefined),
		);
		const property = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		return [{ json, binary: { [property]: binary }, pairedItem: { item: itemIndex } }];
	});
}

async function listAll(ctx: IExecuteFunctions, inspectionId: string): Promise<IDataObject[]> {
	return await readAll.call(ctx, endpoint, { pathParams: { inspection_id: inspectionId } });
}

function findAttachment(
	ctx: IExecuteFunctions,
	attachments: IDataObject[],
	inspectionId: string,
	attachmentId: string,
	itemIndex: number,
): IDataObject {
	const attachment = attachments.find((a) => a.id === attachmentId);
	if (!attachment) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Attachment ${attachmentId} not found on inspection ${inspectionId}`,
			{
				itemIndex,
				description: 'Attachment IDs are unique within their inspection only: check both IDs.',
			},
		);
	}
	if (!attachment.url) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Attachment ${attachmentId} has no file to download`,
			{
				itemIndex,
				description:
					'A report may be only a name and a description (for example a link) without a file.',
			},
		);
	}
	return attachment;
}
