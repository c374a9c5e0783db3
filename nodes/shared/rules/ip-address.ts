/**
 * IP addresses read as bytes, character by character: no regular expression,
 * so hostile text is read in linear time (and cut at 64 characters first).
 * The special-purpose table (./special-addresses.ts) judges the bytes.
 */

/** Longer text is no IP address; cutting first keeps every read constant-time. */
const MAX_ADDRESS_LENGTH = 64;

const isDigit = (code: number) => code >= 48 && code <= 57;
const hexValue = (code: number): number | undefined => {
	if (isDigit(code)) return code - 48;
	const lower = code | 0x20;
	return lower >= 97 && lower <= 102 ? lower - 87 : undefined;
};

/** The 4 bytes of a dotted IPv4 address (`a.b.c.d`, decimal, as written canonically), or undefined. */
export function ipv4Bytes(text: string): number[] | undefined {
	if (text.length > MAX_ADDRESS_LENGTH) return undefined;
	const parts = text.split('.');
	if (parts.length !== 4) return undefined;
	const bytes: number[] = [];
	for (const part of parts) {
		// A leading zero reads as octal in some parsers: no canonical address has one.
		if (part.length < 1 || part.length > 3 || (part.length > 1 && part[0] === '0'))
			return undefined;
		let value = 0;
		for (let i = 0; i < part.length; i++) {
			const code = part.charCodeAt(i);
			if (!isDigit(code)) return undefined;
			value = value * 10 + code - 48;
		}
		if (value > 255) return undefined;
		bytes.push(value);
	}
	return bytes;
}

/** The 16-bit groups of one side of `::`; a dotted IPv4 address may end the address. */
function groupsOf(side: string, endsAddress: boolean): number[] | undefined {
	if (side === '') return [];
	const pieces = side.split(':');
	const groups: number[] = [];
	for (let p = 0; p < pieces.length; p++) {
		const piece = pieces[p];
		if (endsAddress && p === pieces.length - 1 && piece.includes('.')) {
			const v4 = ipv4Bytes(piece);
			if (v4 === undefined) return undefined;
			groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
			continue;
		}
		if (piece.length < 1 || piece.length > 4) return undefined;
		let value = 0;
		for (let i = 0; i < piece.length; i++) {
			const digit = hexValue(piece.charCodeAt(i));
			if (digit === undefined) return undefined;
			value = value * 16 + digit;
		}
		groups.push(value);
	}
	return groups;
}

/** The 16 bytes of an IPv6 address (without brackets; a `%zone` is dropped), or undefined. */
export function ipv6Bytes(text: string): number[] | undefined {
	if (text.length > MAX_ADDRESS_LENGTH) return undefined;
	const zone = text.indexOf('%');
	const halves = (zone === -1 ? text : text.slice(0, zone)).split('::');
	if (halves.length > 2) return undefined;
	const compressed = halves.length === 2;
	const head = groupsOf(halves[0], !compressed);
	const tail = compressed ? groupsOf(halves[1], true) : [];
	if (head === undefined || tail === undefined) return undefined;
	const missing = 8 - head.length - tail.length;
	if (compressed ? missing < 1 : missing !== 0) return undefined;
	const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
	return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

/** The bytes of an IP address (IPv6 without brackets), or undefined when `text` is none. */
export function addressBytes(text: string): number[] | undefined {
	return text.includes(':') ? ipv6Bytes(text) : ipv4Bytes(text);
}
