import { countOperation } from '../../helpers/countOperation';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'inspection',
	endpoint: 'listInspections',
	records: 'inspections',
});
