import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks verification over the raw request bytes. Every failure is a reason string
 * meant for a 401 body: it never contains the secret, the signature or the expected value.
 */

export type HeaderValue = string | string[] | undefined;

export type HeaderMap = Record<string, HeaderValue>;

export interface WebhookHeaders {
	id: string;
	timestamp: string;
	signature: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const SIGNATURE_BYTES = 32;
const BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;
/** Integer seconds; 12 digits keep the value a safe integer and flag millisecond timestamps as far future. */
const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;

/**
 * A header sent twice reaches the node as an array or as one comma-joined string. Identical
 * copies are harmless; differing copies mean the signed value is ambiguous.
 */
function singleValue(value: HeaderValue, name: string): Checked<string> {
	const parts = (Array.isArray(value) ? value : [value ?? ''])
		.flatMap((entry) => entry.split(','))
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	if (parts.length === 0) return { ok: false, reason: `missing ${name} header` };
	if (parts.some((part) => part !== parts[0])) {
		return { ok: false, reason: `${name} header was sent more than once with different values` };
	}
	return { ok: true, value: parts[0] };
}

function signatureValue(value: HeaderValue): Checked<string> {
	const joined = (Array.isArray(value) ? value.join(' ') : (value ?? '')).trim();
	if (joined === '') return { ok: false, reason: 'missing webhook-signature header' };
	return { ok: true, value: joined };
}

/** Reads the three Standard Webhooks headers (names are lower-case in node's `req.headers`). */
export function readWebhookHeaders(headers: HeaderMap): Checked<WebhookHeaders> {
	const id = singleValue(headers['webhook-id'], 'webhook-id');
	if (!id.ok) return id;
	const timestamp = singleValue(headers['webhook-timestamp'], 'webhook-timestamp');
	if (!timestamp.ok) return timestamp;
	const signature = signatureValue(headers['webhook-signature']);
	if (!signature.ok) return signature;
	return { ok: true, value: { id: id.value, timestamp: timestamp.value, signature: signature.value } };
}

/** Accepts only digit-only integer seconds within `toleranceSeconds` of `nowMs`, both ways. */
export function checkTimestamp(
	timestamp: string,
	nowMs: number,
	toleranceSeconds: number,
): Checked<number> {
	if (!TIMESTAMP_PATTERN.test(timestamp)) {
		return { ok: false, reason: 'webhook-timestamp must be integer seconds since the epoch' };
	}
	const seconds = Number(timestamp);
	const ageSeconds = Math.floor(nowMs / 1000) - seconds;
	if (ageSeconds > toleranceSeconds) return { ok: false, reason: 'webhook-timestamp is too old' };
	if (-ageSeconds > toleranceSeconds) {
		return { ok: false, reason: 'webhook-timestamp is too far in the future' };
	}
	return { ok: true, value: seconds };
}

/** The `v1` signatures of a space-separated list; other versions (e.g. `v1a`) are ignored. */
export function v1Signatures(header: string): Buffer[] {
	const signatures: Buffer[] = [];
	for (const rawEntry of header.split(/\s+/)) {
		// A comma-joined duplicate header leaves a trailing comma on the entry before it.
		const entry = rawEntry.replace(/,+$/, '');
		const separator = entry.indexOf(',');
		if (separator < 0 || entry.slice(0, separator) !== 'v1') continue;
		const encoded = entry.slice(separator + 1);
		if (!BASE64_PATTERN.test(encoded)) continue;
		const decoded = Buffer.from(encoded, 'base64');
		if (decoded.length === SIGNATURE_BYTES) signatures.push(decoded);
	}
	return signatures;
}

/** HMAC-SHA256 over the exact bytes `<id>.<timestamp>.<raw body>`. */
export function computeSignature(key: Buffer, id: string, timestamp: string, rawBody: Buffer): Buffer {
	return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(rawBody).digest();
}

/** True when any `v1` signature matches any key; every candidate is compared in constant time. */
export function signatureMatches(
	keys: Buffer[],
	headers: WebhookHeaders,
	rawBody: Buffer,
): boolean {
	const candidates = v1Signatures(headers.signature);
	let matched = false;
	for (const key of keys) {
		const expected = computeSignature(key, headers.id, headers.timestamp, rawBody);
		for (const candidate of candidates) {
			// Both are SIGNATURE_BYTES long, as timingSafeEqual requires; no early exit on a match.
			if (timingSafeEqual(expected, candidate)) matched = true;
		}
	}
	return matched;
}

export interface VerifyOptions {
	keys: Buffer[];
	nowMs: number;
	toleranceSeconds: number;
}

/** Headers, timestamp window and signature, in that order; the first failure is returned. */
export function verifyDelivery(
	headers: HeaderMap,
	rawBody: Buffer,
	options: VerifyOptions,
): Checked<WebhookHeaders> {
	const read = readWebhookHeaders(headers);
	if (!read.ok) return read;
	const timestamp = checkTimestamp(read.value.timestamp, options.nowMs, options.toleranceSeconds);
	if (!timestamp.ok) return timestamp;
	if (!signatureMatches(options.keys, read.value, rawBody)) {
		return { ok: false, reason: 'no valid webhook signature' };
	}
	return read;
}
