import { countOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'inspection',
	endpoint: 'listInspections',
	records: 'inspections',
});
