import { countOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'agency',
	endpoint: 'listAgencies',
	records: 'agencies',
});
