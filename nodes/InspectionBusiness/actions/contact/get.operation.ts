import { CONTACT_SIMPLIFY } from '../../helpers/simplifyOption';
import { getOperation } from '../../helpers/getOperation';

export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'contact',
	endpoint: 'listContacts',
	record: 'Contact',
	picker: 'contact',
	simplify: CONTACT_SIMPLIFY,
	notFoundHint:
		'No contact with this ID exists in the account of this credential. Check the ID and the credential.',
});
