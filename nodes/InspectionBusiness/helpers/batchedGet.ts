/**
 * Get for every input item in one go. The API has no path for one record, so
 * records are read from their list by ids (assumption noSingleRecordPath):
 * the IDs of all items are read and checked first, then fetched with one
 * `getByIds` per distinct set of query options (⌈unique/200⌉ requests; IDs
 * compare without regard to case), then output in item order with pairedItem,
 * one output per input item even when IDs repeat. An ID the list leaves out
 * is an item-level "not found".
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { LocatorKind } from '../../shared/locators';
import type { EndpointKey } from '../../shared/endpoints';
import { idKey } from '../../shared/rules/query';
import { getByIds } from '../../shared/transport/pages';
import { continueOrThrow, errorItem, uuidParameter } from './execution';
import type { ItemError } from './execution';

interface BatchedGetConfig {
	endpoint: EndpointKey;
	/** The record's name for messages, e.g. "Contact". */
	record: string;
	/** What the record-id field \`id\` picks. */
	picker: LocatorKind;
	/** Query options of one item (e.g. include_deleted); items with equal options share requests. */
	query?: (this: IExecuteFunctions, itemIndex: number) => IDataObject;
	/** Output shape of one record (e.g. Simplify). */
	shape?: (this: IExecuteFunctions, itemIndex: number, record: IDataObject) => IDataObject;
	/** Completes one found record's output item, e.g. with its file; a throw fails that item. */
	finish?: (
		this: IExecuteFunctions,
		itemIndex: number,
		item: INodeExecutionData,
	) => Promise<INodeExecutionData>;
	notFoundHint: string;
}

/** One item's request: its ID and the key of its query options, or why it cannot be read. */
type ItemRequest = { id: string; group: string } | { error: ItemError };

/** The IDs of the items that share one set of query options. */
type Group = { query: IDataObject; ids: Set<string> };

/** What one group's requests returned: records by `idKey`, or the error that stopped them. */
type GroupResult = Map<string, IDataObject> | { failed: unknown };

/**
 * The operation's `executeBatch`: the items that share one set of query
 * options are read together, by `getByIds`, and each item gets its record.
 */
export function batchedGet(config: BatchedGetConfig) {
	return async function executeBatch(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		const { requests, groups } = readRequests(this, items, config);
		const results = new Map<string, GroupResult>();
		for (const [key, group] of groups) {
			try {
				const found = await getByIds.call(this, config.endpoint, [...group.ids], {
					query: group.query,
				});
				results.set(key, found);
			} catch (error) {
				// Reported on each item of the group, so each gets its own index.
				results.set(key, { failed: error });
			}
		}
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < requests.length; itemIndex++) {
			try {
				output.push(await outputItem(this, config, itemIndex, requests[itemIndex], results));
			} catch (error) {
				output.push(errorItem(continueOrThrow(this, error, itemIndex), itemIndex));
			}
		}
		return output;
	};
}

/** Each item's ID (checked to be a UUID) and query options, grouped by options. */
function readRequests(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	config: BatchedGetConfig,
): { requests: ItemRequest[]; groups: Map<string, Group> } {
	const requests: ItemRequest[] = [];
	const groups = new Map<string, Group>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const id = uuidParameter(ctx, config.picker, 'id', `${config.record} ID`, itemIndex);
			const query = config.query?.call(ctx, itemIndex) ?? {};
			const group = JSON.stringify(query);
			if (!groups.has(group)) groups.set(group, { query, ids: new Set() });
			groups.get(group)?.ids.add(idKey(id));
			requests.push({ id, group });
		} catch (error) {
			requests.push({ error: continueOrThrow(ctx, error, itemIndex) });
		}
	}
	return { requests, groups };
}

/** One item's output: its record, shaped and finished; a throw fails the item. */
async function outputItem(
	ctx: IExecuteFunctions,
	config: BatchedGetConfig,
	itemIndex: number,
	request: ItemRequest,
	results: Map<string, GroupResult>,
): Promise<INodeExecutionData> {
	if ('error' in request) throw request.error;
	const result = results.get(request.group);
	if (!(result instanceof Map)) throw result?.failed;
	const record = result.get(idKey(request.id));
	if (!record) {
		throw new NodeOperationError(ctx.getNode(), `${config.record} ${request.id} not found`, {
			itemIndex,
			description: config.notFoundHint,
		});
	}
	const json = config.shape ? config.shape.call(ctx, itemIndex, record) : record;
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	return config.finish ? await config.finish.call(ctx, itemIndex, item) : item;
}
