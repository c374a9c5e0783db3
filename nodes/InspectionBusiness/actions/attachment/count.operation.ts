import { countOperation } from '../../helpers/countOperation';

export const { description, execute, endpoint, queryScope } = countOperation({
	resource: 'attachment',
	endpoint: 'listAttachments',
	records: 'attachments',
});
