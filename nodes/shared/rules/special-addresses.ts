/**
 * The address ranges a signed-link download never connects to, one row each:
 * every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries,
 * whatever their "globally reachable" column says (no file host of the API
 * lives in one), every block of n8n's own default SSRF list
 * (N8N_SSRF_BLOCKED_IP_RANGES' `default`), multicast, and the IPv6 space
 * outside global unicast (2000::/3). Two IPv6 blocks carry an IPv4 address
 * (IPv4-mapped and 6to4): an address there is judged as the IPv4 address it
 * carries. The first row that holds an address decides.
 *
 * Matching is linear: an address is read once into its bytes (./ip-address.ts)
 * and compared with each row's prefix.
 */
import { addressBytes, ipv4Bytes, ipv6Bytes } from './ip-address';

export interface SpecialRange {
	/** The block, as the registry writes it. */
	cidr: string;
	/** What an address in it is, written to follow "is": `a private address`. */
	name: string;
	/** Why a download never goes there, and the document that sets the block aside. */
	why: string;
	/** For a block that carries an IPv4 address: the byte it starts at. */
	carriesIpv4At?: number;
}

const PRIVATE = "private networks: the user's own (RFC 1918)";
const OUTSIDE_UNICAST =
	'IANA gives out unicast addresses from 2000::/3 only; the rest is reserved (RFC 4291)';

export const SPECIAL_RANGES: readonly SpecialRange[] = [
	// IPv4
	{
		cidr: '0.0.0.0/8',
		name: 'a "this network" address',
		why: "0.0.0.0 reaches this machine on most systems; the rest are no host's (RFC 791, RFC 1122)",
	},
	{
		cidr: '10.0.0.0/8',
		name: 'a private address',
		why: PRIVATE,
	},
	{
		cidr: '100.64.0.0/10',
		name: 'a shared (carrier-grade NAT) address',
		why: "inside a provider's or a cloud's network; Alibaba Cloud's metadata service is 100.100.100.200 (RFC 6598)",
	},
	{
		cidr: '127.0.0.0/8',
		name: 'an address of this machine',
		why: 'loopback: n8n itself and every service on this machine (RFC 1122)',
	},
	{
		cidr: '169.254.0.0/16',
		name: 'a link-local or cloud metadata address',
		why: 'link-local; the cloud metadata services (169.254.169.254) hand out credentials (RFC 3927)',
	},
	{
		cidr: '172.16.0.0/12',
		name: 'a private address',
		why: PRIVATE,
	},
	{
		cidr: '192.0.0.0/24',
		name: 'an IETF protocol address',
		why: 'IETF protocol assignments: DS-Lite, NAT64 discovery, PCP and TURN anycast (RFC 6890)',
	},
	{
		cidr: '192.0.2.0/24',
		name: 'a documentation address',
		why: 'TEST-NET-1, for examples only (RFC 5737)',
	},
	{
		cidr: '192.31.196.0/24',
		name: 'an AS112 address',
		why: 'AS112, DNS sinks for lookups of private addresses (RFC 7535)',
	},
	{
		cidr: '192.52.193.0/24',
		name: 'an AMT relay address',
		why: 'Automatic Multicast Tunneling relays (RFC 7450)',
	},
	{
		cidr: '192.88.99.0/24',
		name: 'a 6to4 relay address',
		why: 'the deprecated 6to4 relay anycast (RFC 7526)',
	},
	{
		cidr: '192.168.0.0/16',
		name: 'a private address',
		why: PRIVATE,
	},
	{
		cidr: '192.175.48.0/24',
		name: 'an AS112 address',
		why: 'Direct Delegation AS112 service (RFC 7534)',
	},
	{
		cidr: '198.18.0.0/15',
		name: 'a benchmarking address',
		why: 'network benchmarking, used inside labs and some cloud networks (RFC 2544)',
	},
	{
		cidr: '198.51.100.0/24',
		name: 'a documentation address',
		why: 'TEST-NET-2, for examples only (RFC 5737)',
	},
	{
		cidr: '203.0.113.0/24',
		name: 'a documentation address',
		why: 'TEST-NET-3, for examples only (RFC 5737)',
	},
	{
		cidr: '224.0.0.0/4',
		name: 'a multicast address',
		why: 'multicast: a group, not a file host (RFC 5771)',
	},
	{
		cidr: '255.255.255.255/32',
		name: 'the broadcast address',
		why: 'limited broadcast: every host of the local network (RFC 919)',
	},
	{
		cidr: '240.0.0.0/4',
		name: 'a reserved address',
		why: 'reserved for future use; no host has one (RFC 1112)',
	},
	// IPv6
	{
		cidr: '::/128',
		name: 'the unspecified address',
		why: 'a connection to it reaches this machine (RFC 4291)',
	},
	{
		cidr: '::1/128',
		name: 'an address of this machine',
		why: 'loopback: n8n itself and every service on this machine (RFC 4291)',
	},
	{
		cidr: '::ffff:0:0/96',
		name: 'an IPv4-mapped address',
		why: 'an IPv4 address written as IPv6; judged as that IPv4 address (RFC 4291)',
		carriesIpv4At: 12,
	},
	{
		cidr: '64:ff9b::/96',
		name: 'a NAT64 address',
		why: "IPv4/IPv6 translation: the translator connects to the IPv4 address inside, which may be one of the user's own (RFC 6052)",
	},
	{
		cidr: '64:ff9b:1::/48',
		name: 'a local NAT64 address',
		why: 'local-use IPv4/IPv6 translation (RFC 8215)',
	},
	{
		cidr: '100::/64',
		name: 'a discard-only address',
		why: 'discard-only: traffic to it is dropped (RFC 6666)',
	},
	{
		cidr: '100:0:0:1::/64',
		name: 'a dummy address',
		why: 'the dummy IPv6 prefix, never routed (RFC 9780)',
	},
	{
		cidr: '2001::/23',
		name: 'an IETF protocol address',
		why: 'IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT, AS112, TURN and PCP anycast (RFC 2928)',
	},
	{ cidr: '2001:db8::/32', name: 'a documentation address', why: 'for examples only (RFC 3849)' },
	{
		cidr: '2002::/16',
		name: 'a 6to4 address',
		why: 'an IPv4 address inside IPv6; judged as that IPv4 address (RFC 3056)',
		carriesIpv4At: 2,
	},
	{
		cidr: '2620:4f:8000::/48',
		name: 'an AS112 address',
		why: 'Direct Delegation AS112 service (RFC 7534)',
	},
	{ cidr: '3fff::/20', name: 'a documentation address', why: 'for examples only (RFC 9637)' },
	{
		cidr: '5f00::/16',
		name: 'a segment routing address',
		why: "SRv6 segment identifiers, inside an operator's network (RFC 9602)",
	},
	{
		cidr: 'fc00::/7',
		name: 'a private address',
		why: "unique local addresses: the user's own network; AWS's metadata service is fd00:ec2::254 (RFC 4193)",
	},
	{
		cidr: 'fe80::/10',
		name: 'a link-local address',
		why: 'link-local: the local network segment (RFC 4291)',
	},
	{
		cidr: 'fec0::/10',
		name: 'a site-local address',
		why: "deprecated site-local: the user's own network (RFC 3879)",
	},
	{
		cidr: 'ff00::/8',
		name: 'a multicast address',
		why: 'multicast: a group, not a file host (RFC 4291)',
	},
	{
		cidr: '::/3',
		name: 'an address outside IPv6 unicast',
		why: OUTSIDE_UNICAST,
	},
	{
		cidr: '4000::/2',
		name: 'an address outside IPv6 unicast',
		why: OUTSIDE_UNICAST,
	},
	{
		cidr: '8000::/1',
		name: 'an address outside IPv6 unicast',
		why: OUTSIDE_UNICAST,
	},
];

