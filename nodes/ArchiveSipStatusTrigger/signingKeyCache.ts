import type { SigningKeys } from './secrets';

/**
 * Signing keys read from a credential, reused for a few seconds by the production deliveries of this process.
 *
 * Reading a credential in a webhook call is not free: n8n loads and decrypts it from its database, and n8n 2.x
 * resolves its fields in an expression isolate of its own, which under a burst of deliveries is a cold one each
 * time. A delivery whose signature matches none of the reused keys reads the credential again before it is
 * refused, so a secret added for rotation verifies at once; a secret removed from the credential stops verifying
 * within SIGNING_KEY_REUSE_MS.
 */
export const SIGNING_KEY_REUSE_MS = 10_000;

/** More credentials than one n8n process serves triggers for; the oldest entry goes first. */
const MAX_ENTRIES = 1000;

const entries = new Map<string, { keys: SigningKeys; readAtMs: number }>();

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
	entries.delete(credentialId);
	entries.set(credentialId, { keys, readAtMs: nowMs });
	if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}
