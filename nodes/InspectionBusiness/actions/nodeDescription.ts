import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { ACTION_NODE_DESCRIPTION } from '../../shared/descriptions';

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

/**
 * The canvas subtitle in words, as resource and operation ("Contact: Get
 * Many"): the node's name is the operation's action ("Get many contacts"), so
 * the subtitle says it another way rather than repeat it in other casing, and
 * still tells what a renamed node does.
 */
export function subtitleExpression(properties: INodeProperties[]): string {
	const resourceNames: Record<string, string> = {};
	const resourceProperty = properties.find((property) => property.name === 'resource');
	for (const option of (resourceProperty?.options ?? []) as INodePropertyOptions[])
		resourceNames[String(option.value)] = option.name;
	const subtitles: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation') continue;
		const resource = (property.displayOptions?.show?.resource as string[])[0];
		for (const option of property.options as INodePropertyOptions[]) {
			subtitles[`${resource}:${String(option.value)}`] =
				`${resourceNames[resource] ?? resource}: ${option.name}`;
		}
	}
	return `={{ (${JSON.stringify(subtitles)})[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

/**
 * The node's description, one for versions 1 and 2, less what
 * `InspectionBusinessActionNode`'s class literal adds (group, icon, subtitle,
 * tool use). Each operation's record-id fields carry their version 1 and
 * version 2 variants (`recordIdField`; what version 1 does differently:
 * helpers/versions.ts).
 */
export const nodeDescription: Omit<INodeTypeDescription, 'group'> = {
	displayName: 'Inspection Business',
	name: 'inspectionBusiness',
	version: [1, 2],
	description: ACTION_NODE_DESCRIPTION,
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
				// The API calls them inspection events; the value stays, so saved workflows keep working.
				{ name: 'Appointment', value: 'inspectionEvent' },
				{ name: 'Attachment', value: 'attachment' },
				{ name: 'Contact', value: 'contact' },
				{ name: 'Contact Statistic', value: 'contactStats' },
				{ name: 'Inspection', value: 'inspection' },
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
