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
		displayOptions: { show: { resource: ['inspectionEvent'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many inspection events (appointments such as a drop-off or pick-up)',
				action: 'Get many inspection events',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
