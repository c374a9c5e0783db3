import { listAttachments, listInspectionAttachments, uploadAttachment } from './attachments';
import { listAgencies, listTags } from './catalog';
import {
	createContact,
	deleteContactPhoto,
	updateContact,
	uploadContactPhoto,
} from './contact-handlers';
import { listContacts } from './contacts';
import type { ApiHandlers } from './context';
import { listEvents, listInspections } from './inspections';
import { listContactStats } from './stats';

/** The handler of every endpoint in the table (TypeScript checks none is missing). */
export const HANDLERS: ApiHandlers = {
	listContacts,
	createContact,
	updateContact,
	uploadContactPhoto,
	deleteContactPhoto,
	listContactStats,
	listTags,
	listAgencies,
	listInspections,
	listEvents,
	listInspectionAttachments,
	listAttachments,
	uploadAttachment,
};
