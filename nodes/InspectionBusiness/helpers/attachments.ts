import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readAll } from '../../shared/transport';
import { recordId } from './locatorsByVersion';

/** Each execution's inspection attachment lists, by inspection id; n8n gives each run its own context. */
const listingsByRun = new WeakMap<IExecuteFunctions, Map<string, Promise<IDataObject[]>>>();

/**
 * The attachment named by the item's Inspection ID and Attachment ID (an
 * attachment id is unique within its inspection only). Each inspection's list
 * is read once per execution and shared by the items that look into it.
 */
export async function findAttachment(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const inspectionId = recordId(ctx, 'inspection', 'inspection_id', itemIndex);
	const attachmentId = recordId(ctx, 'attachment', 'attachment_id', itemIndex);
	let listings = listingsByRun.get(ctx);
	if (!listings) {
		listings = new Map();
		listingsByRun.set(ctx, listings);
	}
	let listing = listings.get(inspectionId);
	if (!listing) {
		listing = readAll.call(ctx, 'listInspectionAttachments', {
			pathParams: { inspection_id: inspectionId },
		});
		listings.set(inspectionId, listing);
	}
	const attachment = (await listing).find((a) => String(a.id) === attachmentId);
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
}
