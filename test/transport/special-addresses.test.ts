/**
 * The special-purpose table (nodes/shared/rules/special-addresses.ts): every
 * row refuses its first and last address and nothing just outside it; the
 * ranges the package promises (IANA's registries, n8n's own default list)
 * are each refused, named by the range that decides; public addresses beside
 * them pass; an IPv4 address carried in IPv6 is judged as itself. The reader
 * agrees with Node's `net.isIP` on any text and with the URL parser's forms.
 */
import { isIP } from 'node:net';
import { SSRF_DEFAULT_BLOCKED_IP_RANGES } from '@n8n/config';
import fc from 'fast-check';

import { addressBytes } from '../../nodes/shared/rules/ip-address';
import {
	nonPublicAddress,
	refusingRanges,
	SPECIAL_RANGES,
	specialRangeOf,
} from '../../nodes/shared/rules/special-addresses';

/** An address as text from its bytes (IPv6 uncompressed). */
function text(bytes: number[]): string {
	if (bytes.length === 4) return bytes.join('.');
	const groups: string[] = [];
	for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
	return groups.join(':');
}

/** The first and last address of a CIDR block, as bytes. */
function bounds(cidr: string): { first: number[]; last: number[] } {
	const [address, bits] = cidr.split('/');
	const bytes = addressBytes(address)!;
	const prefix = Number(bits);
	const first = bytes.map((byte, i) => byte & maskAt(prefix, i));
	const last = first.map((byte, i) => byte | (~maskAt(prefix, i) & 0xff));
	return { first, last };
}

/** The prefix mask's byte `i`. */
const maskAt = (prefix: number, i: number) =>
	(0xff << (8 - Math.max(0, Math.min(8, prefix - i * 8)))) & 0xff;

/** The address `step` (1 or -1) away, or undefined past the end of the space. */
function beside(bytes: number[], step: 1 | -1): number[] | undefined {
	const next = [...bytes];
	for (let i = next.length - 1; i >= 0; i--) {
		next[i] += step;
		if (next[i] >= 0 && next[i] <= 255) return next;
		next[i] = step === 1 ? 0 : 255;
	}
	return undefined;
}

/** The CIDR of the range that decides: for an address that carries IPv4, the IPv4 address's. */
const decidingCidr = (address: string) => refusingRanges(address)?.at(-1)?.cidr;

describe.each(SPECIAL_RANGES.map((range, index) => ({ ...range, index })))(
	'row $cidr ($name)',
	({ cidr, index, carriesIpv4At }) => {
		const { first, last } = bounds(cidr);

		it('holds its first and last address (or an earlier, narrower row does)', () => {
			for (const bytes of [first, last]) {
				const found = specialRangeOf(bytes);
				expect(found).toBeDefined();
				expect(SPECIAL_RANGES.indexOf(found!)).toBeLessThanOrEqual(index);
			}
		});

		it('does not hold the addresses just outside it', () => {
			for (const bytes of [beside(first, -1), beside(last, 1)])
				if (bytes !== undefined) expect(specialRangeOf(bytes)?.cidr).not.toBe(cidr);
		});

		if (carriesIpv4At === undefined) {
			it('refuses its addresses', () => {
				expect(nonPublicAddress(text(first))).toBeDefined();
				expect(nonPublicAddress(text(last))).toBeDefined();
			});
		} else {
			it('judges its addresses by the IPv4 address they carry', () => {
				const carrying = (v4: number[]) => {
					const bytes = [...first];
					bytes.splice(carriesIpv4At, 4, ...v4);
					return text(bytes);
				};
				expect(nonPublicAddress(carrying([8, 8, 8, 8]))).toBeUndefined();
				expect(decidingCidr(carrying([127, 0, 0, 1]))).toBe('127.0.0.0/8');
				expect(decidingCidr(carrying([100, 64, 0, 1]))).toBe('100.64.0.0/10');
				expect(decidingCidr(carrying([169, 254, 169, 254]))).toBe('169.254.0.0/16');
			});
		}
	},
);

