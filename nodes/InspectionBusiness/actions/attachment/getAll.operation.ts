import { listOperation } from '../../helpers/listOperation';

/** Account-wide, newest change first; attachments of deleted and sample inspections are left out. */
export const { description, execute, endpoint } = listOperation({
	resource: 'attachment',
	operation: 'getAll',
	endpoint: 'listAttachments',
});
