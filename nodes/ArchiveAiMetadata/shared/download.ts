import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { describeNetworkCode } from '../../shared/networkErrors';
import { DEFAULT_RETRY, parseRetryAfter, retryLaterHint, withRetries } from '../../shared/retry';
import type { GaveUp } from '../../shared/retry';

/** A 4xx means the link is wrong, expired or refused: asking again gives the same answer (S3 throttles with 503). */
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ECONNREFUSED', 'EAI_AGAIN']);

export interface DownloadedFile {
	body: Buffer;
	contentType?: string;
}

interface DownloadFailure {
	status?: number;
	networkCode?: string;
}

/**
 * Fetches a presigned object URL. Such URLs carry their own signature, so no credential is involved; the URL
 * is never put into an error message (its signature grants access until it expires). Retries (5xx, dropped
 * connections; never 4xx) use the same backoff as the GraphQL requests and stop when the execution is cancelled.
 */
export async function downloadPresignedFile(
	ctx: IExecuteFunctions,
	url: string,
	label: string,
	itemIndex: number,
	maxRetries: number,
): Promise<DownloadedFile> {
	const signal = ctx.getExecutionCancelSignal?.();
	const outcome = await withRetries<DownloadedFile, DownloadFailure>(
		async () => await attemptDownload(ctx, url, signal),
		{ ...DEFAULT_RETRY, maxRetries },
		{ signal },
	);
	if ('value' in outcome) return outcome.value;
	throw downloadError(ctx, label, itemIndex, outcome);
}

async function attemptDownload(
	ctx: IExecuteFunctions,
	url: string,
	signal: AbortSignal | undefined,
): Promise<{ value: DownloadedFile } | { failure: DownloadFailure; retryable: boolean; retryAfterMs?: number }> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 120_000,
			abortSignal: signal,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		const networkCode = networkCodeOf(error);
		return { failure: { networkCode }, retryable: networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(networkCode) };
	}
	const status = response.statusCode;
	if (status >= 200 && status < 300) {
		const contentType = response.headers?.['content-type'];
		return { value: { body: Buffer.from(response.body as ArrayBuffer), contentType: typeof contentType === 'string' ? contentType : undefined } };
	}
	return { failure: { status }, retryable: RETRYABLE_STATUS.has(status), retryAfterMs: parseRetryAfter(response.headers?.['retry-after']) };
}

function networkCodeOf(error: unknown): string | undefined {
	const { code, cause, message } = error as { code?: unknown; cause?: { code?: unknown }; message?: string };
	if (typeof code === 'string') return code;
	if (typeof cause?.code === 'string') return cause.code;
	return /\b(E[A-Z]{3,}[A-Z_]*)\b/.exec(message ?? '')?.[1];
}

function downloadError(ctx: IExecuteFunctions, label: string, itemIndex: number, outcome: GaveUp<DownloadFailure>): NodeApiError {
	const { failure, retries } = outcome;
	const afterRetries =
		(retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '') +
		(outcome.reason === 'retryAfterTooLong' ? `; ${retryLaterHint(outcome.retryAfterMs ?? 0)}` : '') +
		(outcome.reason === 'aborted' ? ' (the execution was cancelled)' : '');
	if (failure.status === undefined) {
		return new NodeApiError(
			ctx.getNode(),
			{ message: 'Download failed' },
			{ message: `Downloading ${label} failed (${describeNetworkCode(failure.networkCode)})${afterRetries}`, itemIndex },
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
