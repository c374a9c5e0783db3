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
		displayOptions: { show: { resource: ['contactStats'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get inspection counts and revenue for many contacts',
				action: 'Get many contact statistics',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
