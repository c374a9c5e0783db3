import { countOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'inspectionEvent',
	endpoint: 'listEvents',
	records: 'events',
});
