import { getOperation } from '../../helpers/getOperation';

/**
 * The statistics of chosen contacts, batched like every Get: the statistics list takes the
 * contacts' ids as `contact_ids` (contactStatsPath).
 */
export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'contactStats',
	endpoint: 'listContactStats',
	record: 'Contact',
	picker: 'contact',
	options: ['from', 'to'],
	notFoundHint:
		'No contact with this ID exists in the account of this credential. Check the ID and the credential.',
});
