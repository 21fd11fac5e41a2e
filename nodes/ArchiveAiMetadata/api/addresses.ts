/**
 * Which addresses a download may reach, by hand (a community node may not import node:net): a URL's host (the URL
 * parser already wrote `127.1`, `0x7f.1` as `127.0.0.1`, and IPv6 compressed) or a response's socket.
 */

/** Why an address is not on the public internet, in words fit for an error message. */
type AddressKind =
	| 'loopback'
	| 'private'
	| 'link-local'
	| 'unique-local'
	| 'multicast'
	| 'unspecified'
	| 'cloud metadata'
	| 'reserved';

interface Range {
	base: number[];
	bits: number;
	kind: AddressKind;
}

const ipv4 = (text: string): number[] => text.split('.').map(Number);

/** Checked in order: the metadata addresses come before the ranges that hold them. */
const IPV4_RANGES: Range[] = [
	{ base: ipv4('169.254.169.254'), bits: 32, kind: 'cloud metadata' },
	{ base: ipv4('169.254.170.2'), bits: 32, kind: 'cloud metadata' },
	{ base: ipv4('100.100.100.200'), bits: 32, kind: 'cloud metadata' },
	{ base: ipv4('0.0.0.0'), bits: 8, kind: 'unspecified' },
	{ base: ipv4('10.0.0.0'), bits: 8, kind: 'private' },
	{ base: ipv4('100.64.0.0'), bits: 10, kind: 'private' },
	{ base: ipv4('127.0.0.0'), bits: 8, kind: 'loopback' },
	{ base: ipv4('169.254.0.0'), bits: 16, kind: 'link-local' },
	{ base: ipv4('172.16.0.0'), bits: 12, kind: 'private' },
	{ base: ipv4('192.0.0.0'), bits: 24, kind: 'reserved' },
	{ base: ipv4('192.0.2.0'), bits: 24, kind: 'reserved' },
	{ base: ipv4('192.168.0.0'), bits: 16, kind: 'private' },
	{ base: ipv4('198.18.0.0'), bits: 15, kind: 'reserved' },
	{ base: ipv4('198.51.100.0'), bits: 24, kind: 'reserved' },
	{ base: ipv4('203.0.113.0'), bits: 24, kind: 'reserved' },
	{ base: ipv4('224.0.0.0'), bits: 4, kind: 'multicast' },
	{ base: ipv4('240.0.0.0'), bits: 4, kind: 'reserved' },
];

/** IPv6 ranges as 16-bit groups. Ranges that embed an IPv4 address are handled in classifyIpv6. */
const IPV6_RANGES: Range[] = [
	{ base: [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254], bits: 128, kind: 'cloud metadata' },
	{ base: [0, 0, 0, 0, 0, 0, 0, 0], bits: 128, kind: 'unspecified' },
	{ base: [0, 0, 0, 0, 0, 0, 0, 1], bits: 128, kind: 'loopback' },
	{ base: [0x64, 0xff9b, 1, 0, 0, 0, 0, 0], bits: 48, kind: 'private' },
	{ base: [0x100, 0, 0, 0, 0, 0, 0, 0], bits: 64, kind: 'reserved' },
	{ base: [0x2001, 0, 0, 0, 0, 0, 0, 0], bits: 32, kind: 'reserved' },
	{ base: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], bits: 32, kind: 'reserved' },
	{ base: [0xfc00, 0, 0, 0, 0, 0, 0, 0], bits: 7, kind: 'unique-local' },
	{ base: [0xfe80, 0, 0, 0, 0, 0, 0, 0], bits: 10, kind: 'link-local' },
	{ base: [0xfec0, 0, 0, 0, 0, 0, 0, 0], bits: 10, kind: 'reserved' },
	{ base: [0xff00, 0, 0, 0, 0, 0, 0, 0], bits: 8, kind: 'multicast' },
];

function inRange(parts: number[], range: Range, partBits: number): boolean {
	let remaining = range.bits;
	for (let index = 0; remaining > 0; index++) {
		const bits = Math.min(partBits, remaining);
		const shift = partBits - bits;
		if (parts[index] >> shift !== range.base[index] >> shift) return false;
		remaining -= bits;
	}
	return true;
}

function parseIpv4(text: string): number[] | undefined {
	if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return undefined;
	const parts = ipv4(text);
	return parts.every((part) => part <= 255) ? parts : undefined;
}

/** Eight 16-bit groups of an IPv6 address (with or without brackets, `::`, an IPv4 tail or a zone), or undefined. */
function parseIpv6(text: string): number[] | undefined {
	const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
	if (!address.includes(':') || address.length > 45) return undefined;
	const halves = address.split('::');
	if (halves.length > 2) return undefined;
	const groupsOf = (half: string): number[] | undefined => {
		if (half === '') return [];
		const groups: number[] = [];
		const pieces = half.split(':');
		for (const [index, piece] of pieces.entries()) {
			const tail = index === pieces.length - 1 ? parseIpv4(piece) : undefined;
			if (tail) groups.push((tail[0] << 8) | tail[1], (tail[2] << 8) | tail[3]);
			else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(parseInt(piece, 16));
			else return undefined;
		}
		return groups;
	};
	const head = groupsOf(halves[0]);
	const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
	if (!head || !tail) return undefined;
	if (halves.length === 1) return head.length === 8 ? head : undefined;
	const missing = 8 - head.length - tail.length;
	return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

function classifyIpv4(parts: number[]): AddressKind | undefined {
	return IPV4_RANGES.find((range) => inRange(parts, range, 8))?.kind;
}

/** The IPv4 address in a mapped, translated, compatible, NAT64 (well-known, local-use) or 6to4 IPv6 address. */
function embeddedIpv4(groups: number[]): number[] | undefined {
	const fromGroups = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
	const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
	if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0))
		return fromGroups(groups[6], groups[7]);
	if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0)
		return fromGroups(groups[6], groups[7]);
	if (
		groups[0] === 0x64 &&
		groups[1] === 0xff9b &&
		(groups[2] === 0 || groups[2] === 1) &&
		zeros(3, 6)
	)
		return fromGroups(groups[6], groups[7]);
	if (groups[0] === 0x2002) return fromGroups(groups[1], groups[2]);
	return undefined;
}

/** Local-use NAT64 (64:ff9b:1::/48) reaches whatever the operator's translator reaches: never public. */
const isLocalUseNat64 = (groups: number[]) =>
	groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1;

function classifyIpv6(groups: number[]): AddressKind | undefined {
	const exact = IPV6_RANGES.slice(0, 3).find((range) => inRange(groups, range, 16));
	if (exact) return exact.kind;
	const embedded = embeddedIpv4(groups);
	const embeddedKind = embedded && classifyIpv4(embedded);
	if (embeddedKind || (embedded && !isLocalUseNat64(groups))) return embeddedKind;
	return IPV6_RANGES.find((range) => inRange(groups, range, 16))?.kind;
}

export function isIpAddress(text: string): boolean {
	return parseIpv4(text) !== undefined || parseIpv6(text) !== undefined;
}

export function classifyAddress(address: string): AddressKind | undefined {
	const v4 = parseIpv4(address);
	if (v4) return classifyIpv4(v4);
	const v6 = parseIpv6(address);
	return v6 ? classifyIpv6(v6) : undefined;
}

/** What kind of non-public destination a URL host is by its text: an IP address, or `localhost`, `*.localhost`. */
export function classifyHost(hostname: string): AddressKind | undefined {
	const name = hostname.toLowerCase().replace(/\.$/, '');
	if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
	return classifyAddress(name);
}
