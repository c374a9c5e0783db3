import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../../shared/endpoints';
import { readAll } from '../../../shared/transport/pages';

import { CONTACT_SIMPLIFY, outputShape, simplifyProperties } from '../../helpers/simplifyOption';

/** The contacts list's `email` filter: exact match, case-insensitive. */
export const endpoint: EndpointKey = 'listContacts';
export const queryScope: readonly string[] = ['email'];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['getByEmail'] } },
	[
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'name@email.com',
			description:
				'The email address to look up: an exact match, ignoring case (CC addresses are not searched)',
		},
		...simplifyProperties(CONTACT_SIMPLIFY),
	],
);

/**
 * One request per item. Every contact with the address is returned (the API
 * does not say emails are unique); none is an item-level "not found".
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const email = String(this.getNodeParameter('email', itemIndex, '')).trim();
	if (!email) {
		throw new NodeOperationError(this.getNode(), 'Email: no address to look up', {
			itemIndex,
			description: 'Set Email, or check the expression that sets it.',
		});
	}
	const shape = outputShape(this, itemIndex, CONTACT_SIMPLIFY);
	const contacts = await readAll.call(this, endpoint, { query: { email } });
	const output: INodeExecutionData[] = contacts.map((contact) => ({
		json: shape ? shape(contact) : contact,
		pairedItem: { item: itemIndex },
	}));
	if (output.length === 0) {
		throw new NodeOperationError(this.getNode(), `No contact with email ${email}`, {
			itemIndex,
			description:
				"The address is matched exactly, ignoring case, among the contacts of this credential's account. To go on without it, turn on Settings › On Error › Continue.",
		});
	}
	return output;
}
