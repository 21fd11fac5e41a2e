import * as http from 'node:http';

export interface HttpResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: string;
}

/**
 * One request without keep-alive, so no socket outlives the test. With `timeoutMs`, the client gives up (closes the
 * connection and rejects with "gave up") when no complete answer came in time, as the archive's sender does.
 */
export function request(
	url: string,
	options: {
		method?: string;
		headers?: Record<string, string>;
		body?: string;
		timeoutMs?: number;
	} = {},
): Promise<HttpResponse> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{ method: options.method ?? 'GET', headers: options.headers, agent: false },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8'),
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		if (options.timeoutMs !== undefined) {
			const timer = setTimeout(() => {
				req.destroy();
				reject(new Error(`gave up after ${options.timeoutMs} ms`));
			}, options.timeoutMs);
			req.on('close', () => clearTimeout(timer));
		}
		req.end(options.body);
	});
}

export function postJson(
	url: string,
	payload: unknown,
	headers: Record<string, string> = {},
): Promise<HttpResponse> {
	return request(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(payload),
	});
}

export interface RecordedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
	/** When the whole request had arrived (epoch ms). */
	receivedAtMs: number;
}

export interface RecordingServer {
	url: string;
	requests: RecordedRequest[];
	close(): Promise<void>;
}

/** A loopback server that answers every request with JSON and records what it got. */
export async function startRecordingServer(
	answer: (request: RecordedRequest) => unknown = () => ({ ok: true }),
): Promise<RecordingServer> {
	const requests: RecordedRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const recorded = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
				receivedAtMs: Date.now(),
			};
			requests.push(recorded);
			res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
			res.end(JSON.stringify(answer(recorded)));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export interface ForwardedExchange {
	method: string;
	url: string;
	status: number;
	responseBody: string;
}

/**
 * A loopback reverse proxy to `target` (an origin such as http://127.0.0.1:4010) that records
 * every exchange. Pointing a credential's token URL through it lets a test learn the access
 * tokens the emulator really issued, to prove they never reach execution data.
 */
export async function startForwardingProxy(
	target: string,
): Promise<{ url: string; exchanges: ForwardedExchange[]; close(): Promise<void> }> {
	const exchanges: ForwardedExchange[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers)) {
				if (typeof value === 'string') headers[name] = value;
			}
			headers.host = new URL(target).host;
			headers.connection = 'close';
			request(`${target}${req.url ?? '/'}`, {
				method: req.method,
				headers,
				body: Buffer.concat(chunks).toString('utf8'),
			}).then(
				(answer) => {
					exchanges.push({
						method: req.method ?? '',
						url: req.url ?? '',
						status: answer.status,
						responseBody: answer.body,
					});
					const contentType = answer.headers['content-type'] ?? 'application/json';
					res.writeHead(answer.status, { 'content-type': contentType, connection: 'close' });
					res.end(answer.body);
				},
				() => {
					res.writeHead(502, { connection: 'close' });
					res.end();
				},
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}`,
		exchanges,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The `access_token` values in recorded token responses. */
export function issuedAccessTokens(exchanges: ForwardedExchange[]): string[] {
	const tokens: string[] = [];
	for (const exchange of exchanges) {
		try {
			const token = (JSON.parse(exchange.responseBody) as { access_token?: unknown }).access_token;
			if (typeof token === 'string' && token !== '') tokens.push(token);
		} catch {
			// Not a token response.
		}
	}
	return tokens;
}
