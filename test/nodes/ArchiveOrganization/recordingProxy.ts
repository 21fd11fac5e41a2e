import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it arrived at the proxy, before it went on to the emulator. */
export interface RecordedRequest {
	method: string;
	url: URL;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface RecordingProxy {
	/** Base URL that forwards to the target, e.g. http://127.0.0.1:1234. */
	baseUrl: string;
	requests: RecordedRequest[];
	close(): Promise<void>;
}

/**
 * A loopback proxy that records what the node really sends (method, query string, headers, body) and forwards it
 * unchanged to the emulator, so tests can check the wire format without touching the emulator.
 */
/** An answer the proxy gives itself instead of forwarding, e.g. a server that refuses introspection. */
export type Interceptor = (
	recorded: RecordedRequest,
) => { status: number; body: unknown } | undefined;

export async function startRecordingProxy(
	targetBaseUrl: string,
	intercept?: Interceptor,
): Promise<RecordingProxy> {
	const target = new URL(targetBaseUrl);
	const requests: RecordedRequest[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const recorded: RecordedRequest = {
				method: req.method ?? '',
				url: new URL(req.url ?? '/', 'http://proxy'),
				headers: req.headers,
				body: body.toString('utf8'),
			};
			requests.push(recorded);
			const answer = intercept?.(recorded);
			if (answer) {
				res.writeHead(answer.status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(answer.body));
				return;
			}
			const upstream = httpRequest(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: target.host },
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
	};
}

/** The GraphQL request a recorded request carried, from the JSON body (POST) or the query string (GET). */
export function graphqlPayload(recorded: RecordedRequest): {
	query: string;
	variables: Record<string, unknown>;
} {
	if (recorded.method === 'GET') {
		const variables = recorded.url.searchParams.get('variables');
		return {
			query: recorded.url.searchParams.get('query') ?? '',
			variables: variables ? (JSON.parse(variables) as Record<string, unknown>) : {},
		};
	}
	const body = JSON.parse(recorded.body) as { query: string; variables?: Record<string, unknown> };
	return { query: body.query, variables: body.variables ?? {} };
}
