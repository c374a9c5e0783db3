import { countOperation } from '../../helpers/operations';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'attachment',
	endpoint: 'listAttachments',
	records: 'attachments',
});
