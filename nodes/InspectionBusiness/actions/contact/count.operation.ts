import { countOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'contact',
	endpoint: 'listContacts',
	records: 'contacts',
});
