/**
 * Whether a signed-link download may send a request to an address: the link
 * itself and every redirect, each before anything is sent there. Two checks:
 *
 * 1. The address as written, by the rule book (`addressProblem` in
 *    ../rules/links.ts): https to a public host, or the Base URL's own
 *    address when that is this machine.
 * 2. The addresses its host name resolves to, by n8n's egress filter: n8n
 *    2.x gives a node `helpers.getSecureEgressFilter`, whose `validateUrl`
 *    resolves the name and checks every address against n8n's SSRF ranges
 *    (private, loopback, link-local, metadata…; N8N_SSRF_BLOCKED_IP_RANGES
 *    and the allow lists N8N_SSRF_ALLOWED_IP_RANGES / _HOSTNAMES if set). It
 *    is asked with the policy `enforced`, so it runs whether or not the
 *    instance turned SSRF protection on. So a public-looking name that
 *    resolves to 127.0.0.1 or 169.254.169.254 is refused too.
 *
 * What is not checked, and why: an n8n without that helper (1.x) offers no
 * way for a node to resolve a name, so there only the written address is
 * judged. A name whose lookup fails here is left to the request, which fails
 * on the same lookup. Between this check and the connection the name is
 * resolved again: a name that changes its answer in between (DNS rebinding)
 * is caught only where the instance sets N8N_SSRF_PROTECTION_ENABLED=true,
 * which makes n8n check the address it connects to.
 */
import type { IExecuteFunctions, NodeEgressFilter } from 'n8n-workflow';

import { addressProblem, isOwnLoopbackAddress } from '../rules/links';
import { apiSettings } from './request';

/** The credential's Base URL: the one address of this machine a download may go to. */
export async function apiBaseOf(this: IExecuteFunctions): Promise<URL> {
	return new URL((await apiSettings.call(this)).baseUrl);
}

/** n8n's egress filter, enforced, or undefined where n8n gives a node none (before 2.x). */
function egressFilter(context: IExecuteFunctions): NodeEgressFilter | undefined {
	const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	return helpers.getSecureEgressFilter('enforced');
}

/** Why n8n refuses the addresses `to`'s host resolves to, or undefined when it does not. */
async function resolvedProblem(context: IExecuteFunctions, to: URL): Promise<string | undefined> {
	const filter = egressFilter(context);
	if (filter === undefined) return undefined;
	let result: Awaited<ReturnType<NodeEgressFilter['validateUrl']>>;
	try {
		result = await filter.validateUrl(to);
	} catch {
		// The name did not resolve: the request's own lookup fails the same way, with its network error.
		return undefined;
	}
	if (result.ok) return undefined;
	return `${to.hostname} resolves to an address n8n does not let requests reach (${result.error.message})`;
}

/** Why a download may not send a request to `to`, or undefined when it may (see the file's comment). */
export async function linkAddressProblem(
	this: IExecuteFunctions,
	to: URL,
	apiBase: URL,
): Promise<string | undefined> {
	const written = addressProblem(to, apiBase);
	if (written !== undefined) return written;
	// The Base URL's own address on this machine is allowed as such; its name is not looked up.
	if (isOwnLoopbackAddress(to, apiBase)) return undefined;
	return await resolvedProblem(this, to);
}
