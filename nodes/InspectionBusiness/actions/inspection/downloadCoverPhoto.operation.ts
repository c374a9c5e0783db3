import { recordFileOperation } from '../../helpers/recordFileOperation';

/** Reads by ids, which also returns canceled inspections. */
export const { description, executeBatch, endpoint, queryScope } = recordFileOperation({
	resource: 'inspection',
	operation: 'downloadCoverPhoto',
	endpoint: 'listInspections',
	record: 'Inspection',
	picker: 'inspection',
	urlField: 'cover_photo_url',
	file: 'cover photo',
	notFoundHint:
		'No inspection with this ID exists in the account of this credential, or it was deleted.',
	noFileHint:
		'Nothing was downloaded. To go on with the other items, set the node\'s On Error setting to "Continue".',
});
