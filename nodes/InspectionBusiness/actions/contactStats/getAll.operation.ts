import { listOperation } from '../../helpers/operations';

/** Inspection counts and revenue per contact (A8: path, contact_ids, from/to). */
export const { description, execute, endpoint } = listOperation({
	resource: 'contactStats',
	operation: 'getAll',
	endpoint: 'listContactStats',
});
