import type { IExecuteFunctions } from 'n8n-workflow';

/** The file of an item's binary property, as the transport's uploadFile takes it. */
export async function readBinaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
): Promise<{ data: Buffer; fileName: string; mimeType: string }> {
	const property = ctx.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	const extension = binary.fileExtension ? `.${binary.fileExtension}` : '';
	return {
		data,
		fileName: binary.fileName ?? `${property}${extension}`,
		mimeType: binary.mimeType,
	};
}
