import { countOperation } from '../../helpers/countOperation';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'tag',
	endpoint: 'listTags',
	records: 'tags',
});
