import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { binaryInputField, pathIdField } from '../../../shared/fields';
import { uploadFile } from '../../../shared/transport/upload';
import { readBinaryFile, uploadOptionsField } from '../../helpers/binary';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';

export const endpoint = 'uploadContactPhoto' satisfies EndpointKey;

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['uploadPhoto'] } },
	[
		...recordIdField(
			'contact',
			pathIdField('contact_id', 'The contact whose photo to set; a new photo replaces the old one'),
		),
		binaryInputField,
		uploadOptionsField,
	],
);

/** Type and size are checked by `uploadFile` (FILE_RULES.photo) before anything is sent. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const contactId = recordId(this, 'contact', 'contact_id', itemIndex);
	const file = await readBinaryFile(this, itemIndex, 'photo');
	const contact = await uploadFile.call(this, endpoint, {
		pathParams: { contact_id: contactId },
		fields: {},
		file,
		rule: 'photo',
	});
	return [{ json: contact, pairedItem: { item: itemIndex } }];
}
