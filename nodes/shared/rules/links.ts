/**
 * Where a signed-link download may go, how much it may read and for how long.
 * A signed link (`url`, `photo_url`, `cover_photo_url`, the Signed URL field)
 * needs no key, but n8n fetches it from inside the user's network, and its
 * text comes from a record (the URL field defaults to `{{ $json.url }}`): the
 * link itself, and every redirect it takes, must not turn it into a request
 * to that network: to a private, link-local or cloud metadata address, or to
 * another service of this machine (n8n's own port). The API says nothing about
 * where its files live; these are the package's limits, written once and read
 * by the download and its tests.
 */
import { FILE_RULES } from '../endpoints';
import { ipv4Bytes } from './ip-address';
import { nonPublicAddress } from './special-addresses';

/**
 * The most a download reads: the API's largest file (a report, 25 MB); no file
 * the API stores is larger, so more bytes mean the link is not the API's file.
 */
export const DOWNLOAD_MAX_BYTES = Math.max(...Object.values(FILE_RULES).map((r) => r.maxBytes));

/** Redirects a download follows before it gives up (storage services use one, sometimes two). */
export const DOWNLOAD_MAX_REDIRECTS = 5;

/**
 * How long one download may take in all, every redirect and repeat included:
 * the largest file at 1 Mbit/s takes under 4 minutes. A deadline for the
 * whole download, not a wait per byte, so a host that sends a byte now and
 * then cannot hold the execution.
 */
export const DOWNLOAD_DEADLINE = { ms: 5 * 60_000 };

/** Host names of cloud metadata services that are not IP literals. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/** Whether a host, as the URL parser writes it, is this machine by name or loopback address. */
const isLoopbackName = (host: string) =>
	host === 'localhost' ||
	host.endsWith('.localhost') ||
	host === '[::1]' ||
	ipv4Bytes(host)?.[0] === 127;

/**
 * Why `hostname` (as the URL parser writes it: IPv4 in dotted decimal, IPv6
 * in brackets) is not a public host, or undefined when it may be one: an IP
 * address by the special-purpose table (./special-addresses.ts), a name by
 * what it says. Where a name leads is checked when it is looked up
 * (../transport/link-address.ts).
 */
export function nonPublicHost(hostname: string): string | undefined {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (METADATA_NAMES.has(host)) return 'a cloud metadata address';
	if (host === 'localhost' || host.endsWith('.localhost')) return 'an address of this machine';
	if (host.startsWith('[') && host.endsWith(']')) return nonPublicAddress(host.slice(1, -1));
	return ipv4Bytes(host) === undefined ? undefined : nonPublicAddress(host);
}

/** Whether `to` is the Base URL's own address (scheme, host and port) and that is this machine. */
export const isOwnLoopbackAddress = (to: URL, apiBase: URL): boolean =>
	isLoopbackName(apiBase.hostname) && to.origin === apiBase.origin;

/**
 * Why a download may not go to `to`, or undefined when it may: the link
 * itself and every redirect alike. Only to https on a public host, or to the
 * Base URL's own address (`apiBase`: host and port) when that is this machine
 * (the sandbox, a local test). Host names are judged as written here; the
 * addresses a name resolves to, by the same table, when it is looked up
 * (../transport/link-address.ts).
 */
export function addressProblem(to: URL, apiBase: URL): string | undefined {
	if (isOwnLoopbackAddress(to, apiBase)) return undefined;
	const problem = nonPublicHost(to.hostname);
	if (problem !== undefined && isLoopbackName(apiBase.hostname) && isLoopbackName(to.hostname))
		return `${to.host} is ${problem}, not the Base URL's own address (${apiBase.host})`;
	if (problem !== undefined) return `${to.hostname} is ${problem}`;
	if (to.protocol !== 'https:') return `it is not https (${to.protocol.replace(':', '')})`;
	return undefined;
}
