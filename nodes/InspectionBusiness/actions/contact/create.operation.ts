import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { bodyCollection, bodyFields, bodyProperties } from '../../../shared/fields';
import { apiRequest } from '../../../shared/transport/request';
import { underRule } from '../../../shared/validation';
import { assertNoExclusiveConflict } from '../../helpers/contactBody';

import { dateTimeZone } from '../../helpers/timezone';
import { bodyValues } from '../../helpers/wireValues';

export const endpoint: EndpointKey = 'createContact';

/** ContactCreate's required fields stand on their own; the rest are Additional Fields. */
const REQUIRED = bodyFields(endpoint)
	.filter((f) => f.required)
	.map((f) => f.name);

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['create'] } },
	[
		...bodyProperties(endpoint, REQUIRED),
		bodyCollection(
			endpoint,
			{ displayName: 'Additional Fields', name: 'additionalFields' },
			REQUIRED,
		),
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const values: IDataObject = {
		...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	for (const name of REQUIRED) values[name] = this.getNodeParameter(name, itemIndex);
	const body = underRule(this.getNode(), () => bodyValues(endpoint, values, dateTimeZone(this)));
	assertNoExclusiveConflict(this, endpoint, body, itemIndex);
	const contact = (await apiRequest.call(this, endpoint, { body })) as IDataObject;
	return [{ json: contact, pairedItem: { item: itemIndex } }];
}
