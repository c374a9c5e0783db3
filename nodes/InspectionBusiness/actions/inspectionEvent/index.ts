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
		displayOptions: { show: { resource: ['inspectionEvent'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count the appointments matching the filters in one request: returns one item, { count }, without the records',
				action: 'Count appointments',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an appointment on an inspection, such as a drop-off or pick-up, by ID: returns its name, description, inspection, start and end, duration and inspectors',
				action: 'Get an appointment',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many appointments on inspections, such as a drop-off or pick-up: returns one item per appointment with its inspection, start and end, duration and inspectors',
				action: 'Get many appointments',
			},
		],
		default: 'getAll',
	},
	...count.description,
	...get.description,
	...getAll.description,
];
