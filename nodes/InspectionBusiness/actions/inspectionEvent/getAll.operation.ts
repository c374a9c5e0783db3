import { listOperation } from '../../helpers/listOperation';

/**
 * Calendar appointments on inspections. The API does not name the list's path or filters; the
 * package assumes `/v1/events` (eventsPath).
 */
export const { description, execute, endpoint } = listOperation({
	resource: 'inspectionEvent',
	operation: 'getAll',
	endpoint: 'listEvents',
});