/** The ranges the package promises, each with addresses in it and the range that must refuse them. */
const REFUSED: Array<[string, string]> = [
	['0.0.0.0', '0.0.0.0/8'],
	['0.255.255.255', '0.0.0.0/8'],
	['10.1.2.3', '10.0.0.0/8'],
	['100.64.0.1', '100.64.0.0/10'],
	['100.100.100.200', '100.64.0.0/10'],
	['100.127.255.255', '100.64.0.0/10'],
	['127.0.0.1', '127.0.0.0/8'],
	['127.255.255.254', '127.0.0.0/8'],
	['169.254.169.254', '169.254.0.0/16'],
	['172.16.0.1', '172.16.0.0/12'],
	['172.31.255.255', '172.16.0.0/12'],
	['192.0.0.8', '192.0.0.0/24'],
	['192.0.0.170', '192.0.0.0/24'],
	['192.0.2.1', '192.0.2.0/24'],
	['192.31.196.1', '192.31.196.0/24'],
	['192.52.193.1', '192.52.193.0/24'],
	['192.88.99.1', '192.88.99.0/24'],
	['192.168.1.1', '192.168.0.0/16'],
	['192.175.48.1', '192.175.48.0/24'],
	['198.18.0.1', '198.18.0.0/15'],
	['198.19.255.255', '198.18.0.0/15'],
	['198.51.100.7', '198.51.100.0/24'],
	['203.0.113.9', '203.0.113.0/24'],
	['224.0.0.1', '224.0.0.0/4'],
	['239.255.255.250', '224.0.0.0/4'],
	['240.0.0.1', '240.0.0.0/4'],
	['255.255.255.255', '255.255.255.255/32'],
	['::', '::/128'],
	['::1', '::1/128'],
	['::ffff:127.0.0.1', '127.0.0.0/8'],
	['::ffff:a9fe:a9fe', '169.254.0.0/16'],
	['::ffff:0.0.0.0', '0.0.0.0/8'],
	['::7f00:1', '::/3'],
	['64:ff9b::a00:1', '64:ff9b::/96'],
	['64:ff9b::808:808', '64:ff9b::/96'],
	['64:ff9b:1::1', '64:ff9b:1::/48'],
	['100::1', '100::/64'],
	['100:0:0:1::1', '100:0:0:1::/64'],
	['2001::1', '2001::/23'],
	['2001:1ff:ffff::1', '2001::/23'],
	['2001:db8::1', '2001:db8::/32'],
	['2002:7f00:1::', '127.0.0.0/8'],
	['2002:a9fe:a9fe::1', '169.254.0.0/16'],
	['2620:4f:8000::1', '2620:4f:8000::/48'],
	['3fff::1', '3fff::/20'],
	['5f00::1', '5f00::/16'],
	['fc00::1', 'fc00::/7'],
	['fd00:ec2::254', 'fc00::/7'],
	['fe80::1', 'fe80::/10'],
	['fe80::1%eth0', 'fe80::/10'],
	['febf::1', 'fe80::/10'],
	['fec0::1', 'fec0::/10'],
	['ff02::1', 'ff00::/8'],
	['1::', '::/3'],
	['4000::1', '4000::/2'],
	['8000::1', '8000::/1'],
];

it.each(REFUSED)('refuses %s by %s', (address, cidr) => {
	expect(decidingCidr(address)).toBe(cidr);
	expect(nonPublicAddress(address)).toContain(cidr);
});

it.each([
	'1.1.1.1',
	'8.8.8.8',
	'93.184.216.34',
	'100.63.255.255',
	'100.128.0.0',
	'172.15.255.255',
	'172.32.0.0',
	'192.0.1.255',
	'192.0.3.0',
	'198.17.255.255',
	'198.20.0.0',
	'223.255.255.255',
	'::ffff:8.8.8.8',
	'2002:808:808::1',
	'2001:200::1',
	'2001:db7:ffff::1',
	'2606:4700::1111',
	'2a00:1450:4001:81c::200e',
])('lets the public address %s through', (address) => {
	expect(refusingRanges(address)).toEqual([]);
	expect(nonPublicAddress(address)).toBeUndefined();
});

it("refuses every range of n8n's own default SSRF list", () => {
	expect(SSRF_DEFAULT_BLOCKED_IP_RANGES.length).toBeGreaterThan(10);
	for (const cidr of SSRF_DEFAULT_BLOCKED_IP_RANGES) {
		const { first, last } = bounds(cidr);
		expect([cidr, nonPublicAddress(text(first))]).toEqual([cidr, expect.any(String)]);
		expect([cidr, nonPublicAddress(text(last))]).toEqual([cidr, expect.any(String)]);
	}
});

it('refuses what is not an IP address', () => {
	for (const address of ['', 'example.com', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1::2::3', ':::'])
		expect(nonPublicAddress(address)).toBe('not an IP address');
});

describe('reading addresses', () => {
	it("agrees with Node's net.isIP on any text of address characters", () => {
		const character = fc.constantFrom(...'0123456789abcdefABCDEF:.'.split(''));
		fc.assert(
			fc.property(fc.array(character, { maxLength: 45 }), (characters) => {
				const candidate = characters.join('');
				expect(addressBytes(candidate) !== undefined).toBe(isIP(candidate) !== 0);
			}),
			{ numRuns: 3000 },
		);
		for (const candidate of ['::', '::1', '1::', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8', '1.2.3.4'])
			expect(addressBytes(candidate) !== undefined).toBe(isIP(candidate) !== 0);
	});

	it('reads an IPv6 address as the URL parser writes it and uncompressed alike', () => {
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (raw) => {
				const bytes = [...raw];
				const written = new URL(`https://[${text(bytes)}]/`).hostname.slice(1, -1);
				expect(addressBytes(written)).toEqual(bytes);
				expect(addressBytes(text(bytes))).toEqual(bytes);
			}),
			{ numRuns: 1000 },
		);
	});
});
