import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readAll } from '../../shared/transport/pages';

/** Each execution's inspection attachment lists, by inspection id; n8n gives each run its own context. */
const listingsByRun = new WeakMap<IExecuteFunctions, Map<string, Promise<IDataObject[]>>>();

/**
 * The attachments of an inspection, read once per execution and shared by the
 * items that look into it (an attachment id is unique within its inspection
 * only, so Get and Download read the inspection's list).
 */
export function inspectionAttachments(
	ctx: IExecuteFunctions,
	inspectionId: string,
): Promise<IDataObject[]> {
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
	return listing;
}

/** The attachment with the item's Attachment ID in its inspection's list; none fails the item. */
export function attachmentIn(
	ctx: IExecuteFunctions,
	attachments: IDataObject[],
	ids: { inspectionId: string; attachmentId: string },
	itemIndex: number,
): IDataObject {
	const { inspectionId, attachmentId } = ids;
	const attachment = attachments.find((a) => String(a.id) === attachmentId);
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
