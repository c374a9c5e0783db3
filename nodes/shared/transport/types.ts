/**
 * The values the transport's files hand each other: the n8n contexts it
 * serves, one API call, the credential's settings, and how one HTTP request
 * ended. Kept apart so request, retry, errors and downloads can share them
 * without importing each other in a circle.
 */
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

/** What the transport needs from the credential: read once per call, or once per list. */
export interface ApiSettings {
	apiKey: string;
	/** Without a trailing slash or a trailing /v1 (every endpoint path starts with /v1). */
	baseUrl: string;
	requestsPerMinute: number;
	/** How long one request keeps waiting out 429s (the credential's Wait for Rate Limit). */
	rateLimitDeadlineMs: number;
}

/** What went wrong with one attempt, as far as retrying is concerned. */
export type Failure =
	| { kind: 'refused' } // connection refused: nothing was sent
	| { kind: 'network'; code: string; detail: string } // reset, timeout, DNS...: may have been sent
	| { kind: 'deadline'; ms: number } // the attempt's whole-attempt deadline passed: may have been sent
	| { kind: 'status'; status: number }
	| { kind: 'malformed' } // 2xx whose body is not JSON
	| { kind: 'oversized' }; // 2xx whose body is over the answer size limit

/** A failure without a whole answer: the connection was refused or broke, or the deadline passed. */
export type NetworkFailure = Extract<Failure, { kind: 'refused' | 'network' | 'deadline' }>;

/** An HTTP answer of any status; nothing is parsed yet (a download's body is a file). */
export interface HttpAnswer {
	status: number;
	statusText?: string;
	headers: Record<string, unknown>;
	/** The body as read; for an answer over the size limit, only what was read before it stopped. */
	body: Buffer;
	/** Set when the body was over the size limit (TRANSPORT_LIMITS.answerBytes) and not read whole. */
	oversized?: { announcedBytes?: number };
}

/**
 * How one HTTP request ended. `message` is the helper's error text; the key
 * is scrubbed where it is shown.
 */
export type HttpResult =
	| { kind: 'answered'; answer: HttpAnswer }
	| { kind: 'failed'; failure: NetworkFailure; message: string }
	| { kind: 'error'; message: string };
