import { getOperation } from '../../helpers/getOperation';

export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'agency',
	endpoint: 'listAgencies',
	record: 'Agency',
	picker: 'agency',
	notFoundHint:
		'No agency with this ID exists in the account of this credential. Check the ID and the credential.',
});
