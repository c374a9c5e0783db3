import { getOperation } from '../../helpers/getOperation';

/**
 * Get: all items' contacts' statistics read together from GET /v1/contacts/stats?contact_ids=…
 * (endpoint table: `listContactStats`), 200 IDs per request (helpers/batchedGet.ts), with From
 * and To as Options. The statistics of chosen contacts, batched like every Get: the statistics
 * list takes the
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
