import { INSPECTION_SIMPLIFY } from '../../helpers/simplifyOption';
import { listOperation } from '../../helpers/listOperation';

export const { description, execute, endpoint } = listOperation({
	resource: 'inspection',
	operation: 'getAll',
	endpoint: 'listInspections',
	simplify: INSPECTION_SIMPLIFY,
});
