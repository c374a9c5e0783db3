import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/**
 * Every n8n context the transport serves: actions, dropdowns, the polling and
 * the webhook trigger. (The sandbox's `ApiContext` is a request on the server side.)
 */
export type N8nContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;
