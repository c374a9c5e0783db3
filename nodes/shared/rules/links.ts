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

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Host names of cloud metadata services that are not IP literals. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

const isLoopbackName = (host: string) =>
	LOOPBACK_NAMES.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The four numbers of an IPv4 literal (as the URL parser writes it), or undefined. */
function ipv4(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
	return parts.map(Number);
}

/** Why an IPv4 address is not a public one, or undefined when it is. */
function privateIpv4([a, b]: number[]): string | undefined {
	if (a === 169 && b === 254) return 'a link-local or cloud metadata address';
	if (a === 127 || a === 0) return 'an address of this machine';
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168))
		return 'a private address';
	if (a === 100 && b >= 64 && b <= 127) return 'a private (carrier-grade NAT) address';
	if (a >= 224) return 'a multicast or reserved address';
	return undefined;
}

/** Why an IPv6 literal (without brackets, as the URL parser writes it) is not public. */
function privateIpv6(host: string): string | undefined {
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host)?.[1];
	if (mapped !== undefined) return privateIpv4(mapped.split('.').map(Number));
	// The URL parser writes ::ffff:a.b.c.d as ::ffff:xxxx:yyyy.
	const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(host);
	if (hexMapped) {
		const [high, low] = [parseInt(hexMapped[1], 16), parseInt(hexMapped[2], 16)];
		return privateIpv4([high >> 8, high & 255, low >> 8, low & 255]);
	}
	if (host === '::1' || host === '::') return 'an address of this machine';
	const first = parseInt(host.split(':')[0] || '0', 16);
	if ((first & 0xfe00) === 0xfc00) return 'a private address';
	if ((first & 0xffc0) === 0xfe80) return 'a link-local address';
	if ((first & 0xff00) === 0xff00) return 'a multicast address';
	return undefined;
}

/** Why `hostname` (as the URL parser writes it) is not a public host, or undefined when it is. */
export function nonPublicHost(hostname: string): string | undefined {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (METADATA_NAMES.has(host)) return 'a cloud metadata address';
	if (isLoopbackName(host)) return 'an address of this machine';
	if (host.startsWith('[') && host.endsWith(']')) return privateIpv6(host.slice(1, -1));
	const v4 = ipv4(host);
	return v4 === undefined ? undefined : privateIpv4(v4);
}

/** Whether `to` is the Base URL's own address (scheme, host and port) and that is this machine. */
export const isOwnLoopbackAddress = (to: URL, apiBase: URL): boolean =>
	isLoopbackName(apiBase.hostname) && to.origin === apiBase.origin;

/**
 * Why a download may not go to `to`, or undefined when it may: the link
 * itself and every redirect alike. Only to https on a public host, or to the
 * Base URL's own address (`apiBase`: host and port) when that is this machine
 * (the sandbox, a local test). Host names are judged as written here; the
 * address a name resolves to is n8n's to check (../transport/link-address.ts).
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
