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
