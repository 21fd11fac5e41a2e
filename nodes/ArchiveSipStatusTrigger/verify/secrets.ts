import type { Checked } from '../../shared/checked';
import { splitList } from '../../shared/n8n/params';

/** Signing secrets are `whsec_` (optional) + base64 of the key. Messages name the field and why, never the value. */

const SECRET_PREFIX = 'whsec_';

/** Standard Webhooks asks for 24..64 bytes; under 16 a key can be guessed from one signature, so it is refused. */
const MIN_KEY_BYTES = 16;
const RECOMMENDED_MIN_KEY_BYTES = 24;

export const BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;

export interface SigningKeys {
	keys: Buffer[];
	errors: string[];
	warnings: string[];
}

/** Parses one secret; `label` names it in messages, e.g. "Signing Secret". */
export function parseSigningSecret(
	value: unknown,
	label: string,
): Checked<{ key: Buffer; warning?: string }> {
	if (typeof value !== 'string' || value.trim() === '') {
		return { ok: false, reason: `${label} is empty` };
	}
	const trimmed = value.trim();
	if (/^v1[a-z]?,/i.test(trimmed)) {
		return {
			ok: false,
			reason:
				`${label} looks like a signature (starts with "v1,"): ` +
				`paste the signing secret, which starts with "${SECRET_PREFIX}"`,
		};
	}
	if (/\s/.test(trimmed)) {
		return { ok: false, reason: `${label} contains spaces: paste a single secret without spaces` };
	}
	const prefixed = trimmed.startsWith(SECRET_PREFIX);
	const encoded = prefixed ? trimmed.slice(SECRET_PREFIX.length) : trimmed;
	// Length 4n+1 encodes no whole bytes. Unlike the libraries, text that is not base64 is refused, not decoded.
	if (!BASE64_PATTERN.test(encoded) || encoded.replace(/=+$/, '').length % 4 === 1) {
		const where = prefixed
			? `after "${SECRET_PREFIX}"`
			: `(a signing secret is "${SECRET_PREFIX}" followed by base64, or the base64 alone)`;
		return { ok: false, reason: `${label} is not valid base64 ${where}` };
	}
	const key = Buffer.from(encoded, 'base64');
	if (key.length === 0) {
		return { ok: false, reason: `${label} decodes to an empty key` };
	}
	if (key.length < MIN_KEY_BYTES) {
		return {
			ok: false,
			reason:
				`${label} decodes to ${key.length} bytes, fewer than the minimum of ${MIN_KEY_BYTES} ` +
				`(Standard Webhooks secrets hold ${RECOMMENDED_MIN_KEY_BYTES} to 64 random bytes)`,
		};
	}
	if (key.length >= RECOMMENDED_MIN_KEY_BYTES) return { ok: true, value: { key } };
	const warning =
		`${label} decodes to ${key.length} bytes, fewer than the ` +
		`${RECOMMENDED_MIN_KEY_BYTES} Standard Webhooks recommends; it is accepted`;
	return { ok: true, value: { key, warning } };
}

/** Splits the rotation field: one secret per line (spaces also separate, since a secret holds none). */
export function splitAdditionalSecrets(value: unknown): string[] {
	return typeof value === 'string' ? splitList(value, /\s+/) : [];
}

/** Parses the main secret plus the rotation list, collecting every key, error and warning. */
export function parseSigningKeys(signingSecret: unknown, additionalSecrets: unknown): SigningKeys {
	const result: SigningKeys = { keys: [], errors: [], warnings: [] };
	const parsed = [
		parseSigningSecret(signingSecret, 'Signing Secret'),
		...splitAdditionalSecrets(additionalSecrets).map((secret, index) =>
			parseSigningSecret(secret, `Additional Secret ${index + 1}`),
		),
	];
	for (const secret of parsed) {
		if (!secret.ok) {
			result.errors.push(secret.reason);
			continue;
		}
		result.keys.push(secret.value.key);
		if (secret.value.warning) result.warnings.push(secret.value.warning);
	}
	return result;
}
