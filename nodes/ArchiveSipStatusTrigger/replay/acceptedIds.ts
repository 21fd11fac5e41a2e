import { createHash } from 'node:crypto';

/**
 * The replay record: the `webhook-id`s this process accepted, per signing secret, each kept for REPLAY_WINDOW_MS.
 * Every id is kept equally long, so the Map's insertion order is its expiry order. When full, a new id is refused
 * (the sender retries later): dropping an older one would let its replay run again.
 */

/** Covers the sender's retry schedule (about 28 h in total) with a wide margin. */
export const REPLAY_WINDOW_MS = 72 * 60 * 60 * 1000;

/** Ids held per process, all secrets together: about 47 MB when full, room for about 170,000 events a day. */
export const MAX_RECORDED_IDS = 500_000;

/** 128 bits of SHA-256: a fixed-size key whatever id length a sender uses. */
const RECORD_KEY_BYTES = 16;

/** Fingerprints of the keys in use: the signing-key cache hands every delivery the same Buffers. */
const fingerprints = new WeakMap<Buffer, string>();

/** Ids are recorded per secret, not per trigger, because the signature does not cover the URL. */
export function secretFingerprint(key: Buffer): string {
	let fingerprint = fingerprints.get(key);
	if (fingerprint === undefined) {
		fingerprint = createHash('sha256').update(key).digest('base64url').slice(0, 22);
		fingerprints.set(key, fingerprint);
	}
	return fingerprint;
}

/** The record's key for an id accepted under one secret. */
export function recordKey(fingerprint: string, webhookId: string): string {
	return createHash('sha256')
		.update(fingerprint)
		.update('\u0000')
		.update(webhookId, 'utf8')
		.digest()
		.subarray(0, RECORD_KEY_BYTES)
		.toString('base64url');
}

export class AcceptedIdRecord {
	private readonly expiries = new Map<string, number>();

	/** When this record began (the process loaded the node): it knows nothing accepted before. */
	startedAtMs: number;

	constructor(
		readonly capacity = MAX_RECORDED_IDS,
		readonly retentionMs = REPLAY_WINDOW_MS,
		private readonly now: () => number = () => Date.now(),
	) {
		this.startedAtMs = now();
	}

	/** Empties the record as a restarted process would find it, begun at `startedAtMs`. */
	reset(startedAtMs = this.now()): void {
		this.expiries.clear();
		this.startedAtMs = startedAtMs;
	}

	get size(): number {
		this.dropExpired();
		return this.expiries.size;
	}

	has(key: string): boolean {
		const expiresAt = this.expiries.get(key);
		return expiresAt !== undefined && expiresAt > this.now();
	}

	/** Records `key`; 'present' when it is already recorded, 'full' when the record has no room. */
	add(key: string): 'added' | 'present' | 'full' {
		if (this.has(key)) return 'present';
		this.dropExpired();
		// An expired entry still in the Map (behind a later one after a clock step back) is replaced, not kept twice.
		this.expiries.delete(key);
		if (this.expiries.size >= this.capacity) return 'full';
		this.expiries.set(key, this.now() + this.retentionMs);
		return 'added';
	}

	hasRoomFor(count: number): boolean {
		this.dropExpired();
		return this.expiries.size + count <= this.capacity;
	}

	delete(key: string): void {
		this.expiries.delete(key);
	}

	private dropExpired(): void {
		const now = this.now();
		for (const [key, expiresAt] of this.expiries) {
			if (expiresAt > now) return;
			this.expiries.delete(key);
		}
	}
}

/** This process's record, shared by every trigger (and the Test URL) in it. */
export const acceptedIds = new AcceptedIdRecord();
