/**
 * Where each request of a signed-link download connects, decided before
 * anything is sent there: the link itself and every redirect alike.
 *
 * 1. The address as written, by the rule book (`addressProblem` in
 *    ../rules/links.ts): https to a public host, or the Base URL's own
 *    address when that is this machine.
 * 2. A host name is looked up here, once, with n8n's own lookup
 *    (`helpers.getSecureEgressFilter('enforced').createSecureLookup()`), which
 *    refuses what n8n's egress rules refuse (N8N_SSRF_BLOCKED_IP_RANGES and
 *    _HOSTNAMES, n8n's defaults included) whether or not the instance turned
 *    SSRF protection on. Every address it finds is judged by the
 *    special-purpose table (../rules/special-addresses.ts): one that is not
 *    public refuses the link.
 * 3. The request connects to a checked address itself (`pinnedTarget`): its
 *    URL names the IP address, its Host header and TLS server name the host
 *    name, so the certificate is verified against the name, and nothing looks
 *    the name up again. A name that answers one address when checked and
 *    another when connected (DNS rebinding) gets no second question.
 *
 * Fails closed: a lookup that fails or finds nothing refuses the link, and so
 * does a host name on an n8n that gives a node no lookup (1.x, and 2.x before
 * `getSecureEgressFilter`): there a link written with a public IP address, and
 * the Base URL's own address on this machine, are all a download can reach.
 * The Base URL's own address on this machine (the sandbox) is connected to as
 * written: the user named it.
 */
import type { IExecuteFunctions, IHttpRequestOptions, NodeEgressFilter } from 'n8n-workflow';

import { addressProblem, isOwnLoopbackAddress } from '../rules/links';
import { ipv4Bytes } from '../rules/ip-address';
import { nonPublicAddress } from '../rules/special-addresses';
import { apiSettings } from './request';
import type { HttpResult } from './types';

/** The credential's Base URL: the one address of this machine a download may go to. */
export async function apiBaseOf(this: IExecuteFunctions): Promise<URL> {
	return new URL((await apiSettings.call(this)).baseUrl);
}

/** One request of a download: where it was sent, and the addresses checked for it. */
export interface Hop {
	/** The address as written: the Host header, the TLS server name, relative redirects and file names come from it. */
	url: URL;
	/** The checked IP addresses, in the lookup's order; none: connect as written (the Base URL's own address). */
	addresses: string[];
}

type Lookup = ReturnType<NodeEgressFilter['createSecureLookup']>;

/** n8n's lookup, under its egress rules enforced, or undefined where n8n gives a node none (before 2.x). */
function secureLookup(context: IExecuteFunctions): Lookup | undefined {
	const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	return helpers.getSecureEgressFilter('enforced').createSecureLookup();
}

/** Why n8n's lookup refused `name`, in words that follow it. */
function lookupProblem(name: string, error: unknown): string {
	const { name: kind, ip } = (error ?? {}) as { name?: unknown; ip?: unknown };
	if (kind === 'SsrfBlockedIpError')
		return `${name} resolves to ${String(ip)}, an address n8n's egress rules refuse`;
	if (kind === 'SsrfBlockedHostnameError') return `${name} is a host n8n's egress rules refuse`;
	// No error code in the words: n8n swaps a message that holds one (EAI_AGAIN…) for its own.
	return `${name} could not be looked up, so where it leads cannot be checked`;
}

/** Every address `name` resolves to, each public; else why not. Gives up when the download ends. */
async function lookUp(
	lookup: Lookup,
	name: string,
	signal: AbortSignal,
): Promise<{ addresses: string[] } | { problem: string }> {
	const found = await new Promise<{ addresses: string[] } | { problem: string }>((resolve) => {
		const ended = () => resolve({ problem: 'the download ended before the lookup' });
		signal.addEventListener('abort', ended, { once: true });
		lookup(name, { all: true }, (error, answer) => {
			signal.removeEventListener('abort', ended);
			if (error) return resolve({ problem: lookupProblem(name, error) });
			const list = Array.isArray(answer) ? answer.map((entry) => entry.address) : [answer];
			resolve({ addresses: [...new Set(list.filter((address) => address !== ''))] });
		});
	});
	if ('problem' in found) return found;
	if (found.addresses.length === 0)
		return { problem: `${name} resolves to no address, so where it leads cannot be checked` };
	for (const address of found.addresses) {
		const problem = nonPublicAddress(address);
		if (problem !== undefined) return { problem: `${name} resolves to ${address}, ${problem}` };
	}
	return found;
}

/**
 * Where a download's request to `to` connects (see the file's comment), or
 * why it may not be sent there. `run` is the download's: its Base URL, and the
 * signal that ends it.
 */
export async function plannedHop(
	this: IExecuteFunctions,
	to: URL,
	run: { apiBase: URL; signal: AbortSignal },
): Promise<{ hop: Hop } | { problem: string }> {
	const written = addressProblem(to, run.apiBase);
	if (written !== undefined) return { problem: written };
	if (isOwnLoopbackAddress(to, run.apiBase)) return { hop: { url: to, addresses: [] } };
	const host = to.hostname;
	if (host.startsWith('[')) return { hop: { url: to, addresses: [host.slice(1, -1)] } };
	// addressProblem judged an IP address as written; only a name is left to look up.
	if (ipv4Bytes(host) !== undefined) return { hop: { url: to, addresses: [host] } };
	const lookup = secureLookup(this);
	if (lookup === undefined)
		return {
			problem: `${host} is a host name, and this n8n gives a node no way to check the address it leads to (n8n 2 does); update n8n`,
		};
	const found = await lookUp(lookup, host, run.signal);
	return 'problem' in found ? found : { hop: { url: to, addresses: found.addresses } };
}

/**
 * The URL, Host header and TLS server name of a request to `hop` at one of its
 * checked addresses (undefined: as written). The URL names the address, so
 * nothing looks the name up again; the Host header and the server name keep
 * the name, so the host serves the link's site and its certificate is
 * verified against the name, as if the name had been connected to.
 */
export function pinnedTarget(
	hop: Hop,
	address: string | undefined,
): Pick<IHttpRequestOptions, 'url' | 'headers' | 'agentOptions'> {
	if (address === undefined) return { url: hop.url.href };
	const pinned = new URL(hop.url.href);
	pinned.hostname = address.includes(':') ? `[${address}]` : address;
	if (pinned.host === hop.url.host) return { url: pinned.href }; // the link names the address itself
	const name = hop.url.hostname;
	return {
		url: pinned.href,
		headers: { Host: hop.url.host },
		agentOptions: { servername: name.endsWith('.') ? name.slice(0, -1) : name },
	};
}

/** Failures where no connection was made, so nothing was sent: another checked address may answer. */
const NOT_CONNECTED = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL']);
const notConnected = (result: HttpResult) =>
	result.kind === 'failed' &&
	(result.failure.kind === 'refused' ||
		(result.failure.kind === 'network' && NOT_CONNECTED.has(result.failure.code)));

/**
 * One attempt at `hop`: its checked addresses in the lookup's order, the next
 * only when the one before could not be reached (as a connection to the name
 * would go on to its next address); as written when it has none.
 */
export async function eachAddress(
	hop: Hop,
	signal: AbortSignal,
	fetch: (address: string | undefined) => Promise<HttpResult>,
): Promise<HttpResult> {
	const addresses = hop.addresses.length > 0 ? hop.addresses : [undefined];
	let result = await fetch(addresses[0]);
	for (let next = 1; next < addresses.length && notConnected(result) && !signal.aborted; next++)
		result = await fetch(addresses[next]);
	return result;
}
