import { createHmac, timingSafeEqual } from 'node:crypto';

import type { Checked } from '../../shared/checked';
import { BASE64_PATTERN } from './secrets';

/** Standard Webhooks verification over the raw bytes. A reason (a 401 body) never holds a secret or signature. */

type HeaderValue = string | string[] | undefined;

export type HeaderMap = Record<string, HeaderValue>;

/** `signatures`: the entries of the webhook-signature header(s), e.g. `v1,<base64>`. */
interface WebhookHeaders {
	id: string;
	timestamp: string;
	signatures: string[];
}

type Verified =
	| { ok: true; value: WebhookHeaders; matchedKeys: Buffer[] }
	| { ok: false; reason: string; signatureOnly?: boolean };

const SIGNATURE_BYTES = 32;
/** Integer seconds; 12 digits keep the value a safe integer and flag millisecond timestamps as far future. */
const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
const WHITESPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);

/** Bounds on what an unauthenticated sender controls, checked before any parsing (real headers are far below). */
const MAX_SIGNATURE_HEADER_BYTES = 4096;
const MAX_SIGNATURE_ENTRIES = 10;
/** Accepted ids are kept for the replay window, so their size is bounded too. */
const MAX_WEBHOOK_ID_LENGTH = 256;
const MAX_TIMESTAMP_LENGTH = 32;

function headerLength(value: HeaderValue): number {
	if (Array.isArray(value)) return value.reduce((sum, entry) => sum + entry.length + 1, 0);
	return value?.length ?? 0;
}

/** A header sent twice comes as an array or comma-joined: identical copies are harmless, differing ones ambiguous. */
function singleValue(value: HeaderValue, name: string, maxLength: number): Checked<string> {
	// A comma-joined copy of an acceptable value is at most twice as long, plus the separator.
	if (headerLength(value) > 2 * maxLength + 2)
		return { ok: false, reason: `${name} header is too long` };
	const parts = (Array.isArray(value) ? value : [value ?? ''])
		.flatMap((entry) => entry.split(','))
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	if (parts.length === 0) return { ok: false, reason: `missing ${name} header` };
	if (parts.some((part) => part !== parts[0])) {
		return { ok: false, reason: `${name} header was sent more than once with different values` };
	}
	if (parts[0].length > maxLength) return { ok: false, reason: `${name} header is too long` };
	return { ok: true, value: parts[0] };
}

/** Whitespace-separated entries, in one linear pass; undefined past the limit. */
function splitEntries(header: string, limit: number): string[] | undefined {
	const entries: string[] = [];
	let start = -1;
	for (let at = 0; at <= header.length; at++) {
		const isSpace = at === header.length || WHITESPACE.has(header.charCodeAt(at));
		if (!isSpace && start < 0) start = at;
		if (isSpace && start >= 0) {
			if (entries.length === limit) return undefined;
			entries.push(header.slice(start, at));
			start = -1;
		}
	}
	return entries;
}

function signatureValue(value: HeaderValue): Checked<string[]> {
	if (headerLength(value) > MAX_SIGNATURE_HEADER_BYTES) {
		return {
			ok: false,
			reason: `webhook-signature header is longer than ${MAX_SIGNATURE_HEADER_BYTES} bytes`,
		};
	}
	const entries = splitEntries(
		Array.isArray(value) ? value.join(' ') : (value ?? ''),
		MAX_SIGNATURE_ENTRIES,
	);
	if (entries === undefined) {
		return {
			ok: false,
			reason: `webhook-signature header has more than ${MAX_SIGNATURE_ENTRIES} entries`,
		};
	}
	if (entries.length === 0) return { ok: false, reason: 'missing webhook-signature header' };
	return { ok: true, value: entries };
}

/** Reads the three Standard Webhooks headers (names are lower-case in node's `req.headers`). */
export function readWebhookHeaders(headers: HeaderMap): Checked<WebhookHeaders> {
	const id = singleValue(headers['webhook-id'], 'webhook-id', MAX_WEBHOOK_ID_LENGTH);
	if (!id.ok) return id;
	const timestamp = singleValue(
		headers['webhook-timestamp'],
		'webhook-timestamp',
		MAX_TIMESTAMP_LENGTH,
	);
	if (!timestamp.ok) return timestamp;
	const signature = signatureValue(headers['webhook-signature']);
	if (!signature.ok) return signature;
	return {
		ok: true,
		value: { id: id.value, timestamp: timestamp.value, signatures: signature.value },
	};
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

/** The headers, then the timestamp window: what can be refused before any key is looked at. */
export function checkHeaders(
	headers: HeaderMap,
	nowMs: number,
	toleranceSeconds: number,
): Checked<WebhookHeaders> {
	const read = readWebhookHeaders(headers);
	if (!read.ok) return read;
	const timestamp = checkTimestamp(read.value.timestamp, nowMs, toleranceSeconds);
	return timestamp.ok ? read : timestamp;
}

/** The well-formed 32-byte `v1` signatures among the entries; other versions (e.g. `v1a`) are ignored. */
export function v1Signatures(entries: string[]): Buffer[] {
	const signatures: Buffer[] = [];
	for (const rawEntry of entries) {
		// Drops the trailing commas a comma-joined duplicate header leaves (a loop: linear time).
		let end = rawEntry.length;
		while (end > 0 && rawEntry.charCodeAt(end - 1) === 0x2c) end--;
		const entry = rawEntry.slice(0, end);
		if (!entry.startsWith('v1,')) continue;
		const encoded = entry.slice(3);
		// 32 bytes are 44 base64 characters with padding, 43 without.
		if (encoded.length > 44 || !BASE64_PATTERN.test(encoded)) continue;
		const decoded = Buffer.from(encoded, 'base64');
		if (decoded.length === SIGNATURE_BYTES) signatures.push(decoded);
	}
	return signatures;
}

/** HMAC-SHA256 over the bytes `<id>.<timestamp>.<raw body>`: node hands header values over as latin1, one per byte. */
export function computeSignature(
	key: Buffer,
	id: string,
	timestamp: string,
	rawBody: Buffer,
): Buffer {
	return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'latin1').update(rawBody).digest();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A header value as text for the output: its bytes read as UTF-8 when they are valid UTF-8, else as they came. */
export function headerText(value: string): string {
	try {
		return utf8.decode(Buffer.from(value, 'latin1'));
	} catch {
		return value;
	}
}

/** The keys that signed the delivery; every entry is compared with every key in constant time, no early exit. */
function matchingKeys(keys: Buffer[], headers: WebhookHeaders, rawBody: Buffer): Buffer[] {
	const candidates = v1Signatures(headers.signatures);
	return keys.filter((key) => {
		const expected = computeSignature(key, headers.id, headers.timestamp, rawBody);
		let matches = false;
		for (const candidate of candidates) {
			// Both are SIGNATURE_BYTES long, as timingSafeEqual requires.
			if (timingSafeEqual(expected, candidate)) matches = true;
		}
		return matches;
	});
}

/** Headers, timestamp window and signature, in that order; the first failure is returned. */
export function verifyDelivery(
	headers: HeaderMap,
	rawBody: Buffer,
	options: { keys: Buffer[]; nowMs: number; toleranceSeconds: number },
): Verified {
	const read = checkHeaders(headers, options.nowMs, options.toleranceSeconds);
	if (!read.ok) return read;
	const matchedKeys = matchingKeys(options.keys, read.value, rawBody);
	if (matchedKeys.length === 0) {
		return { ok: false, reason: 'no valid webhook signature', signatureOnly: true };
	}
	return { ...read, matchedKeys };
}
