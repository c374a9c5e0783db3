import { countOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'tag',
	endpoint: 'listTags',
	records: 'tags',
});
