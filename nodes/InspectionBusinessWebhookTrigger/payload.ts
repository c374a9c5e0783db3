/**
 * A14: any JSON body is accepted. The event name and the record id are read
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

const firstText = (body: IDataObject, paths: readonly string[]) =>
	paths.map((path) => textAt(body, path)).find((value) => value !== undefined);

export function readPayload(body: IDataObject): { event?: string; recordId?: string } {
	return {
		event: firstText(body, WEBHOOK_PAYLOAD_KEYS.event),
		recordId: firstText(body, WEBHOOK_PAYLOAD_KEYS.recordId),
	};
}

/** Where the record of an event lives: inspection.* on the inspections list, contact.* on the contacts list. */
export function listOfEvent(
	event: string | undefined,
): { endpoint: EndpointKey; query: IDataObject } | undefined {
	if (event?.startsWith('inspection.'))
		return { endpoint: 'listInspections', query: { include_deleted: true } };
	if (event?.startsWith('contact.')) return { endpoint: 'listContacts', query: {} };
	return undefined;
}
