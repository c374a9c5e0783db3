import { listOperation } from '../../helpers/listOperation';

export const { description, execute, endpoint } = listOperation({
	resource: 'agency',
	operation: 'getAll',
	endpoint: 'listAgencies',
});
