import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { pathIdField } from '../../../shared/fields';
import { apiRequest } from '../../../shared/transport/request';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';

export const endpoint: EndpointKey = 'deleteContactPhoto';

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['deletePhoto'] } },
	[
		...recordIdField(
			'contact',
			pathIdField(
				'contact_id',
				'The contact whose photo to remove; removing a photo that is already gone is not an error',
			),
		),
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const contactId = recordId(this, 'contact', 'contact_id', itemIndex);
	const contact = (await apiRequest.call(this, endpoint, {
		pathParams: { contact_id: contactId },
	})) as IDataObject;
	return [{ json: contact, pairedItem: { item: itemIndex } }];
}
