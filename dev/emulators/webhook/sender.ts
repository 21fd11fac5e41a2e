/**
 * Emulates the hosted Standard Webhooks sender of SIP status events (as documented and as the real sender behaves): Python-style JSON
 * bodies, `msg_` ids, integer-second timestamps, `v1,<base64 HMAC-SHA256>` signatures for every active secret,
 * and the real retry schedule (compressible for tests). Signing is the `standardwebhooks` library's (fixtures.ts `sign`).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import { BASE62, LOWERCASE, Random } from '../core/random';
import { sign } from './fixtures';
import { pythonJsonDumps } from './pythonJson';

export { sign } from './fixtures';
export { pythonJsonDumps } from './pythonJson';

export const DEFAULT_EVENT_TYPE = 'meemoo.sip.archived';
/** Delays before attempts 2..9 after a non-2xx answer: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [
	0, 5, 300, 1800, 7200, 18000, 36000, 36000,
];
/** The real sender abandons an attempt after 15 s. */
export const ATTEMPT_TIMEOUT_MS = 15_000;

export interface StatusEventData {
	correlation_id: string;
	outcome: 'success' | 'failure';
	pid?: string;
	message?: string;
}

export interface StatusEvent {
	type: string;
	timestamp: string;
	data: StatusEventData;
}

export interface EventOptions {
	correlationId?: string;
	type?: string;
	/** Event time; rendered with microseconds like `2025-09-03T20:26:10.344522Z`. */
	timestamp?: Date | string;
}

/** Random source for ids; pass a seeded one for reproducible output. */
export type RandomSource = () => number;

const defaultRandom: RandomSource = () => randomBytes(4).readUInt32BE(0) / 4294967296;

function randomChars(alphabet: string, length: number, random: RandomSource): string {
	let out = '';
	for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
	return out;
}

export function newCorrelationId(random: RandomSource = defaultRandom): string {
	return randomChars('0123456789abcdef', 32, random);
}

export function newPid(random: RandomSource = defaultRandom): string {
	return randomChars(LOWERCASE, 10, random);
}

/** `msg_` + 27 base62 characters, like `msg_333a3NGSYKk1vyFtMgj9Qy8gm3y`. */
export function newMessageId(random: RandomSource = defaultRandom): string {
	return `msg_${randomChars(BASE62, 27, random)}`;
}

/** A fresh `whsec_` secret (base64 of `bytes` random bytes; the spec asks for 24..64). */
export function generateSecret(bytes = 32): string {
	return `whsec_${randomBytes(bytes).toString('base64')}`;
}

function eventTimestamp(value: Date | string | undefined, random: RandomSource): string {
	if (typeof value === 'string') return value;
	const date = value ?? new Date();
	const micros = String(Math.floor(random() * 1000)).padStart(3, '0');
	return date.toISOString().replace(/\.(\d{3})Z$/, `.$1${micros}Z`);
}

export function buildSuccessEvent(
	options: EventOptions & { pid?: string } = {},
	random: RandomSource = defaultRandom,
): StatusEvent {
	return {
		type: options.type ?? DEFAULT_EVENT_TYPE,
		timestamp: eventTimestamp(options.timestamp, random),
		data: {
			correlation_id: options.correlationId ?? newCorrelationId(random),
			outcome: 'success',
			pid: options.pid ?? newPid(random),
		},
	};
}

/** Failure events carry `message`: `sipin.sip-2.validate -- <reason>` unless a full message is given. */
export function buildFailureEvent(
	options: EventOptions & { reason?: string; message?: string } = {},
	random: RandomSource = defaultRandom,
): StatusEvent {
	const message =
		options.message ?? `sipin.sip-2.validate -- ${options.reason ?? 'SIP is not a valid zip file'}`;
	return {
		type: options.type ?? DEFAULT_EVENT_TYPE,
		timestamp: eventTimestamp(options.timestamp, random),
		data: {
			correlation_id: options.correlationId ?? newCorrelationId(random),
			outcome: 'failure',
			message,
		},
	};
}

/** One signature per active secret (secret rotation), space separated. */
export function signatureHeader(
	secrets: readonly string[],
	id: string,
	timestamp: number,
	body: string | Buffer,
): string {
	return secrets.map((secret) => sign(secret, id, timestamp, body)).join(' ');
}

export interface SendOptions {
	/** Active secrets; each one adds a signature. */
	secrets: readonly string[];
	/** Reuse an id (a replay, or a retry); default a fresh `msg_` id. */
	id?: string;
	/** webhook-timestamp in seconds; default now (shifted by staleSeconds/futureSeconds). */
	timestamp?: number;
	/** Current time in ms, for frozen clocks. */
	now?: number;
	staleSeconds?: number;
	futureSeconds?: number;
	/** Sign the body, then change one byte of it before sending. */
	tamper?: boolean;
	/** Number of random, wrong `v1,` signatures put before the real ones. */
	decoySignatures?: number;
	timeoutMs?: number;
	/** Extra request headers. */
	headers?: Record<string, string>;
}

