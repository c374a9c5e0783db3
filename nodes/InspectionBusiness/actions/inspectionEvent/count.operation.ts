import { countOperation } from '../../helpers/countOperation';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'inspectionEvent',
	endpoint: 'listEvents',
	records: 'events',
});
