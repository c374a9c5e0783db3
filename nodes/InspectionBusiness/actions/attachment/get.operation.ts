import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { attachmentIdField, pathIdField } from '../../../shared/fields';
import { attachmentFinder } from '../../helpers/attachments';
import { forEachItem } from '../../helpers/execution';

/** Get reads the inspection's attachment list (attachment ids are unique within it only). */
export const endpoint: EndpointKey = 'listInspectionAttachments';
export const queryScope: readonly string[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['get'] } },
	[pathIdField('inspection_id', 'The inspection the attachment belongs to'), attachmentIdField],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const findAttachment = attachmentFinder(this);
	return await forEachItem(this, items, async (itemIndex) => {
		const json = await findAttachment(itemIndex);
		return [{ json, pairedItem: { item: itemIndex } }];
	});
}
