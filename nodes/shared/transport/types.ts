import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { EndpointKey } from '../endpoints';

/**
 * Every n8n context the transport serves: actions, dropdowns, the polling and
 * the webhook trigger. (The sandbox's `ApiContext` is a request on the server side.)
 */
export type N8nContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;

/** One endpoint call, already validated: path parameters, query and body as they go on the wire. */
export interface ApiCall {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	endpoint: EndpointKey;
	pathParams: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject | FormData;
	/** Set for uploads: a report upload emails the client, so its message says so. */
	upload?: 'photo' | 'report' | 'document';
}

/** A 2xx answer of the API: its parsed JSON body and its headers. */
export interface ApiAnswer {
	json: unknown;
	headers: Record<string, unknown>;
}
