import { getOperation } from '../../helpers/getOperation';

/**
 * Get: all items' agencies read together from GET /v1/agencies?ids=… (endpoint table:
 * `listAgencies`), 200 IDs per request (helpers/batchedGet.ts).
 */
export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'agency',
	endpoint: 'listAgencies',
	record: 'Agency',
	picker: 'agency',
	notFoundHint:
		'No agency with this ID exists in the account of this credential. Check the ID and the credential.',
});
