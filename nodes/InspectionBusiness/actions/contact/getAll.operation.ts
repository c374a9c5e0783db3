import { CONTACT_SIMPLIFY } from '../../helpers/shape';
import { listOperation } from '../../helpers/operations';

export const { description, execute, endpoint } = listOperation({
	resource: 'contact',
	operation: 'getAll',
	endpoint: 'listContacts',
	simplify: CONTACT_SIMPLIFY,
});
