import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { attachmentIdField, pathIdField } from '../../../shared/fields';
import { attachmentIn, inspectionAttachments } from '../../helpers/attachments';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';

/** Get reads the inspection's attachment list (attachment ids are unique within it only). */
export const endpoint: EndpointKey = 'listInspectionAttachments';
export const queryScope: readonly string[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['get'] } },
	[
		...recordIdField(
			'inspection',
			pathIdField('inspection_id', 'The inspection the attachment belongs to'),
		),
		...recordIdField('attachment', attachmentIdField),
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const inspectionId = recordId(this, 'inspection', 'inspection_id', itemIndex);
	const attachmentId = recordId(this, 'attachment', 'attachment_id', itemIndex);
	const attachments = await inspectionAttachments(this, inspectionId);
	const json = attachmentIn(this, attachments, { inspectionId, attachmentId }, itemIndex);
	return [{ json, pairedItem: { item: itemIndex } }];
}
