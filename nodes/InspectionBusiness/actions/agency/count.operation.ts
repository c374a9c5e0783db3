import { countOperation } from '../../helpers/countOperation';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'agency',
	endpoint: 'listAgencies',
	records: 'agencies',
});
