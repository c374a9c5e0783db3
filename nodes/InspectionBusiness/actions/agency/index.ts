import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operation';
import * as count from './count.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { count, get, getAll } satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['agency'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count the agencies in one request: returns one item, { count }, without the records',
				action: 'Count agencies',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an agency by ID: returns its name, address, phone, website, notes and how many contacts are linked to it',
				action: 'Get an agency',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many agencies: returns one item per agency with its name, address, phone, website and linked contact count',
				action: 'Get many agencies',
			},
		],
		default: 'get',
	},
	...count.description,
	...get.description,
	...getAll.description,
];
