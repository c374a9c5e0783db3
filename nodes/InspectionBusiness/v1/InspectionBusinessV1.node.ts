import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { ICON, versionDescription } from './actions/versionDescription';
import { searchAgencies } from './methods/listSearch';
import { getTagIds, getTags } from './methods/loadOptions';

export class InspectionBusinessV1 implements INodeType {
	description: INodeTypeDescription = {
		...versionDescription,
		group: ['transform'],
		icon: ICON,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		usableAsTool: true,
	};

	methods = {
		loadOptions: { getTags, getTagIds },
		listSearch: { searchAgencies },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
