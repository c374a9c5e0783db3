import { countOperation } from '../../helpers/countOperation';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'contact',
	endpoint: 'listContacts',
	records: 'contacts',
});
