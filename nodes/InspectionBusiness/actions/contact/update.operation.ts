import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { bodyCollection, fieldsToClear, pathIdField } from '../../../shared/fields';
import { apiRequest } from '../../../shared/transport/request';
import { underRule } from '../../../shared/validation';
import { addFieldsToClear, assertNoExclusiveConflict } from '../../helpers/contactBody';
import { recordId, recordIdField } from '../../helpers/locatorsByVersion';
import { dateTimeZone } from '../../helpers/timezone';
import { bodyValues } from '../../helpers/wireValues';

export const endpoint: EndpointKey = 'updateContact';

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['update'] } },
	[
		...recordIdField('contact', pathIdField('contact_id', 'The contact to update')),
		bodyCollection(endpoint, {
			displayName: 'Update Fields',
			name: 'updateFields',
			description:
				'Fields to change; the others stay as they are. An empty value changes nothing: use Fields to Clear.',
		}),
		fieldsToClear(endpoint),
	],
);

/**
 * PATCH sends only what changes: the Update Fields that are set, and null (or
 * an empty tag list) for each of Fields to Clear. Everything else is left as is.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const contactId = recordId(this, 'contact', 'contact_id', itemIndex);
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = underRule(this.getNode(), () =>
		bodyValues(endpoint, updateFields, dateTimeZone(this)),
	);
	addFieldsToClear(this, endpoint, body, itemIndex, 'Update Fields');
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			itemIndex,
			description: 'Add a field to Update Fields, or pick one in Fields to Clear.',
		});
	}
	assertNoExclusiveConflict(this, endpoint, body, itemIndex);
	const contact = (await apiRequest.call(this, endpoint, {
		pathParams: { contact_id: contactId },
		body,
	})) as IDataObject;
	return [{ json: contact, pairedItem: { item: itemIndex } }];
}
