import type { Checked } from '../shared/checked';
import { TriggerConfigurationError } from './settings';
import type { HeaderMap } from './verify/signature';

/** What the trigger needs of n8n's request: headers, the raw bytes n8n keeps, and the stream itself. */
export interface RawBodyRequest {
	headers: HeaderMap;
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
	readable?: boolean;
	on?: (event: string, listener: (...args: never[]) => void) => unknown;
	removeListener?: (event: string, listener: (...args: never[]) => void) => unknown;
	pause?: () => unknown;
}

/** n8n parses multipart bodies itself (formidable) and keeps no raw bytes, so no signature over them can be checked. */
const MULTIPART = /^\s*multipart\//i;

/** Reads the request stream, stopping (and leaving the rest unread) once it holds more than `maxBytes`. */
async function readBounded(req: RawBodyRequest, maxBytes: number): Promise<Buffer | undefined> {
	return await new Promise<Buffer | undefined>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const finish = (result: Buffer | undefined | Error) => {
			req.removeListener!('data', onData);
			req.removeListener!('end', onEnd);
			req.removeListener!('error', onError);
			if (result instanceof Error) reject(result);
			else resolve(result);
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= maxBytes) chunks.push(chunk);
			else {
				req.pause?.();
				finish(undefined);
			}
		};
		const onEnd = () => finish(Buffer.concat(chunks));
		const onError = (error: Error) => finish(error);
		req.on!('data', onData);
		req.on!('end', onEnd);
		req.on!('error', onError);
	});
}

/**
 * The exact bytes received (reserialized JSON could never verify), refused unread when the declared Content-Length is
 * over `maxBytes`. A body n8n read first (JSON, form, XML) was bounded by its N8N_PAYLOAD_SIZE_MAX.
 */
export async function readRawBody(req: RawBodyRequest, maxBytes: number): Promise<Checked<Buffer>> {
	const tooLarge = {
		ok: false,
		reason: `body exceeds the maximum size of ${maxBytes} bytes`,
	} as const;
	const { headers } = req;
	const declared = headers['content-length'];
	if (typeof declared === 'string' && /^\d{1,15}$/.test(declared) && Number(declared) > maxBytes)
		return tooLarge;
	const contentType = headers['content-type'];
	if (typeof contentType === 'string' && MULTIPART.test(contentType)) {
		return {
			ok: false,
			reason: 'multipart bodies are not accepted: send the event as application/json',
		};
	}
	// Content encodings change the size on the way in; n8n's own reader decodes them (up to N8N_PAYLOAD_SIZE_MAX).
	const encoding = headers['content-encoding'];
	const encoded = encoding !== undefined && encoding !== '' && encoding !== 'identity';
	const isStream =
		req.readable === true &&
		typeof req.on === 'function' &&
		typeof req.removeListener === 'function';
	if (!Buffer.isBuffer(req.rawBody) && !encoded && isStream) {
		const read = await readBounded(req, maxBytes);
		if (!read) return tooLarge;
		// Kept where n8n keeps it, so n8n's own reader finds the body already read.
		req.rawBody = read;
		return { ok: true, value: read };
	}
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	if (!Buffer.isBuffer(req.rawBody)) {
		throw new TriggerConfigurationError(
			'The raw request body is not available, so the signature cannot be verified',
		);
	}
	return req.rawBody.length > maxBytes ? tooLarge : { ok: true, value: req.rawBody };
}

/** The `http.ServerResponse` members the trigger uses (express responses have them too). */
export interface ResponseWriter {
	statusCode: number;
	readonly headersSent: boolean;
	setHeader(name: string, value: number | string): unknown;
	end(body?: string): unknown;
}

export function sendNoContent(res: ResponseWriter): void {
	if (res.headersSent) return;
	res.statusCode = 204;
	res.end();
}

export function sendError(
	res: ResponseWriter,
	status: number,
	error: string,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent) return;
	const body = JSON.stringify({ error });
	res.statusCode = status;
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.setHeader('content-type', 'application/json; charset=utf-8');
	res.setHeader('content-length', Buffer.byteLength(body));
	res.end(body);
}
