import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeTypeDescription } from 'n8n-workflow';

import * as agency from './agency';
import * as attachment from './attachment';
import * as contact from './contact';
import * as contactStats from './contactStats';
import * as inspection from './inspection';
import * as inspectionEvent from './inspectionEvent';
import * as tag from './tag';

/**
 * The icons, relative to `InspectionBusiness.node.ts`: n8n resolves the icons
 * of every version against the file registered in package.json.
 */
export const ICON = {
	light: 'file:../../icons/inspection-business.svg',
	dark: 'file:../../icons/inspection-business.dark.svg',
} as const;

/** Version 1's description, less what `InspectionBusinessV1`'s class literal adds (group, icon, subtitle, tool use). */
export const versionDescription: Omit<INodeTypeDescription, 'group'> = {
	displayName: 'Inspection Business',
	name: 'inspectionBusiness',
	version: 1,
	description:
		'Read and write contacts, inspections, agencies, tags, events and attachments of an inspection business',
	defaults: { name: 'Inspection Business' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: 'inspectionBusinessApi', required: true }],
	properties: [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Agency', value: 'agency' },
				{ name: 'Attachment', value: 'attachment' },
				{ name: 'Contact', value: 'contact' },
				{ name: 'Contact Statistic', value: 'contactStats' },
				{ name: 'Inspection', value: 'inspection' },
				{ name: 'Inspection Event', value: 'inspectionEvent' },
				{ name: 'Tag', value: 'tag' },
			],
			default: 'contact',
		},
		...agency.description,
		...attachment.description,
		...contact.description,
		...contactStats.description,
		...inspection.description,
		...inspectionEvent.description,
		...tag.description,
	],
};
