import { recordFileOperation } from '../../helpers/recordFileOperation';

/**
 * Download Photo: all items' contacts read together from GET /v1/contacts?ids=… (endpoint table:
 * `listContacts`) for fresh signed links, then each photo_url fetched without the key
 * (helpers/recordFileOperation.ts).
 */
export const { description, executeBatch, endpoint, queryScope } = recordFileOperation({
	resource: 'contact',
	operation: 'downloadPhoto',
	endpoint: 'listContacts',
	record: 'Contact',
	picker: 'contact',
	urlField: 'photo_url',
	file: 'photo',
	notFoundHint:
		'No contact with this ID exists in the account of this credential. Check the ID and the credential.',
	noFileHint:
		'Nothing was downloaded. To go on with the other items, set the node\'s On Error setting to "Continue".',
});
