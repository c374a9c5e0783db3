import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/** Every n8n context the transport serves: actions, dropdowns, the polling and the webhook trigger. */
export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;
