/**
 * Download Photo (contact) and Download Cover Photo (inspection): each item's
 * record is read by ID, all items together (⌈unique/200⌉ requests, A2), for a
 * link signed moments ago (links expire after an hour), and the file behind
 * the link is fetched without the API key (A16) into a binary property: M items
 * cost ⌈unique/200⌉ API requests plus M downloads.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';
import { recordIdField } from '../../shared/fields';
import { binaryPropertyField, downloadToBinary } from './download';
import { getRecords } from './get';
import { idsParamOf } from './list';
import type { Operation } from './operations';

export function recordFileOperation(config: {
	resource: string;
	operation: string;
	endpoint: EndpointKey;
	/** The record's name, e.g. "Contact". */
	record: string;
	/** The record field holding the signed link, e.g. photo_url. */
	urlField: string;
	/** The file's name in messages, e.g. "photo". */
	file: string;
	notFoundHint: string;
	/** Why a record may have no file, and what to do. */
	noFileHint: string;
}): Operation {
	const { endpoint, record, urlField, file } = config;
	const idsParam = idsParamOf(endpoint);
	if (!idsParam) throw new Error(`Endpoint table: ${endpoint} cannot be read by IDs`);
	const properties: INodeProperties[] = [
		{
			...recordIdField(record),
			description: `ID of the ${record.toLowerCase()} whose ${file} to download. All input items are read together for fresh links.`,
		},
		binaryPropertyField,
	];

	async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		return await getRecords.call(this, items, {
			endpoint,
			record,
			notFoundHint: config.notFoundHint,
			finish: async function (
				this: IExecuteFunctions,
				itemIndex: number,
				item: INodeExecutionData,
			) {
				const url = item.json[urlField];
				if (typeof url !== 'string' || url === '') {
					throw new NodeOperationError(
						this.getNode(),
						`${record} ${String(item.json.id)} has no ${file}`,
						{ itemIndex, description: config.noFileHint },
					);
				}
				return { ...item, binary: await downloadToBinary(this, itemIndex, url) };
			},
		});
	}

	return {
		description: updateDisplayOptions(
			{ show: { resource: [config.resource], operation: [config.operation] } },
			properties,
		),
		execute,
		endpoint,
		queryScope: [idsParam],
	};
}
