import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operations';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { get, getAll } satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agency'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get an agency by ID', action: 'Get an agency' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many agencies',
				action: 'Get many agencies',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
];
