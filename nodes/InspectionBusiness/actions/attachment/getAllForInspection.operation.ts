import { listOperation } from '../../helpers/listOperation';

export const { description, execute, endpoint } = listOperation({
	resource: 'attachment',
	operation: 'getAllForInspection',
	endpoint: 'listInspectionAttachments',
	pathParamDescription: 'The inspection whose additional reports and documents to list',
});
