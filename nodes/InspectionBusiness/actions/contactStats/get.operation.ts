import { getOperation } from '../../helpers/operations';

/** The statistics of chosen contacts, read by contact_ids (A8) and batched like every Get. */
export const { description, execute, endpoint, queryScope } = getOperation({
	resource: 'contactStats',
	endpoint: 'listContactStats',
	record: 'Contact',
	options: ['from', 'to'],
	notFoundHint:
		'No contact with this ID exists in the account of this credential. Check the ID and the credential.',
});
