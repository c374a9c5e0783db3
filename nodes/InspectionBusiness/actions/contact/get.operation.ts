import { CONTACT_SIMPLIFY } from '../../helpers/shape';
import { getOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = getOperation({
	resource: 'contact',
	endpoint: 'listContacts',
	record: 'Contact',
	simplify: CONTACT_SIMPLIFY,
	notFoundHint:
		'No contact with this ID exists in the account of this credential. Check the ID and the credential.',
});
