import { CONTACT_SIMPLIFY } from '../../helpers/simplifyOption';
import { listOperation } from '../../helpers/listOperation';

export const { description, execute, endpoint } = listOperation({
	resource: 'contact',
	operation: 'getAll',
	endpoint: 'listContacts',
	simplify: CONTACT_SIMPLIFY,
});
