import { simplifyInspection } from '../../helpers/simplify';
import { listOperation } from '../../helpers/operations';

export const { description, execute, endpoint } = listOperation({
	resource: 'inspection',
	operation: 'getAll',
	endpoint: 'listInspections',
	simplify: simplifyInspection,
});
