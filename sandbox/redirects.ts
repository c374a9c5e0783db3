/**
 * Redirects, for the tests of where the key and downloads may go. The API
 * itself never redirects; these paths exist only in the sandbox, need no key,
 * and are logged like any request (with the key they carried).
 *
 * - `/_redirect/<port>/<path>?<query>` answers 307 to the same path and query
 *   on `http://127.0.0.1:<port>`: another origin (another port). A Base URL of
 *   `<sandbox>/_redirect/<port>` sends every API request there.
 * - `/_redirect/to?url=<absolute URL>` answers 302 to that URL: a signed link
 *   that leads anywhere (a private address, plain http, another host).
 */
import { ApiError, type Reply } from './http';

export const REDIRECT_PREFIX = '/_redirect/';

/** The redirect answer for a path under REDIRECT_PREFIX. */
export function redirectReply(url: URL): Reply {
	const rest = url.pathname.slice(REDIRECT_PREFIX.length);
	if (rest === 'to') {
		const target = url.searchParams.get('url');
		if (!target) throw new ApiError(400, 'invalid_parameter', 'url is required', 'url');
		return { status: 302, headers: { Location: target } };
	}
	const slash = rest.indexOf('/');
	const port = Number(slash < 0 ? rest : rest.slice(0, slash));
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		throw new ApiError(404, 'not_found', `No redirect ${url.pathname}`);
	const path = slash < 0 ? '/' : rest.slice(slash);
	return { status: 307, headers: { Location: `http://127.0.0.1:${port}${path}${url.search}` } };
}
