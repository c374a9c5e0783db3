import { listOperation } from '../../helpers/operations';

export const { description, execute, endpoint } = listOperation({
	resource: 'tag',
	operation: 'getAll',
	endpoint: 'listTags',
});
