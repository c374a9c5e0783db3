import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operation';
import * as count from './count.operation';
import * as getAll from './getAll.operation';

export const operations = { count, getAll } satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count the tags in one request: returns one item, { count }, without the records',
				action: 'Count tags',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many tags: returns one item per tag with its ID, name and the number of contacts holding it',
				action: 'Get many tags',
			},
		],
		default: 'getAll',
	},
	...count.description,
	...getAll.description,
];
