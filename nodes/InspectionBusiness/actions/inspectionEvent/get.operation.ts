import { getOperation } from '../../helpers/getOperation';

/** Reads events by ids, which the assumed events list takes (eventsPath). */
export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'inspectionEvent',
	endpoint: 'listEvents',
	record: 'Inspection Event',
	picker: 'event',
	notFoundHint:
		'No inspection event with this ID exists in the account of this credential. Check the ID and the credential.',
});
