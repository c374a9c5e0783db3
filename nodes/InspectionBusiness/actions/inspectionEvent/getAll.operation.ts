import { listOperation } from '../../helpers/operations';

/** Calendar appointments on inspections (A9: path and filters). */
export const { description, execute, endpoint } = listOperation({
	resource: 'inspectionEvent',
	operation: 'getAll',
	endpoint: 'listEvents',
});
