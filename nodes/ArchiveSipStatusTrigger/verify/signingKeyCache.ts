import { setBounded } from '../../shared/boundedCache';
import type { SigningKeys } from './secrets';

/**
 * Signing keys read from a credential, reused for a few seconds by the production deliveries of this process: n8n
 * loads and decrypts a credential from its database for each read, and n8n 2.x resolves its fields in an expression
 * isolate, a cold one each time under a burst. A delivery with well-formed, fresh headers whose signature matches none
 * of the reused keys reads the credential again before it is refused (at most once per FORCED_REREAD_INTERVAL_MS per
 * credential, so forgeries cannot make every request a credential read): a secret added for rotation verifies at
 * once, a removed one stops verifying within SIGNING_KEY_REUSE_MS. Reads under way are shared (`sharedRead`), so a
 * burst arriving while the keys are read causes one read.
 */
export const SIGNING_KEY_REUSE_MS = 10_000;

export const FORCED_REREAD_INTERVAL_MS = 5_000;

/** More credentials than one n8n process serves triggers for; the oldest entry goes first. */
const MAX_ENTRIES = 1000;

const entries = new Map<string, { keys: SigningKeys; readAtMs: number }>();
const forcedRereads = new Map<string, number>();
const secretFingerprints = new Map<string, string>();
/** Only reads under way: each entry goes when its read ends, so the map is bounded by the requests in progress. */
const readsInFlight = new Map<string, Promise<unknown>>();

/** Keys read from the credential within the reuse window, or undefined. */
export function recentSigningKeys(credentialId: string, nowMs: number): SigningKeys | undefined {
	const entry = entries.get(credentialId);
	if (!entry) return undefined;
	const age = nowMs - entry.readAtMs;
	// A clock that went backwards counts as stale too.
	if (age >= 0 && age < SIGNING_KEY_REUSE_MS) return entry.keys;
	entries.delete(credentialId);
	return undefined;
}

export function rememberSigningKeys(credentialId: string, keys: SigningKeys, nowMs: number): void {
	setBounded(entries, credentialId, { keys, readAtMs: nowMs }, MAX_ENTRIES);
}

/** True (and counted) when the credential may be read again now to re-check a refused signature. */
export function takeForcedReread(credentialId: string, nowMs: number): boolean {
	const last = forcedRereads.get(credentialId);
	if (last !== undefined && nowMs - last >= 0 && nowMs - last < FORCED_REREAD_INTERVAL_MS)
		return false;
	setBounded(forcedRereads, credentialId, nowMs, MAX_ENTRIES);
	return true;
}

/** True when the credential's secrets (by fingerprint) differ from the ones last read for it. */
export function secretsChanged(credentialKey: string, fingerprint: string): boolean {
	if (secretFingerprints.get(credentialKey) === fingerprint) return false;
	setBounded(secretFingerprints, credentialKey, fingerprint, MAX_ENTRIES);
	return true;
}

/**
 * Runs `read` unless a read for the same key is under way, in which case its outcome is shared (`joined`). A read
 * that fails is not kept: the callers waiting on it fail with it, and the next caller reads again.
 */
export async function sharedRead<T>(
	key: string,
	read: () => Promise<T>,
): Promise<{ value: T; joined: boolean }> {
	const underWay = readsInFlight.get(key) as Promise<T> | undefined;
	if (underWay) return { value: await underWay, joined: true };
	const started = read();
	readsInFlight.set(key, started);
	try {
		return { value: await started, joined: false };
	} finally {
		if (readsInFlight.get(key) === started) readsInFlight.delete(key);
	}
}

/** Reads under way, for tests (a failed read must leave none behind). */
export function credentialReadsInFlight(): number {
	return readsInFlight.size;
}

/** Entries held by the process-wide maps, for tests. */
export function signingKeyCacheSizes() {
	return {
		keys: entries.size,
		forcedRereads: forcedRereads.size,
		secretFingerprints: secretFingerprints.size,
	};
}
