import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { ICON, nodeDescription, subtitleExpression } from './actions/nodeDescription';
import {
	searchAgencies,
	searchAttachments,
	searchContacts,
	searchEvents,
	searchInspections,
} from './methods/listSearch';
import { getTagIds, getTags } from './methods/loadOptions';

export class InspectionBusinessActionNode implements INodeType {
	description: INodeTypeDescription = {
		...nodeDescription,
		group: ['transform'],
		icon: ICON,
		subtitle: subtitleExpression(nodeDescription.properties),
		usableAsTool: true,
	};

	methods = {
		loadOptions: { getTags, getTagIds },
		listSearch: {
			searchAgencies,
			searchAttachments,
			searchContacts,
			searchEvents,
			searchInspections,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
