import * as http from 'node:http';

export interface HttpResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: string;
}

/** One request without keep-alive, so no socket outlives the test. */
export function request(
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: string } = {},
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
		req.end(options.body);
	});
}

export function postJson(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
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
}

/** A loopback server that answers every request with JSON and records what it got. */
export async function startRecordingServer(
	answer: (request: RecordedRequest) => unknown = () => ({ ok: true }),
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
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
