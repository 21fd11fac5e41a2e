/**
 * Seeded pseudo-random numbers. Every generated value derives from (seed, stream, index), so any row can be
 * regenerated on its own: heavy columns are produced lazily and data is identical for the same seed.
 */

/** Two lowercase hex digits per byte value: hex() is on the emulator's hot path (ids of every row served). */
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Stream names repeat (one per view and purpose); their hashes are worth keeping. */
const streamHashes = new Map<string, number>();

function streamHash(stream: string): number {
	let hash = streamHashes.get(stream);
	if (hash === undefined) {
		hash = hashString(stream);
		if (streamHashes.size < 1000) streamHashes.set(stream, hash);
	}
	return hash;
}

/** 32-bit FNV-1a over a string, used to turn stream names into numbers. */
export function hashString(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** Mixes several integers into one well-distributed 32-bit seed (murmur3 finaliser per step). */
export function mixSeed(...parts: number[]): number {
	let h = 0x9e3779b9;
	for (const part of parts) {
		h ^= part >>> 0;
		h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
		h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
		h ^= h >>> 16;
	}
	return h >>> 0;
}

export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0 || 0x6d2b79f5;
	}

	static for(seed: number, stream: string, index = 0, extra = 0): Random {
		return new Random(mixSeed(seed, streamHash(stream), index, extra));
	}

	/** mulberry32: fast, good enough for test data, fully deterministic. */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(minInclusive: number, maxInclusive: number): number {
		return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** Rounded float in [min, max). */
	float(min: number, max: number, decimals: number): number {
		const factor = 10 ** decimals;
		return Math.round((min + this.next() * (max - min)) * factor) / factor;
	}

	/** Builds a flat string in one go (char-by-char concatenation would create memory-hungry rope strings). */
	chars(alphabet: string, length: number): string {
		const codes = new Array<number>(length);
		for (let i = 0; i < length; i++)
			codes[i] = alphabet.charCodeAt(Math.floor(this.next() * alphabet.length));
		return String.fromCharCode(...codes);
	}

	/** Lowercase hex, 8 characters per 32 random bits. */
	hex(length: number): string {
		let text = '';
		for (let produced = 0; produced < length; produced += 8) {
			const word = Math.floor(this.next() * 4294967296);
			text +=
				BYTE_HEX[word >>> 24] +
				BYTE_HEX[(word >>> 16) & 255] +
				BYTE_HEX[(word >>> 8) & 255] +
				BYTE_HEX[word & 255];
		}
		return text.length === length ? text : text.slice(0, length);
	}

	/** RFC 4122 version-4 shaped UUID. */
	uuid(): string {
		const hex = this.hex(32);
		const variant = '89ab'[parseInt(hex[16], 16) & 3];
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}

	shuffle<T>(items: T[]): T[] {
		for (let i = items.length - 1; i > 0; i--) {
			const j = Math.floor(this.next() * (i + 1));
			[items[i], items[j]] = [items[j], items[i]];
		}
		return items;
	}
}

export const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
