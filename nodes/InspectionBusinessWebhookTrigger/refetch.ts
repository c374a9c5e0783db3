/**
 * Reading the records that deliveries are about. The API has no single-record path, so a record is
 * read from its list with `ids=`; that takes up to 200 ids, so the deliveries of one trigger node
 * that arrive close together are read together. A burst of 200 deliveries costs a couple of
 * requests of the key's budget instead of 200, and the workflows they start keep the rest.
 *
 * How a batch forms: the first delivery opens it and, after a short gathering pause, sends every
 * id that joined meanwhile. Deliveries arriving while a batch is being read (for instance while it
 * waits for the key's rate budget) join the next one. The sender is never kept waiting on this:
 * the trigger acknowledges a delivery before it asks for its record.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { LIMITS } from '../shared/endpoints';
import { idKey } from '../shared/rules/query';
import { getByIds } from '../shared/transport/pages';
import type { RecordList } from './payload';

/** How long the first delivery of a batch waits for others to join it. */
export const GATHER_MS = 200;

interface Waiting {
	/** The waiting delivery's own context; a batch is read with the context of one of its members. */
	context: IWebhookFunctions;
	id: string;
	resolve: (record: IDataObject | null) => void;
	reject: (error: unknown) => void;
}

/** Open batches, per trigger node and list (ids of one list go in one request). */
const batches = new Map<string, Waiting[]>();

async function readBatch(batch: Waiting[], list: RecordList): Promise<void> {
	try {
		const found = await getByIds.call(
			batch[0].context,
			list.endpoint,
			batch.map(({ id }) => id),
			{ query: list.query },
		);
		for (const waiting of batch) waiting.resolve(found.get(idKey(waiting.id)) ?? null);
	} catch (error) {
		for (const waiting of batch) waiting.reject(error);
	}
}

/** Sends the open batch of `key`, then every batch that formed while it was read, then closes. */
async function drain(key: string, queue: Waiting[], list: RecordList): Promise<void> {
	while (queue.length > 0) {
		await sleep(GATHER_MS);
		await readBatch(queue.splice(0, LIMITS.idsMax), list);
	}
	batches.delete(key);
}

/**
 * The record `id` of `list` (null when the account has none), read in a batch with the other
 * deliveries of the trigger node `scope`. `id` must be a UUID: the list refuses anything else.
 */
export async function fetchRecord(
	context: IWebhookFunctions,
	scope: string,
	list: RecordList,
	id: string,
): Promise<IDataObject | null> {
	return await new Promise((resolve, reject) => {
		const key = `${scope}|${list.endpoint}`;
		const queue = batches.get(key);
		const waiting = { context, id, resolve, reject };
		if (queue) {
			queue.push(waiting);
			return;
		}
		const opened = [waiting];
		batches.set(key, opened);
		void drain(key, opened, list);
	});
}
