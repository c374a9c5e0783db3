import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operation';
import * as count from './count.operation';
import * as downloadCoverPhoto from './downloadCoverPhoto.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { count, downloadCoverPhoto, get, getAll } satisfies Record<
	string,
	Operation
>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['inspection'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count the inspections matching the filters in one request: returns one item, { count }, without the records',
				action: 'Count inspections',
			},
			{
				name: 'Download Cover Photo',
				value: 'downloadCoverPhoto',
				description: 'Download the cover photo of an inspection into a binary field',
				action: 'Download the cover photo of an inspection',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an inspection by ID, canceled ones included: returns its status, schedule, address, client, agents, price and amount due, payment status and portal link (all fields with Simplify off)',
				action: 'Get an inspection',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many inspections: returns one item per inspection with its status, schedule, address, client, agents, price, amount due, payment status and portal link (all fields with Simplify off)',
				action: 'Get many inspections',
			},
		],
		default: 'get',
	},
	...count.description,
	...downloadCoverPhoto.description,
	...get.description,
	...getAll.description,
];
