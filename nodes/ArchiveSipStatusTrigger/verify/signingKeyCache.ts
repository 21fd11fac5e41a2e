import { setBounded } from '../../shared/boundedCache';
import type { SigningKeys } from './secrets';

/**
 * Signing keys reused for a few seconds by this process's production deliveries: each credential read makes n8n load
 * and decrypt it (n8n 2.x in an expression isolate). A signature matching none of the reused keys rereads the
 * credential at most once per FORCED_REREAD_INTERVAL_MS, so a secret added for rotation verifies at once and forgeries
 * cannot make every request a credential read; a removed secret stops verifying within SIGNING_KEY_REUSE_MS.
 */
export const SIGNING_KEY_REUSE_MS = 10_000;

export const FORCED_REREAD_INTERVAL_MS = 5_000;

/** More credentials than one n8n process serves triggers for. */
const MAX_ENTRIES = 1000;

const entries = new Map<string, { keys: SigningKeys; readAtMs: number }>();
const forcedRereads = new Map<string, number>();
const secretFingerprints = new Map<string, string>();
/** Bounded by the requests in progress: each entry goes when its read ends. */
const readsInFlight = new Map<string, Promise<unknown>>();

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

/** Runs `read` unless one for the key is under way, then shares it (`joined`); a failed read is not kept. */
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
