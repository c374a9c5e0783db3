import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { get, getAll } satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contactStats'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get the statistics of chosen contacts: returns per contact the number of inspections (as buying agent, listing agent, client), revenue and first, last and upcoming inspections',
				action: 'Get statistics of a contact',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get inspection counts and revenue for many contacts: returns one item per contact with its inspection counts by role and revenue',
				action: 'Get many contact statistics',
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
];
