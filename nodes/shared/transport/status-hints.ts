/**
 * What an error answer says to the user: the server's message in each body
 * shape, whether the answer was a web page instead of the API, and the hint
 * per status. ./errors.ts builds the errors from them.
 */
import { ENDPOINTS, type EndpointKey, LIMITS } from '../endpoints';
import { megabytes } from '../rules/formats';

export interface ServerMessage {
	message?: string;
	param?: string;
	code?: string;
}

export const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * Reads the message from each error body shape: the API documents
 * {"error":{"code","message","param"}}, and {"message"}, {"error":"..."} and
 * {"errors":[{"title","detail"}]} are read too in case a proxy or a later
 * version answers so.
 */
export function serverMessage(body: unknown): ServerMessage {
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
 * n8n's own editor answered instead of the API). The pattern is anchored at
 * the start of a body already cut to its bound, so it reads only the start; a
 * doctype may put any run of blanks before `html`.
 */
export function isWebPage(body: unknown): boolean {
	return (
		typeof body === 'string' &&
		/^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|!--)/i.test(body.trimStart())
	);
}

/** The headline for a web page: what answered, never the page itself. */
export function webPageMessage(endpoint: EndpointKey | undefined): string {
	return endpoint === undefined
		? 'The file host answered with a web page, not the file'
		: 'The Base URL answered with a web page, not the API';
}

export const WEB_PAGE_HINT =
	'Check the Base URL in the credential: it must be the API address of your account (without /v1), not a website or the address of n8n itself. The credential test tells the two apart.';

const RESOURCE_OF_PATH_PARAM: Record<string, string> = {
	contact_id: 'contact',
	inspection_id: 'inspection',
};

/** The hint for a status, or undefined when the server's message says it all. */
export function hint(
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
