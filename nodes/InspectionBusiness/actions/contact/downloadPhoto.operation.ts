import { recordFileOperation } from '../../helpers/recordFileOperation';

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
