import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { continueOrThrow, errorItem } from './helpers/execution';
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

	/**
	 * Runs the operation the router picks: all items at once when they share
	 * requests, else item by item. A failing item stops the node (its error
	 * tagged with its index) or, with continue-on-fail, becomes an error item.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = router.call(this);
		const items = this.getInputData();
		if ('executeBatch' in operation) return [await operation.executeBatch.call(this, items)];
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				for (const item of await operation.execute.call(this, itemIndex)) output.push(item);
			} catch (error) {
				output.push(errorItem(continueOrThrow(this, error, itemIndex), itemIndex));
			}
		}
		return [output];
	}
}
