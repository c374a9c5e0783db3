import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operations';
import * as getAll from './getAll.operation';

export const operations = { getAll } satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many tags with the number of contacts holding each',
				action: 'Get many tags',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
