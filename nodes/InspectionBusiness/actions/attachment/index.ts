import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operation';
import * as count from './count.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAllForInspection from './getAllForInspection.operation';
import * as upload from './upload.operation';

export const operations = {
	count,
	download,
	get,
	getAll,
	getAllForInspection,
	upload,
} satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['attachment'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count the attachments matching the filters (account-wide, or of one inspection) in one request: returns one item, { count }, without the records',
				action: 'Count attachments',
			},
			{
				name: 'Download',
				value: 'download',
				description:
					"Download an attachment's file: returns the attachment's fields with the file as binary data",
				action: 'Download an attachment',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an attachment of an inspection: returns its kind, name, description, file name, type, size, visibility and a download link valid for an hour',
				action: 'Get an attachment',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many attachments across the account, newest change first: returns one item per attachment with its inspection, kind, name, file details and a download link valid for an hour',
				action: 'Get many attachments',
			},
			{
				name: 'Get Many for Inspection',
				value: 'getAllForInspection',
				description:
					"Get an inspection's additional reports and documents: returns one item per attachment with its kind, name, file details and a download link valid for an hour",
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
	...count.description,
	...download.description,
	...get.description,
	...getAll.description,
	...getAllForInspection.description,
	...upload.description,
];
