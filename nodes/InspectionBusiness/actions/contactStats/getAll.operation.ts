import { listOperation } from '../../helpers/listOperation';

/**
 * Inspection counts and revenue per contact. The API names neither the path nor the date
 * filters; the package assumes `/v1/contacts/stats` with `from` and `to` (contactStatsPath).
 */
export const { description, execute, endpoint } = listOperation({
	resource: 'contactStats',
	operation: 'getAll',
	endpoint: 'listContactStats',
});
