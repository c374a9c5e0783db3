import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { pathIdField } from '../../../shared/fields';
import { apiRequest } from '../../../shared/transport/request';
import { forEachIdItem } from '../../helpers/execution';

export const endpoint: EndpointKey = 'deleteContactPhoto';

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['deletePhoto'] } },
	[
		pathIdField(
			'contact_id',
			'The contact whose photo to remove; removing a photo that is already gone is not an error',
		),
	],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachIdItem(this, items, 'contact_id', async (contactId, itemIndex) => {
		const contact = (await apiRequest.call(this, endpoint, {
			pathParams: { contact_id: contactId },
		})) as IDataObject;
		return [{ json: contact, pairedItem: { item: itemIndex } }];
	});
}
