import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../helpers/operation';
import * as count from './count.operation';
import * as create from './create.operation';
import * as deletePhoto from './deletePhoto.operation';
import * as downloadPhoto from './downloadPhoto.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getByEmail from './getByEmail.operation';
import * as update from './update.operation';
import * as uploadPhoto from './uploadPhoto.operation';
import * as upsert from './upsert.operation';

export const operations = {
	count,
	create,
	deletePhoto,
	downloadPhoto,
	get,
	getAll,
	getByEmail,
	update,
	uploadPhoto,
	upsert,
} satisfies Record<string, Operation>;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count the contacts matching the filters in one request: returns one item, { count }, without the records',
				action: 'Count contacts',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a contact',
				action: 'Create a contact',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a contact',
			},
			{
				name: 'Delete Photo',
				value: 'deletePhoto',
				description: 'Remove the photo of a contact',
				action: 'Delete the photo of a contact',
			},
			{
				name: 'Download Photo',
				value: 'downloadPhoto',
				description: 'Download the photo of a contact into a binary field',
				action: 'Download the photo of a contact',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a contact by ID: returns its name, email, phone, business, agency, address and tags (all fields with Simplify off)',
				action: 'Get a contact',
			},
			{
				name: 'Get by Email',
				value: 'getByEmail',
				description:
					'Get the contacts with an email address (exact, ignoring case): returns each with its name, email, phone, business, agency, address and tags; none found is an error',
				action: 'Get a contact by email',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many contacts, filtered or searched: returns one item per contact with its name, email, phone, business, agency, address and tags',
				action: 'Get many contacts',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update a contact',
				action: 'Update a contact',
			},
			{
				name: 'Upload Photo',
				value: 'uploadPhoto',
				description: 'Upload or replace the photo of a contact',
				action: 'Upload a photo for a contact',
			},
		],
		default: 'get',
	},
	...count.description,
	...create.description,
	...deletePhoto.description,
	...downloadPhoto.description,
	...get.description,
	...getAll.description,
	...getByEmail.description,
	...update.description,
	...uploadPhoto.description,
	...upsert.description,
];