interface CompiledRange {
	range: SpecialRange;
	bytes: number[];
	prefix: number;
}

function compile(range: SpecialRange): CompiledRange {
	const [address, prefix] = range.cidr.split('/');
	const bytes = address.includes(':') ? ipv6Bytes(address) : ipv4Bytes(address);
	if (bytes === undefined) throw new Error(`Not a CIDR block: ${range.cidr}`);
	return { range, bytes, prefix: Number(prefix) };
}

const COMPILED = SPECIAL_RANGES.map(compile);

/** Whether the first `prefix` bits of `bytes` are the block's. */
function inBlock(bytes: number[], block: CompiledRange): boolean {
	if (bytes.length !== block.bytes.length) return false;
	const whole = block.prefix >> 3;
	for (let i = 0; i < whole; i++) if (bytes[i] !== block.bytes[i]) return false;
	const rest = block.prefix & 7;
	if (rest === 0) return true;
	const mask = (0xff << (8 - rest)) & 0xff;
	return (bytes[whole] & mask) === (block.bytes[whole] & mask);
}

/** The IPv4 address an IPv6 address carries from byte `at`. */
const carriedIpv4 = (bytes: number[], at: number) => bytes.slice(at, at + 4).join('.');

/** The first row of the table that holds `bytes`, or undefined. */
export function specialRangeOf(bytes: number[]): SpecialRange | undefined {
	return COMPILED.find((block) => inBlock(bytes, block))?.range;
}

/**
 * The rows that refuse `address` (an IP address as the URL parser or a DNS
 * lookup writes it, IPv6 without brackets): the row it is in, then, for an
 * address that carries an IPv4 address, the row that refuses that one. Empty
 * when it is a public unicast address; undefined when it is no IP address.
 */
export function refusingRanges(address: string): SpecialRange[] | undefined {
	const bytes = addressBytes(address);
	if (bytes === undefined) return undefined;
	const range = specialRangeOf(bytes);
	if (range === undefined) return [];
	if (range.carriesIpv4At === undefined) return [range];
	const carried = refusingRanges(carriedIpv4(bytes, range.carriesIpv4At));
	return carried === undefined || carried.length === 0 ? [] : [range, ...carried];
}

/** Why a download may not connect to `address`, in words that follow "is"; undefined when it may. */
export function nonPublicAddress(address: string): string | undefined {
	const ranges = refusingRanges(address);
	if (ranges === undefined) return 'not an IP address';
	if (ranges.length === 0) return undefined;
	const deciding = ranges[ranges.length - 1];
	const words = `${deciding.name} (${deciding.cidr})`;
	const [carrier] = ranges;
	if (carrier.carriesIpv4At === undefined) return words;
	const carried = carriedIpv4(addressBytes(address) ?? [], carrier.carriesIpv4At);
	return `${carrier.name} of ${carried}, ${words}`;
}
