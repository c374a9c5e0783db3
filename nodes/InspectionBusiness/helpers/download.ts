/**
 * A signed link fetched into an item's binary property: Attachment › Download
 * and the record-file downloads (contact photo, cover photo) share it.
 */
import type { IBinaryKeyData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { safeFileName } from '../../shared/filenames';
import { downloadSignedLink } from '../../shared/transport/download';

export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
};

/** Fetches `url` without the API key; the record's own name and type fill in what the answer leaves out; names are safe to write (safeFileName). */
export async function downloadToBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	url: string,
	known: { fileName?: string; mimeType?: string } = {},
): Promise<IBinaryKeyData> {
	const file = await downloadSignedLink.call(ctx, url);
	const binary = await ctx.helpers.prepareBinaryData(
		file.data,
		file.fileName ?? safeFileName(known.fileName),
		file.mimeType ?? known.mimeType,
	);
	const property = ctx.getNodeParameter('binaryPropertyName', itemIndex) as string;
	return { [property]: binary };
}
