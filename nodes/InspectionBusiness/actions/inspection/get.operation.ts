import { INSPECTION_SIMPLIFY } from '../../helpers/simplifyOption';
import { getOperation } from '../../helpers/getOperation';

/**
 * Get: all items' inspections read together from GET /v1/inspections?ids=… (endpoint table:
 * `listInspections`), 200 IDs per request (helpers/batchedGet.ts); Simplify shapes each.
 * Reads by ids, which also returns canceled inspections; deleted ones need include_deleted.
 */
export const { description, executeBatch, endpoint, queryScope } = getOperation({
	resource: 'inspection',
	endpoint: 'listInspections',
	record: 'Inspection',
	picker: 'inspection',
	options: ['include_deleted'],
	simplify: INSPECTION_SIMPLIFY,
	notFoundHint:
		'No inspection with this ID exists in the account of this credential. A deleted inspection is found only with the Include Deleted option.',
});
