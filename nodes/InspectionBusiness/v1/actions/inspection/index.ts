import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operations';
import * as downloadCoverPhoto from './downloadCoverPhoto.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { downloadCoverPhoto, get, getAll } satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['inspection'] } },
		options: [
			{
				name: 'Download Cover Photo',
				value: 'downloadCoverPhoto',
				description: 'Download the cover photo of an inspection into a binary field',
				action: 'Download the cover photo of an inspection',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get an inspection by ID, canceled ones included',
				action: 'Get an inspection',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many inspections',
				action: 'Get many inspections',
			},
		],
		default: 'get',
	},
	...downloadCoverPhoto.description,
	...get.description,
	...getAll.description,
];
