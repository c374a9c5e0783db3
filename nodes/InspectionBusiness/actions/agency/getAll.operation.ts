import { listOperation } from '../../helpers/operations';

export const { description, execute, endpoint } = listOperation({
	resource: 'agency',
	operation: 'getAll',
	endpoint: 'listAgencies',
});
