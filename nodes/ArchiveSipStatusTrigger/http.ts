import { TriggerConfigurationError } from './settings';
import type { HeaderMap } from './verify/signature';

/** What the trigger needs of n8n's request: node's headers, the raw bytes n8n keeps, and the stream itself. */
export interface RawBodyRequest {
	headers: HeaderMap;
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
	readable?: boolean;
	on?: (event: string, listener: (...args: never[]) => void) => unknown;
	removeListener?: (event: string, listener: (...args: never[]) => void) => unknown;
	pause?: () => unknown;
}

type BodyRead =
	| { ok: true; rawBody: Buffer }
	| { ok: false; tooLarge: true }
	| { ok: false; tooLarge: false; reason: string };

/** n8n parses multipart bodies itself (formidable) and keeps no raw bytes, so no signature over them can be checked. */
const MULTIPART = /^\s*multipart\//i;

function declaredLength(headers: HeaderMap): number | undefined {
	const value = headers['content-length'];
	if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
	return Number(value);
}

/** Content encodings change the size on the way in; n8n's own reader decodes them (up to N8N_PAYLOAD_SIZE_MAX). */
function isEncoded(headers: HeaderMap): boolean {
	const encoding = headers['content-encoding'];
	return encoding !== undefined && encoding !== '' && encoding !== 'identity';
}

function isStream(req: RawBodyRequest): boolean {
	return (
		req.readable === true &&
		typeof req.on === 'function' &&
		typeof req.removeListener === 'function'
	);
}

/** Reads the request stream, stopping (and leaving the rest unread) once it holds more than `maxBytes`. */
async function readBounded(req: RawBodyRequest, maxBytes: number): Promise<BodyRead> {
	return await new Promise<BodyRead>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const finish = (result: BodyRead | Error) => {
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
				finish({ ok: false, tooLarge: true });
			}
		};
		const onEnd = () => finish({ ok: true, rawBody: Buffer.concat(chunks) });
		const onError = (error: Error) => finish(error);
		req.on!('data', onData);
		req.on!('end', onEnd);
		req.on!('error', onError);
	});
}

/**
 * The exact bytes received (parsed-and-reserialized JSON could never verify), refused unread when the declared
 * Content-Length is over `maxBytes`. A body n8n has not read yet is read here with that bound; one n8n read before
 * the node ran (it parses JSON, form and XML bodies first) was bounded by n8n's N8N_PAYLOAD_SIZE_MAX.
 */
export async function readRawBody(req: RawBodyRequest, maxBytes: number): Promise<BodyRead> {
	const declared = declaredLength(req.headers);
	if (declared !== undefined && declared > maxBytes) return { ok: false, tooLarge: true };
	const contentType = req.headers['content-type'];
	if (typeof contentType === 'string' && MULTIPART.test(contentType)) {
		return {
			ok: false,
			tooLarge: false,
			reason: 'multipart bodies are not accepted: send the event as application/json',
		};
	}
	if (!Buffer.isBuffer(req.rawBody) && !isEncoded(req.headers) && isStream(req)) {
		const read = await readBounded(req, maxBytes);
		// Kept where n8n keeps it, so n8n's own reader finds the body already read.
		if (read.ok) req.rawBody = read.rawBody;
		return read;
	}
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	if (!Buffer.isBuffer(req.rawBody)) {
		throw new TriggerConfigurationError(
			'The raw request body is not available, so the signature cannot be verified',
		);
	}
	return req.rawBody.length > maxBytes
		? { ok: false, tooLarge: true }
		: { ok: true, rawBody: req.rawBody };
}

/**
 * The `http.ServerResponse` members the trigger uses; express responses have them too, so the same
 * code runs inside n8n and against a bare node server.
 */
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
