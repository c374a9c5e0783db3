/**
 * The API does not show its webhook payload, so any JSON body is accepted (webhookPayloadFields). The event name, the record id and the delivery id are read
 * from the keys listed in the endpoint table, first match wins.
 */
import type { IDataObject } from 'n8n-workflow';

import { type EndpointKey, WEBHOOK_PAYLOAD_KEYS } from '../shared/endpoints';

/** Follows a dotted path such as `data.id`; only a non-empty string or a number counts. */
function textAt(body: IDataObject, path: string): string | undefined {
	let value: unknown = body;
	for (const part of path.split('.')) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[part];
	}
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export interface WebhookPayload {
	event?: string;
	recordId?: string;
	/**
	 * The delivery's own id: absent when the payload has none, or when its top-level `id` is the
	 * record id (the only record id, or equal to the one found elsewhere).
	 */
	deliveryId?: string;
}

export function readPayload(body: IDataObject): WebhookPayload {
	const keys = WEBHOOK_PAYLOAD_KEYS;
	const event = keys.event.map((path) => textAt(body, path)).find((value) => value !== undefined);
	const recordPath = keys.recordId.find((path) => textAt(body, path) !== undefined);
	const recordId = recordPath === undefined ? undefined : textAt(body, recordPath);
	const topLevelId = recordPath === keys.deliveryId ? undefined : textAt(body, keys.deliveryId);
	// A top-level id equal to the record id names the record, not the delivery: taken as a delivery
	// id it would silence every later change of that record as a repeat (webhookPayloadFields).
	return { event, recordId, deliveryId: topLevelId === recordId ? undefined : topLevelId };
}

/** The list a record is read from, the query that finds it there, and what the record is called. */
export interface RecordList {
	endpoint: EndpointKey;
	query: IDataObject;
	noun: string;
}

/** Where the record of an event lives: inspection.* on the inspections list, contact.* on the contacts list. */
export function listOfEvent(event: string | undefined): RecordList | undefined {
	if (event?.startsWith('inspection.'))
		return { endpoint: 'listInspections', query: { include_deleted: true }, noun: 'inspection' };
	if (event?.startsWith('contact.'))
		return { endpoint: 'listContacts', query: {}, noun: 'contact' };
	return undefined;
}
