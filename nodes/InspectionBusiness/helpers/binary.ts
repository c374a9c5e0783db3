import type { IBinaryData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FILE_RULES } from '../../shared/endpoints';
import { checkFileSize } from '../../shared/rules/files';
import { underRule } from '../../shared/validation';
import type { UploadRule } from '../../shared/transport/upload';

const GENERIC_TYPE = 'application/octet-stream';

/** The upload options every file upload offers: a content type that replaces the binary's own. */
export const uploadOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'uploadOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Content Type',
			name: 'contentType',
			type: 'string',
			default: '',
			placeholder: 'e.g. application/pdf',
			description:
				"The content type to send instead of the binary's MIME type. Without it, a binary typed application/octet-stream is sent with the type of its file extension.",
		},
	],
};

/** The content type of a file extension under a rule (FILE_RULES), if the rule allows it. */
function typeOfExtension(rule: UploadRule, fileName: string): string | undefined {
	const extension = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
	return (FILE_RULES[rule].types as Readonly<Record<string, readonly string[]>>)[extension]?.[0];
}

/**
 * The binary's size as n8n recorded it (`bytes`, else the stored file's
 * metadata, else the length of in-memory base64), without reading its data;
 * undefined when n8n recorded none. The upload checks the real size again.
 */
async function recordedSize(
	ctx: IExecuteFunctions,
	binary: IBinaryData,
): Promise<number | undefined> {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (binary.id) {
		try {
			return (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize;
		} catch {
			return undefined; // the real size is checked once the data is read
		}
	}
	if (typeof binary.data !== 'string' || binary.data === '') return undefined;
	const padding = binary.data.endsWith('==') ? 2 : binary.data.endsWith('=') ? 1 : 0;
	return Math.floor((binary.data.length * 3) / 4) - padding;
}

/**
 * The file of an item's binary property, as the transport's uploadFile takes
 * it. A binary typed application/octet-stream (what many sources give any
 * file) gets the content type of its extension; the Content Type option
 * overrides both.
 */
export async function readBinaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rule: UploadRule,
): Promise<{ data: Buffer; fileName: string; mimeType: string }> {
	const property = ctx.getNodeParameter('binaryPropertyName', itemIndex) as string;
	let binary;
	try {
		binary = ctx.helpers.assertBinaryData(itemIndex, property);
	} catch {
		const present = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
		throw new NodeOperationError(
			ctx.getNode(),
			`Input Binary Field "${property}": the item has no binary data named "${property}"`,
			{
				itemIndex,
				description: `${
					present.length
						? `Its binary fields are: ${present.join(', ')}.`
						: 'The item has no binary data at all.'
				} Set Input Binary Field to the field that holds the file. Nothing was sent to the API.`,
			},
		);
	}
	// The size first: a file over the rule's limit is refused before its data is read.
	const size = await recordedSize(ctx, binary);
	if (size !== undefined) underRule(ctx.getNode(), () => checkFileSize(rule, size));
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	const extension = binary.fileExtension ? `.${binary.fileExtension}` : '';
	const fileName = binary.fileName ?? `${property}${extension}`;
	const override = (
		ctx.getNodeParameter('uploadOptions.contentType', itemIndex, '') as string
	).trim();
	if (override) return { data, fileName, mimeType: override };
	const generic =
		!binary.mimeType || binary.mimeType.split(';')[0].trim().toLowerCase() === GENERIC_TYPE;
	const mimeType = (generic && typeOfExtension(rule, fileName)) || binary.mimeType;
	return { data, fileName, mimeType };
}
