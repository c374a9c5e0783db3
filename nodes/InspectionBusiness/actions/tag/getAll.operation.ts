import { listOperation } from '../../helpers/listOperation';

export const { description, execute, endpoint } = listOperation({
	resource: 'tag',
	operation: 'getAll',
	endpoint: 'listTags',
});
