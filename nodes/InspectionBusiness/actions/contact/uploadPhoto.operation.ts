import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { binaryInputField, pathIdField } from '../../../shared/fields';
import { uploadFile } from '../../../shared/transport/upload';
import { readBinaryFile, uploadOptionsField } from '../../helpers/binary';
import { forEachIdItem } from '../../helpers/execution';

export const endpoint = 'uploadContactPhoto' satisfies EndpointKey;

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['uploadPhoto'] } },
	[
		pathIdField('contact_id', 'The contact whose photo to set; a new photo replaces the old one'),
		binaryInputField,
		uploadOptionsField,
	],
);

/** Type and size are checked by `uploadFile` (FILE_RULES.photo) before anything is sent. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachIdItem(this, items, 'contact_id', async (contactId, itemIndex) => {
		const file = await readBinaryFile(this, itemIndex, 'photo');
		const contact = await uploadFile.call(this, endpoint, {
			pathParams: { contact_id: contactId },
			fields: {},
			file,
			rule: 'photo',
		});
		return [{ json: contact, pairedItem: { item: itemIndex } }];
	});
}