export interface SendResult {
	/** HTTP status, or 0 when the attempt failed without an answer (timeout, refused). */
	status: number;
	latencyMs: number;
	id: string;
	timestamp: number;
	/** The exact body bytes sent. */
	body: string;
	signature: string;
	responseBody: string;
	/** The answer's Retry-After header, when it had one (e.g. a 503 right after n8n started). */
	retryAfter?: string;
	error?: string;
}

export function serializeEvent(event: StatusEvent | string): string {
	return typeof event === 'string' ? event : pythonJsonDumps(event);
}

function tamperBody(body: string): string {
	// Flip the last character of the first string value so the JSON stays well-formed but the bytes differ.
	const index = body.indexOf('"', body.indexOf(': "') + 3) - 1;
	if (index < 0) return `${body} `;
	const replacement = body[index] === 'x' ? 'y' : 'x';
	return body.slice(0, index) + replacement + body.slice(index + 1);
}

export async function send(
	url: string,
	event: StatusEvent | string,
	options: SendOptions,
): Promise<SendResult> {
	const body = serializeEvent(event);
	const id = options.id ?? newMessageId();
	const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
	const timestamp =
		options.timestamp ?? nowSeconds - (options.staleSeconds ?? 0) + (options.futureSeconds ?? 0);
	const decoys = Array.from(
		{ length: options.decoySignatures ?? 0 },
		() => `v1,${randomBytes(32).toString('base64')}`,
	);
	const signature = [...decoys, signatureHeader(options.secrets, id, timestamp, body)]
		.filter(Boolean)
		.join(' ');
	const sentBody = options.tamper ? tamperBody(body) : body;
	const headers = {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String(timestamp),
		'webhook-signature': signature,
		...options.headers,
	};
	const started = process.hrtime.bigint();
	const outcome = await postRaw(url, headers, sentBody, options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
	const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
	return { ...outcome, latencyMs, id, timestamp, body: sentBody, signature };
}

function postRaw(
	url: string,
	headers: Record<string, string>,
	body: string,
	timeoutMs: number,
): Promise<{ status: number; responseBody: string; retryAfter?: string; error?: string }> {
	return new Promise((resolve) => {
		const target = new URL(url);
		const requester = target.protocol === 'https:' ? httpsRequest : httpRequest;
		const payload = Buffer.from(body, 'utf8');
		// agent:false = a fresh connection per attempt, nothing left open afterwards.
		const req = requester(
			target,
			{
				method: 'POST',
				headers: { ...headers, 'content-length': String(payload.length) },
				agent: false,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => {
					clearTimeout(timer);
					const retryAfter = res.headers['retry-after'];
					resolve({
						status: res.statusCode ?? 0,
						responseBody: Buffer.concat(chunks).toString('utf8'),
						...(retryAfter === undefined ? {} : { retryAfter }),
					});
				});
				res.on('error', (error) => {
					clearTimeout(timer);
					resolve({ status: 0, responseBody: '', error: error.message });
				});
			},
		);
		const timer = setTimeout(
			() => req.destroy(new Error(`attempt timed out after ${timeoutMs} ms`)),
			timeoutMs,
		);
		req.on('error', (error) => {
			clearTimeout(timer);
			resolve({ status: 0, responseBody: '', error: error.message });
		});
		req.end(payload);
	});
}

export interface RetryOptions extends SendOptions {
	/** Divide the real delays by this factor (e.g. 1000 turns 5 min into 300 ms). Default 1 (real time). */
	compress?: number;
	/** At most this many attempts (default 9: the first plus the 8 scheduled retries). */
	maxAttempts?: number;
	onAttempt?: (result: SendResult, attempt: number) => void;
}

export interface DeliveryResult {
	delivered: boolean;
	attempts: SendResult[];
}

/** Delivers like the real sender: any 2xx ends it; a retry keeps the webhook-id with a fresh timestamp and signature. */
export async function deliverWithRetries(
	url: string,
	event: StatusEvent | string,
	options: RetryOptions,
): Promise<DeliveryResult> {
	const id = options.id ?? newMessageId();
	const maxAttempts = Math.min(
		options.maxAttempts ?? RETRY_SCHEDULE_SECONDS.length + 1,
		RETRY_SCHEDULE_SECONDS.length + 1,
	);
	const compress = options.compress ?? 1;
	const attempts: SendResult[] = [];
	for (let attempt = 1; attempt <= maxAttempts; attempt++) {
		if (attempt > 1) await sleep((RETRY_SCHEDULE_SECONDS[attempt - 2] * 1000) / compress);
		const result = await send(url, event, {
			...options,
			id,
			timestamp: options.timestamp === undefined ? undefined : options.timestamp + (attempt - 1),
		});
		attempts.push(result);
		options.onAttempt?.(result, attempt);
		if (result.status >= 200 && result.status < 300) return { delivered: true, attempts };
	}
	return { delivered: false, attempts };
}

function sleep(ms: number): Promise<void> {
	return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** A seeded random source, for reproducible ids and events in demos. */
export function seededRandom(seed: number): RandomSource {
	const rng = new Random(seed);
	return () => rng.next();
}
