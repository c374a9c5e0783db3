import { getOperation } from '../../helpers/getOperation';

/**
 * Get: all items' events read together from GET /v1/events?ids=… (endpoint table: `listEvents`),
 * 200 IDs per request (helpers/batchedGet.ts); the assumed events list takes ids (eventsPath).
 */
export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'inspectionEvent',
	endpoint: 'listEvents',
	record: 'Appointment',
	picker: 'event',
	notFoundHint:
		'No appointment with this ID exists in the account of this credential. Check the ID and the credential.',
});
