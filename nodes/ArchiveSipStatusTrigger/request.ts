import { TriggerConfigurationError } from './settings';
import type { HeaderMap } from './verify';

/** What the trigger needs of n8n's request: node's headers plus the raw bytes n8n keeps. */
export interface RawBodyRequest {
	headers: HeaderMap;
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
}

/** The exact bytes received; parsed-and-reserialized JSON could never verify. */
export async function readRawBody(req: RawBodyRequest): Promise<Buffer> {
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	if (!Buffer.isBuffer(req.rawBody)) {
		throw new TriggerConfigurationError(
			'The raw request body is not available, so the signature cannot be verified',
		);
	}
	return req.rawBody;
}
