import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operations';
import * as download from './download.operation';
import * as getAll from './getAll.operation';
import * as getAllForInspection from './getAllForInspection.operation';
import * as upload from './upload.operation';

export const operations = { download, getAll, getAllForInspection, upload } satisfies Record<
	string,
	Operation
>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['attachment'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description: "Download an attachment's file",
				action: 'Download an attachment',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many attachments across the account, newest change first',
				action: 'Get many attachments',
			},
			{
				name: 'Get Many for Inspection',
				value: 'getAllForInspection',
				description: "Get an inspection's additional reports and documents",
				action: 'Get many attachments of an inspection',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload an additional report or document to an inspection',
				action: 'Upload an attachment',
			},
		],
		default: 'getAllForInspection',
	},
	...download.description,
	...getAll.description,
	...getAllForInspection.description,
	...upload.description,
];
