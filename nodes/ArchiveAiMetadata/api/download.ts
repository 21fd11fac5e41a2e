import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { describeNetworkCode } from '../../shared/http/networkErrors';
import {
	DEFAULT_RETRY,
	parseRetryAfter,
	retryLaterHint,
	withRetries,
} from '../../shared/http/retry';
import type { GaveUp } from '../../shared/http/retry';

/** A 4xx means the link is wrong, expired or refused: asking again gives the same answer (S3 throttles with 503). */
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
]);

export interface DownloadedFile {
	body: Buffer;
	contentType?: string;
}

export const DEFAULT_MAX_FILE_SIZE_MIB = 100;
export const MIB = 1024 * 1024;
/** Redirects followed within the link's own origin; a redirect to another host is refused. */
const MAX_SAME_ORIGIN_REDIRECTS = 3;

export interface DownloadTarget {
	url: string;
	/** Names the file in messages (the column). */
	label: string;
	itemIndex: number;
	maxRetries: number;
	/** The body is read as a stream and refused as soon as it grows past this. */
	maxBytes: number;
}

interface DownloadFailure {
	status?: number;
	networkCode?: string;
	/** The link or the file was refused (scheme, redirect, size): says why, in words fit for the user. */
	refusal?: string;
}

/** What n8n's request helper returns as the body with `encoding: 'stream'` (a Node readable stream). */
interface BodyStream extends AsyncIterable<Buffer | string> {
	destroy(): void;
}

/** Why a link or file is not downloaded (never retried), in words fit for the user. */
interface Refusal {
	refusal: string;
}

/**
 * Fetches a presigned object URL. Such URLs carry their own signature, so no credential is involved; the URL
 * is never put into an error message (its signature grants access until it expires). Only https links (and http
 * to this machine, for the emulators) are fetched, redirects only within the link's origin, and the body only up
 * to `maxBytes`. Retries (5xx, dropped connections; never 4xx) use the same backoff as the GraphQL requests and
 * stop when the execution is cancelled.
 */
export async function downloadPresignedFile(
	ctx: IExecuteFunctions,
	target: DownloadTarget,
): Promise<DownloadedFile> {
	const checked = checkLink(target.url);
	if ('refusal' in checked)
		throw refusalError(ctx, target.label, target.itemIndex, checked.refusal);
	const signal = ctx.getExecutionCancelSignal?.();
	const outcome = await withRetries<DownloadedFile, DownloadFailure>(
		async () => await attemptDownload(ctx, target, signal),
		{ ...DEFAULT_RETRY, maxRetries: target.maxRetries },
		{ signal },
	);
	if ('value' in outcome) return outcome.value;
	throw downloadError(ctx, target.label, target.itemIndex, outcome);
}

function isLoopback(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The API hands out the links, so they are checked like user input: a data:, file: or plain-http link is refused. */
function checkLink(link: string): { url: string } | Refusal {
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		return { refusal: 'the API returned a download link that is not a URL' };
	}
	if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname)))
		return { url: url.href };
	const what =
		url.protocol === 'http:' ? `a plain http link to ${url.host}` : `a ${url.protocol} link`;
	return {
		refusal: `the API returned ${what}; only https links are downloaded (http only to this machine)`,
	};
}

function refusalError(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	reason: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Downloading ${label}: ${reason}`, { itemIndex });
}

type AttemptResult =
	| { value: DownloadedFile }
	| { failure: DownloadFailure; retryable: boolean; retryAfterMs?: number };

async function attemptDownload(
	ctx: IExecuteFunctions,
	target: DownloadTarget,
	signal: AbortSignal | undefined,
): Promise<AttemptResult> {
	let url = target.url;
	try {
		for (let hop = 0; ; hop++) {
			const response = await requestStream(ctx, url, signal);
			const status = response.statusCode;
			if (status >= 300 && status < 400 && hop < MAX_SAME_ORIGIN_REDIRECTS) {
				discard(response);
				const next = sameOriginRedirect(url, response.headers?.location);
				if ('refusal' in next) return { failure: next, retryable: false };
				url = next.url;
				continue;
			}
			if (status < 200 || status >= 300) {
				discard(response);
				return {
					failure: { status },
					retryable: RETRYABLE_STATUS.has(status),
					retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
				};
			}
			const read = await readWithinLimit(target.maxBytes, response);
			if ('refusal' in read) return { failure: read, retryable: false };
			const contentType = response.headers?.['content-type'];
			return {
				value: {
					body: read.body,
					contentType: typeof contentType === 'string' ? contentType : undefined,
				},
			};
		}
	} catch (error) {
		const networkCode = networkCodeOf(error);
		return {
			failure: { networkCode },
			retryable: networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(networkCode),
		};
	}
}

async function requestStream(
	ctx: IExecuteFunctions,
	url: string,
	signal: AbortSignal | undefined,
): Promise<IN8nHttpFullResponse> {
	return (await ctx.helpers.httpRequest({
		method: 'GET',
		url,
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: 120_000,
		abortSignal: signal,
	})) as IN8nHttpFullResponse;
}

function sameOriginRedirect(from: string, location: unknown): { url: string } | Refusal {
	if (typeof location !== 'string' || location === '')
		return { refusal: 'the download link redirected without a Location' };
	let next: URL;
	try {
		next = new URL(location, from);
	} catch {
		return { refusal: 'the download link redirected to an address that is not a URL' };
	}
	if (next.origin !== new URL(from).origin) {
		return {
			refusal: `the download link redirected to another host (${next.host}); redirects to other hosts are not followed`,
		};
	}
	return checkLink(next.href);
}

function discard(response: IN8nHttpFullResponse): void {
	(response.body as BodyStream | undefined)?.destroy?.();
}

/** Reads the body, stopping (and closing the connection) as soon as it is larger than allowed. */
async function readWithinLimit(
	maxBytes: number,
	response: IN8nHttpFullResponse,
): Promise<{ body: Buffer } | Refusal> {
	const tooLarge = {
		refusal: `the file is larger than the Max File Size of ${formatMiB(maxBytes)}; raise Max File Size to download it`,
	};
	const declared = Number(response.headers?.['content-length']);
	const stream = response.body as BodyStream;
	if (Number.isFinite(declared) && declared > maxBytes) {
		stream.destroy();
		return tooLarge;
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		size += buffer.length;
		// Leaving the loop destroys the stream, so the rest of the body is never read.
		if (size > maxBytes) return tooLarge;
		chunks.push(buffer);
	}
	return { body: Buffer.concat(chunks, size) };
}

function formatMiB(bytes: number): string {
	return `${Number((bytes / MIB).toFixed(2))} MiB`;
}

function networkCodeOf(error: unknown): string | undefined {
	const { code, cause, message } = error as {
		code?: unknown;
		cause?: { code?: unknown };
		message?: string;
	};
	if (typeof code === 'string') return code;
	if (typeof cause?.code === 'string') return cause.code;
	return /\b(E[A-Z]{3,}[A-Z_]*)\b/.exec(message ?? '')?.[1];
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
