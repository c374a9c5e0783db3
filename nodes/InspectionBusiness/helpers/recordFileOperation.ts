/**
 * Download Photo (contact) and Download Cover Photo (inspection): each item's
 * record is read by ID, all items together (⌈unique/200⌉ requests, as the API
 * has no path for one record), for a link signed moments ago (links expire
 * after an hour). The file behind the link is fetched without the API key,
 * which signed links do not need (assumption signedLinksWithoutKey), into a
 * binary property: M items cost ⌈unique/200⌉ API requests plus M downloads.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { idsParamOf } from '../../shared/endpoints';
import type { EndpointKey } from '../../shared/endpoints';
import type { LocatorKind } from '../../shared/locators';
import { batchedIdField } from '../../shared/fields';
import { batchedGet } from './batchedGet';
import { binaryPropertyField, downloadToBinary } from './download';
import { recordIdField } from './locatorsByVersion';
import { shownFor, type BatchOperation } from './operation';

interface RecordFileConfig {
	resource: string;
	operation: string;
	endpoint: EndpointKey;
	/** The record's name, e.g. "Contact". */
	record: string;
	/** What the record-id field picks (a locator from version 2). */
	picker: LocatorKind;
	/** The record field holding the signed link, e.g. photo_url. */
	urlField: string;
	/** The file's name in messages, e.g. "photo". */
	file: string;
	notFoundHint: string;
	/** Why a record may have no file, and what to do. */
	noFileHint: string;
}

export function recordFileOperation(config: RecordFileConfig): BatchOperation {
	const { endpoint, record, file } = config;
	const idsParam = idsParamOf(endpoint);
	if (!idsParam) throw new Error(`Endpoint table: ${endpoint} cannot be read by IDs`);
	const properties = [
		...recordIdField(config.picker, {
			...batchedIdField(record),
			description: `ID of the ${record.toLowerCase()} whose ${file} to download. All input items are read together for fresh links.`,
		}),
		binaryPropertyField,
	];

	const executeBatch = batchedGet({
		endpoint,
		record,
		picker: config.picker,
		notFoundHint: config.notFoundHint,
		finish: downloadFileOf(config),
	});

	return {
		description: updateDisplayOptions(shownFor(config.resource, config.operation), properties),
		executeBatch,
		endpoint,
		queryScope: [idsParam],
	};
}

/** Adds the file behind the record's link to its item; no link fails the item. */
function downloadFileOf({ record, urlField, file, noFileHint }: RecordFileConfig) {
	return async function (
		this: IExecuteFunctions,
		itemIndex: number,
		item: INodeExecutionData,
	): Promise<INodeExecutionData> {
		const url = item.json[urlField];
		if (typeof url !== 'string' || url === '') {
			throw new NodeOperationError(
				this.getNode(),
				`${record} ${String(item.json.id)} has no ${file}`,
				{
					itemIndex,
					description: noFileHint,
				},
			);
		}
		return { ...item, binary: await downloadToBinary(this, itemIndex, url) };
	};
}
