import { NodeApiError, sleep } from 'n8n-workflow';
import type { IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { describeNetworkCode } from '../../shared/networkErrors';

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

export interface DownloadedFile {
	body: Buffer;
	contentType?: string;
}

/**
 * Fetches a presigned object URL. Such URLs carry their own signature, so no credential is involved; the URL
 * is never put into an error message (its signature grants access until it expires).
 */
export async function downloadPresignedFile(
	ctx: IExecuteFunctions,
	url: string,
	label: string,
	itemIndex: number,
	maxRetries: number,
): Promise<DownloadedFile> {
	for (let attempt = 0; ; attempt++) {
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
			})) as IN8nHttpFullResponse;
		} catch (error) {
			if (attempt < maxRetries) {
				await sleep(backoffMs(attempt));
				continue;
			}
			const code = /\b(E[A-Z]{3,}[A-Z_]*)\b/.exec((error as Error).message ?? '')?.[1];
			throw new NodeApiError(
				ctx.getNode(),
				{ message: 'Download failed' },
				{ message: `Downloading ${label} failed (${describeNetworkCode(code)})`, itemIndex },
			);
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) {
			const contentType = response.headers?.['content-type'];
			return { body: Buffer.from(response.body as ArrayBuffer), contentType: typeof contentType === 'string' ? contentType : undefined };
		}
		if (RETRYABLE_STATUS.has(status) && attempt < maxRetries) {
			await sleep(backoffMs(attempt));
			continue;
		}
		throw new NodeApiError(
			ctx.getNode(),
			{ message: `HTTP ${status}`, httpCode: String(status) },
			{
				message: `Downloading ${label} failed (HTTP ${status})`,
				description: status === 403 ? 'The download link was refused or has expired.' : undefined,
				httpCode: String(status),
				itemIndex,
			},
		);
	}
}

function backoffMs(attempt: number): number {
	return Math.min(250 * 2 ** attempt, 5000);
}
