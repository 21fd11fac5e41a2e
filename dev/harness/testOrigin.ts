import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a test origin received it. */
export interface ReceivedRequest {
	method: string;
	url: URL;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/** Date.now() when the request had fully arrived. */
	receivedAt: number;
}

/** Decides the answer of a test origin; `origin` is the server itself (for redirects to its own paths). */
export type OriginHandler = (
	request: ReceivedRequest,
	res: ServerResponse,
	origin: TestOrigin,
) => void;

export interface TestOrigin {
	/** e.g. http://127.0.0.1:40123 — a different origin from every other server in the test. */
	baseUrl: string;
	requests: ReceivedRequest[];
	/** Whether any request arrived with an Authorization header or a jwtauth query parameter. */
	receivedCredentials(): boolean;
	close(): Promise<void>;
}

/**
 * A loopback HTTP server on a port of its own that records everything it receives. Tests use it as the "other
 * host" a redirect points to, and check that no credential ever reached it.
 */
export async function startTestOrigin(
	handler: OriginHandler = answerNotFound,
): Promise<TestOrigin> {
	const requests: ReceivedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const received: ReceivedRequest = {
				method: req.method ?? '',
				url: new URL(req.url ?? '/', origin.baseUrl),
				headers: req.headers,
				body: Buffer.concat(chunks),
				receivedAt: Date.now(),
			};
			requests.push(received);
			handler(received, res, origin);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const origin: TestOrigin = {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		receivedCredentials: () =>
			requests.some(
				(request) =>
					request.headers.authorization !== undefined || request.url.searchParams.has('jwtauth'),
			),
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
	};
	return origin;
}

export function answerNotFound(_request: ReceivedRequest, res: ServerResponse): void {
	res.writeHead(404, { 'content-type': 'application/json' });
	res.end('{"error":"not_found"}');
}

export function redirect(res: ServerResponse, status: number, location: string): void {
	res.writeHead(status, { location, 'content-length': '0' });
	res.end();
}

/** Passes a received request on to `targetBaseUrl` (same path and query) and pipes the answer back. */
export function forward(
	request: ReceivedRequest,
	res: ServerResponse,
	targetBaseUrl: string,
): void {
	const target = new URL(targetBaseUrl);
	const upstream = httpRequest(
		{
			host: target.hostname,
			port: target.port,
			method: request.method,
			path: `${request.url.pathname}${request.url.search}`,
			headers: { ...request.headers, host: target.host },
		},
		(answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		},
	);
	upstream.on('error', () => res.destroy());
	upstream.end(request.body);
}
