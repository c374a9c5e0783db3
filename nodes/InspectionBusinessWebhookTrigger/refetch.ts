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
 *
 * A batch has a deadline (TRANSPORT_LIMITS.refetchBatchMs), waits for the rate limit included:
 * at it the batch's reading stops and each of its deliveries fails its execution with the reason,
 * so an API that answers a byte at a time, or never, cannot hold the deliveries behind it.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { LIMITS } from '../shared/endpoints';
import { idKey } from '../shared/rules/query';
import { duration, TRANSPORT_LIMITS } from '../shared/transport/limits';
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

/** `reading`, or a rejection the moment `deadline` passes, whether or not the reading heeds it. */
async function byDeadline<T>(reading: Promise<T>, deadline: AbortSignal): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(deadline.reason);
		deadline.addEventListener('abort', onAbort, { once: true });
		void reading
			.then(resolve, reject)
			.finally(() => deadline.removeEventListener('abort', onAbort));
	});
}

/** Reads one batch within its deadline; every delivery of it is settled, never left waiting. */
async function readBatch(batch: Waiting[], list: RecordList): Promise<void> {
	const ms = TRANSPORT_LIMITS.refetchBatchMs;
	const deadline = AbortSignal.timeout(ms);
	try {
		const reading = getByIds.call(
			batch[0].context,
			list.endpoint,
			batch.map(({ id }) => id),
			{ query: list.query, signal: deadline },
		);
		const found = await byDeadline(reading, deadline);
		for (const waiting of batch) waiting.resolve(found.get(idKey(waiting.id)) ?? null);
	} catch (error) {
		const reason = deadline.aborted
			? new Error(
					`the API did not give the record within ${duration(ms)}, the most a re-fetch may take`,
				)
			: error;
		for (const waiting of batch) waiting.reject(reason);
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
