import { INSPECTION_SIMPLIFY } from '../../helpers/shape';
import { listOperation } from '../../helpers/operations';

export const { description, execute, endpoint } = listOperation({
	resource: 'inspection',
	operation: 'getAll',
	endpoint: 'listInspections',
	simplify: INSPECTION_SIMPLIFY,
});
