/**
 * Turns an API answer or a network failure into a NodeApiError with the
 * server's message, the HTTP status and a hint. Errors are built from scratch
 * (never by wrapping n8n's request error, whose axios config carries the
 * Authorization header), and every text is scrubbed of the API key.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import { megabytes } from '../rules/formats';

/** Replaces the key (and any bearer token) in text; the key is never shown, even in part. */
function redact(text: string, apiKey: string): string {
	let result = text.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1[redacted]');
	if (apiKey) result = result.split(apiKey).join('[redacted]');
	return result;
}

/** Deep copy of parsed JSON with every string redacted. */
function redactDeep(value: unknown, apiKey: string): unknown {
	if (typeof value === 'string') return redact(value, apiKey);
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, apiKey));
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [redact(key, apiKey), redactDeep(entry, apiKey)]),
		);
	}
	return value;
}

interface ServerMessage {
	message?: string;
	param?: string;
	code?: string;
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * Reads the message from each error body shape: the API documents
 * {"error":{"code","message","param"}}, and {"message"}, {"error":"..."} and
 * {"errors":[{"title","detail"}]} are read too in case a proxy or a later
 * version answers so.
 */
function serverMessage(body: unknown): ServerMessage {
	if (typeof body === 'string') return { message: text(body.slice(0, 500)) };
	if (body === null || typeof body !== 'object') return {};
	const record = body as Record<string, unknown>;
	const error = record.error;
	if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
		const nested = error as Record<string, unknown>;
		return { message: text(nested.message), param: text(nested.param), code: text(nested.code) };
	}
	if (text(error)) return { message: text(error) };
	if (text(record.message)) return { message: text(record.message) };
	if (Array.isArray(record.errors)) {
		const parts = record.errors
			.map((entry: unknown) => {
				const item = (entry ?? {}) as Record<string, unknown>;
				return [text(item.title), text(item.detail)].filter(Boolean).join(': ');
			})
			.filter(Boolean);
		if (parts.length > 0) return { message: parts.join('; ') };
	}
	return {};
}

/**
 * Whether an error body is a web page (a website, a proxy's error page or
 * n8n's own editor answered instead of the API). Only the start is read.
 */
function isWebPage(body: unknown): boolean {
	return (
		typeof body === 'string' &&
		/^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|!--)/i.test(body.trimStart().slice(0, 20))
	);
}

/** The headline for a web page: what answered, never the page itself. */
function webPageMessage(endpoint: EndpointKey | undefined): string {
	return endpoint === undefined
		? 'The file host answered with a web page, not the file'
		: 'The Base URL answered with a web page, not the API';
}

const WEB_PAGE_HINT =
	'Check the Base URL in the credential: it must be the API address of your account (without /v1), not a website or the address of n8n itself. The credential test tells the two apart.';

const RESOURCE_OF_PATH_PARAM: Record<string, string> = {
	contact_id: 'contact',
	inspection_id: 'inspection',
};

/** The hint for a status, or undefined when the server's message says it all. */
function hint(
	status: number,
	found: ServerMessage,
	endpoint: EndpointKey | undefined,
	pathParams: Record<string, string>,
): string | undefined {
	if (endpoint === undefined) {
		// A signed link, not an API endpoint: it expires, and a fresh record carries a fresh one.
		return status >= 400 && status < 500
			? `Signed links are valid for ${LIMITS.signedLinkTtlMs / 3_600_000} hour; fetch the record again for a fresh link.`
			: undefined;
	}
	switch (status) {
		case 400:
			if (found.param === 'cursor' || /cursor/i.test(found.message ?? '')) {
				return 'The page cursor does not match this request: the sort or the filters changed between pages. Run the node again to start from the first page.';
			}
			return found.param ? `Check the parameter "${found.param}".` : undefined;
		case 401:
			return 'Check the API key in the credential. A key also stops working when the user who created it is deactivated; create a new key in the business tools then.';
		case 403:
			return 'The key is valid but may not do this; check the permissions of the user who created it.';
		case 404: {
			// The API answers 404 to an id in the path that the account does not have.
			const described = ENDPOINTS[endpoint].pathParams
				.filter((name) => pathParams[name] !== undefined)
				.map((name) => `${RESOURCE_OF_PATH_PARAM[name] ?? name} "${pathParams[name]}"`);
			return described.length > 0
				? `No ${described.join(' or ')} with this ID exists in the account the key belongs to.`
				: 'The address was not found; check the Base URL in the credential (without /v1).';
		}
		case 413:
			return `The file is too large: a contact photo or a document may be at most ${megabytes(LIMITS.photoMaxBytes)}, a report ${megabytes(LIMITS.reportMaxBytes)}.`;
		case 429:
			return 'The rate limit of the key owner was exceeded and did not clear in time. Try a lower Requests per Minute in the credential, or run fewer workflows with keys of the same user at once.';
		default:
			return status >= 500 ? 'The server had a problem. Try again later.' : undefined;
	}
}

interface StatusErrorInput {
	status: number;
	statusText?: string;
	body: unknown;
	/** Undefined for a signed link. */
	endpoint?: EndpointKey;
	pathParams: Record<string, string>;
	apiKey: string;
	/** Extra sentence, e.g. about retries or an upload that was not re-sent. */
	note?: string;
}

export function statusError(node: INode, input: StatusErrorInput): NodeApiError {
	const webPage = isWebPage(input.body);
	const found = webPage ? {} : serverMessage(input.body);
	const serverText = webPage
		? webPageMessage(input.endpoint)
		: (found.message ?? text(input.statusText) ?? 'Request failed');
	// A 5xx page usually comes from a proxy in front of the API: the server hint fits it.
	const pageHint =
		webPage && input.endpoint !== undefined && input.status < 500 ? WEB_PAGE_HINT : undefined;
	const description = [
		pageHint ?? hint(input.status, found, input.endpoint, input.pathParams),
		input.note,
	]
		.filter(Boolean)
		.join(' ');
	const safeBody = redactDeep(input.body, input.apiKey);
	return new NodeApiError(node, { status: input.status, body: safeBody } as JsonObject, {
		message: redact(`${serverText} (HTTP ${input.status})`, input.apiKey),
		description: redact(description, input.apiKey) || undefined,
		httpCode: String(input.status),
	});
}

/** A failure without an HTTP answer (reset, timeout, refused, DNS), or an unreadable answer. */
export function transportError(
	node: INode,
	message: string,
	description: string,
	apiKey: string,
): NodeApiError {
	return new NodeApiError(node, {} as JsonObject, {
		message: redact(message, apiKey),
		description: redact(description, apiKey),
	});
}
