import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import {
	describeNetworkCode,
	findNetworkCode,
	RETRYABLE_NETWORK_CODES,
} from '../../shared/http/networkErrors';
import {
	DEFAULT_RETRY,
	parseRetryAfter,
	retryLaterHint,
	withRetries,
} from '../../shared/http/retry';
import type { GaveUp } from '../../shared/http/retry';
import { isIpAddress } from './addresses';
import { checkDestination, checkPeer, checkResolved } from './downloadPolicy';
import type { DownloadPolicy, Refusal } from './downloadPolicy';
import { hostResolverOf } from './hostResolution';
import type { ResolveHost } from './hostResolution';

/** A 4xx means the link is wrong, expired or refused: asking again gives the same answer (S3 throttles with 503). */
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

/** What `helpers.prepareBinaryData` takes: a Buffer or a Node readable stream. */
export type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** A downloaded file as it is handed to its store: a stream that fails once it passes Max File Size. */
type Store<T> = (file: { body: BinarySource }) => Promise<T>;

interface Stored<T> {
	stored: T;
	bytes: number;
}

export const DEFAULT_MAX_FILE_SIZE_MIB = 100;
export const MIB = 1024 * 1024;
/** Redirects followed within the link's own origin; a redirect to another host is refused. */
const MAX_SAME_ORIGIN_REDIRECTS = 3;

interface DownloadTarget {
	url: string;
	/** Names the file in messages (the column). */
	label: string;
	itemIndex: number;
	maxRetries: number;
	/** A larger file is refused by its Content-Length before reading, or as soon as it grows past this. */
	maxBytes: number;
	/** Where downloads may go (the credential's allowed origins and private-address switch). */
	policy: DownloadPolicy;
}

interface DownloadFailure {
	status?: number;
	networkCode?: string;
	/** The link or the file was refused (destination, redirect, size): says why, in words fit for the user. */
	refusal?: string;
	/** The store failed for a reason of its own (not the body's): passed on as it is, never retried. */
	storeError?: unknown;
}

/** What n8n's request helper returns as the body with `encoding: 'stream'`: a Node readable stream. */
interface BodyStream {
	destroy(error?: Error): void;
	once(event: 'error', listener: (error: unknown) => void): unknown;
	prependListener(event: 'data', listener: (chunk: { length: number }) => void): unknown;
	/** Set on the HTTP response itself (n8n 1.x); absent on a stream n8n makes of it (2.x) or a decompressed one. */
	statusCode?: number;
	socket?: { remoteAddress?: string } | null;
}

/**
 * Fetches a presigned object URL and hands the body to `store` (n8n's binary data) as a stream, so no copy is held
 * here; a declared Content-Length above `maxBytes` is refused before reading, a body growing past it fails. The
 * URL carries its own signature (no credential) and is never put into an error message. Every hop (the link and
 * each redirect, followed only within the link's origin) is checked before it is fetched (checkDestination); its
 * host name is resolved and every address checked before connecting where n8n lends a resolver (2.x:
 * checkResolved), otherwise the address that answered is checked (1.x: checkPeer). Retries (5xx, dropped
 * connections; never 4xx) use the backoff of the GraphQL requests and stop when the execution is cancelled.
 */
export async function downloadPresignedFile<T>(
	ctx: IExecuteFunctions,
	target: DownloadTarget,
	store: Store<T>,
): Promise<Stored<T>> {
	const checked = checkDestination(target.url, target.policy);
	if ('refusal' in checked)
		throw refusalError(ctx, target.label, target.itemIndex, checked.refusal);
	const signal = ctx.getExecutionCancelSignal?.();
	const resolve = target.policy.allowPrivateAddresses ? undefined : hostResolverOf(ctx);
	const outcome = await withRetries<Stored<T>, DownloadFailure>(
		async () => await attemptDownload(ctx, target, signal, resolve, store),
		{ ...DEFAULT_RETRY, maxRetries: target.maxRetries },
		{ signal },
	);
	if ('value' in outcome) return outcome.value;
	// Whatever the caller's store threw, rethrown as it was.
	if (outcome.failure.storeError !== undefined) throw outcome.failure.storeError as unknown;
	throw downloadError(ctx, target.label, target.itemIndex, outcome);
}

