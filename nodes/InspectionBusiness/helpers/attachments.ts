import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readAll } from '../../shared/transport/pages';
import { locatorParameter } from './locatorsByVersion';

/**
 * Finds attachments by inspection plus attachment id (an attachment id is
 * unique within its inspection only). Each inspection's list is read once per
 * execution and shared by the items that look into it.
 */
export function attachmentFinder(ctx: IExecuteFunctions) {
	const listings = new Map<string, Promise<IDataObject[]>>();
	const listing = (inspectionId: string) => {
		let attachments = listings.get(inspectionId);
		if (!attachments) {
			attachments = listAll(ctx, inspectionId);
			listings.set(inspectionId, attachments);
		}
		return attachments;
	};
	/** The attachment named by the item's Inspection ID and Attachment ID. */
	return async (itemIndex: number): Promise<IDataObject> => {
		const inspectionId = locatorParameter(ctx, 'inspection_id', itemIndex);
		const attachmentId = locatorParameter(ctx, 'attachment_id', itemIndex);
		const attachment = (await listing(inspectionId)).find((a) => String(a.id) === attachmentId);
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
		return attachment;
	};
}

async function listAll(ctx: IExecuteFunctions, inspectionId: string): Promise<IDataObject[]> {
	return await readAll.call(ctx, 'listInspectionAttachments', {
		pathParams: { inspection_id: inspectionId },
	});
}
