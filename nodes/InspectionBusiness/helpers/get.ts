import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EndpointKey } from '../../shared/endpoints';
import { getByIds, idKey } from '../../shared/transport';
import { continueOrThrow, errorItem, uuidParameter } from './execution';
import type { ItemError } from './execution';

interface GetConfig {
	endpoint: EndpointKey;
	/** The record's name for messages, e.g. "Contact". */
	record: string;
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

type Pending = { id: string; group: string } | { error: ItemError };

/**
 * Get for every input item in one go (A2): the IDs of all items are read and
 * checked first, then fetched with one `getByIds` per distinct set of query
 * options (⌈unique/200⌉ requests; IDs compare without regard to case), then
 * output in item order with pairedItem, one output per input item even when
 * IDs repeat. An ID the list leaves out is an item-level "not found".
 */
export async function getRecords(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	config: GetConfig,
): Promise<INodeExecutionData[]> {
	const pending: Pending[] = [];
	const groups = new Map<string, { query: IDataObject; ids: Set<string> }>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const id = uuidParameter(this, 'id', `${config.record} ID`, itemIndex);
			const query = config.query?.call(this, itemIndex) ?? {};
			const group = JSON.stringify(query);
			if (!groups.has(group)) groups.set(group, { query, ids: new Set() });
			groups.get(group)?.ids.add(idKey(id));
			pending.push({ id, group });
		} catch (error) {
			pending.push({ error: continueOrThrow(this, error, itemIndex) });
		}
	}

	const fetched = new Map<string, Map<string, IDataObject> | { failed: unknown }>();
	for (const [key, group] of groups) {
		try {
			fetched.set(
				key,
				await getByIds.call(this, config.endpoint, [...group.ids], { query: group.query }),
			);
		} catch (error) {
			// Reported on each item of the group below, so each gets its own index.
			fetched.set(key, { failed: error });
		}
	}

	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < pending.length; itemIndex++) {
		const entry = pending[itemIndex];
		try {
			if ('error' in entry) throw entry.error;
			const result = fetched.get(entry.group);
			if (!(result instanceof Map)) throw result?.failed;
			const record = result.get(idKey(entry.id));
			if (!record) {
				throw new NodeOperationError(this.getNode(), `${config.record} ${entry.id} not found`, {
					itemIndex,
					description: config.notFoundHint,
				});
			}
			const json = config.shape ? config.shape.call(this, itemIndex, record) : record;
			const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
			output.push(config.finish ? await config.finish.call(this, itemIndex, item) : item);
		} catch (error) {
			output.push(errorItem(continueOrThrow(this, error, itemIndex), itemIndex));
		}
	}
	return output;
}