function refusalError(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	reason: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Downloading ${label}: ${reason}`, { itemIndex });
}

type AttemptResult<T> =
	| { value: T }
	| { failure: DownloadFailure; retryable: boolean; retryAfterMs?: number };

const refused = (refusal: Refusal) => ({ failure: refusal, retryable: false });

/** One attempt; `resolve` looks host names up before connecting (n8n 2.x, private addresses refused). */
async function attemptDownload<T>(
	ctx: IExecuteFunctions,
	target: DownloadTarget,
	signal: AbortSignal | undefined,
	resolve: ResolveHost | undefined,
	store: Store<T>,
): Promise<AttemptResult<Stored<T>>> {
	let url = target.url;
	try {
		for (let hop = 0; ; hop++) {
			const destination = checkDestination(url, target.policy);
			if ('refusal' in destination) return refused(destination);
			// Every address the host resolves to is checked; a failed lookup throws, as a connection does.
			if (resolve && !isIpAddress(destination.url.hostname)) {
				const addresses = await resolve(destination.url.hostname);
				const resolvesTo = checkResolved(destination.url, addresses, target.policy);
				if (resolvesTo) return refused(resolvesTo);
			}
			const response = (await ctx.helpers.httpRequest({
				method: 'GET',
				url,
				// Uncompressed: the body is the response (its address checkable), Max File Size the file's size.
				headers: { 'accept-encoding': 'identity' },
				encoding: 'stream',
				json: false,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: 120_000,
				abortSignal: signal,
			})) as IN8nHttpFullResponse;
			const body = response.body as BodyStream;
			// Without a resolver (n8n 1.x) the address that answered is the one to check; only the response itself
			// (not a stream made of it) tells it.
			const peer = typeof body.statusCode === 'number' ? body.socket?.remoteAddress : undefined;
			const wrongPeer = resolve ? undefined : checkPeer(destination.url, peer, target.policy);
			if (wrongPeer) {
				body.destroy();
				return refused(wrongPeer);
			}
			const status = response.statusCode;
			if (status >= 300 && status < 400 && hop < MAX_SAME_ORIGIN_REDIRECTS) {
				body.destroy();
				const next = sameOriginRedirect(url, response.headers?.location);
				if ('refusal' in next) return refused(next);
				url = next.url;
				continue;
			}
			if (status < 200 || status >= 300) {
				body.destroy();
				return {
					failure: { status },
					retryable: RETRYABLE_STATUS.has(status),
					retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
				};
			}
			return await receive(target.maxBytes, response, body, store);
		}
	} catch (error) {
		return networkFailure(error);
	}
}

function networkFailure(error: unknown): { failure: DownloadFailure; retryable: boolean } {
	const networkCode = networkCodeOf(error);
	return {
		failure: { networkCode },
		retryable: networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(networkCode),
	};
}

/** Hands a 2xx body to the store as the stream it is, counted and cut off as soon as it passes the limit. */
async function receive<T>(
	maxBytes: number,
	response: IN8nHttpFullResponse,
	body: BodyStream,
	store: Store<T>,
): Promise<AttemptResult<Stored<T>>> {
	const header = response.headers?.['content-length'];
	const declared = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : NaN;
	if (Number.isSafeInteger(declared) && declared > maxBytes) {
		body.destroy();
		return refused(tooLarge(maxBytes));
	}
	const counter = countWithinLimit(body, maxBytes);
	let bodyError: unknown;
	body.once('error', (error) => (bodyError = error));
	try {
		const stored = await store({ body: body as unknown as BinarySource });
		if (counter.overLimit()) return refused(tooLarge(maxBytes));
		return { value: { stored, bytes: counter.bytes() } };
	} catch (error) {
		body.destroy();
		if (counter.overLimit()) return refused(tooLarge(maxBytes));
		if (bodyError !== undefined) return networkFailure(bodyError);
		return { failure: { storeError: error }, retryable: false };
	}
}

/**
 * Counts the bytes of a body as its reader takes them, and destroys the body (failing the reader) as soon as it
 * is larger than allowed. `prependListener`, unlike `on`, does not switch the stream to flowing mode: the reader
 * still decides when to read, and loses nothing when it starts later (n8n's filesystem mode creates its folder first).
 */
function countWithinLimit(
	body: BodyStream,
	maxBytes: number,
): { bytes(): number; overLimit(): boolean } {
	let bytes = 0;
	let overLimit = false;
	body.prependListener('data', (chunk) => {
		bytes += chunk.length;
		if (bytes > maxBytes && !overLimit) {
			overLimit = true;
			body.destroy(new Error('the body is larger than Max File Size'));
		}
	});
	return { bytes: () => bytes, overLimit: () => overLimit };
}

function sameOriginRedirect(from: string, location: unknown): { url: string } | Refusal {
	if (typeof location !== 'string' || location === '')
		return { refusal: 'the download link redirected without a Location' };
	const next = URL.parse(location, from);
	if (!next) return { refusal: 'the download link redirected to an address that is not a URL' };
	const origin = new URL(from);
	if (next.protocol !== origin.protocol) {
		return {
			refusal: `the download link redirected from ${origin.protocol.slice(0, -1)} to ${next.protocol.slice(0, -1)} (${next.host}); redirects to another scheme are not followed`,
		};
	}
	if (next.origin !== origin.origin) {
		return {
			refusal: `the download link redirected to another host (${next.host}); redirects to other hosts are not followed`,
		};
	}
	return { url: next.href };
}

function tooLarge(maxBytes: number): Refusal {
	const mib = Number((maxBytes / MIB).toFixed(2));
	return {
		refusal: `the file is larger than the Max File Size of ${mib} MiB; raise Max File Size to download it`,
	};
}

function networkCodeOf(error: unknown): string | undefined {
	const { code, cause, message } = error as {
		code?: unknown;
		cause?: { code?: unknown };
		message?: string;
	};
	if (typeof code === 'string') return code;
	if (typeof cause?.code === 'string') return cause.code;
	// A scan, linear in the message (which a server or resolver may make as long as it likes).
	return typeof message === 'string' ? findNetworkCode(message) : undefined;
}

function downloadError(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	outcome: GaveUp<DownloadFailure>,
): NodeApiError | NodeOperationError {
	const { failure, retries } = outcome;
	if (failure.refusal !== undefined) return refusalError(ctx, label, itemIndex, failure.refusal);
	const afterRetries =
		(retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '') +
		(outcome.reason === 'retryAfterTooLong'
			? `; ${retryLaterHint(outcome.retryAfterMs ?? 0)}`
			: '') +
		(outcome.reason === 'aborted' ? ' (the execution was cancelled)' : '');
	if (failure.status === undefined) {
		return new NodeApiError(
			ctx.getNode(),
			{ message: 'Download failed' },
			{
				message: `Downloading ${label} failed (${describeNetworkCode(failure.networkCode)})${afterRetries}`,
				itemIndex,
			},
		);
	}
	const status = failure.status;
	return new NodeApiError(
		ctx.getNode(),
		{ message: `HTTP ${status}`, httpCode: String(status) },
		{
			message: `Downloading ${label} failed (HTTP ${status})${afterRetries}`,
			description: status === 403 ? 'The download link was refused or has expired.' : undefined,
			httpCode: String(status),
			itemIndex,
		},
	);
}
