import { recordFileOperation } from '../../helpers/recordFileOperation';

/**
 * Download Cover Photo: all items' inspections read together from GET /v1/inspections?ids=…
 * (endpoint table: `listInspections`) for fresh signed links, then each cover_photo_url fetched
 * without the key (helpers/recordFileOperation.ts). Reads by ids, which also returns canceled
 * inspections.
 */
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
