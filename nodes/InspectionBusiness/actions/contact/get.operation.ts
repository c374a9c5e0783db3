import { CONTACT_SIMPLIFY } from '../../helpers/simplifyOption';
import { getOperation } from '../../helpers/getOperation';

/**
 * Get: all items' contacts read together from GET /v1/contacts?ids=… (endpoint table:
 * `listContacts`), 200 IDs per request (helpers/batchedGet.ts); Simplify shapes each.
 */
export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'contact',
	endpoint: 'listContacts',
	record: 'Contact',
	picker: 'contact',
	simplify: CONTACT_SIMPLIFY,
	notFoundHint:
		'No contact with this ID exists in the account of this credential. Check the ID and the credential.',
});
