import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of one n8n process that passes a request on only while n8n's `/healthz/readiness` answers
 * 200, as a load balancer or Kubernetes Service with a readiness probe does; otherwise it answers 503 itself.
 *
 * Why the fault runs need it: while n8n starts, between connecting to its database and finishing its migrations, it
 * answers **every** request with `200 n8n is starting up. Please wait` (its AbstractServer, 1.x and 2.x), before any
 * webhook node runs. A sender takes that 200 as "delivered", so an event arriving in that window is lost for every
 * webhook node in any response mode. Readiness is checked per request (the strictest probe there is).
 */
export class ReadinessGate {
	private constructor(
		private readonly server: Server,
		readonly baseUrl: string,
		private readonly target: URL,
	) {}

	/** Counts of what the gate answered itself: 503 while n8n was not ready, 502 when n8n dropped the request. */
	readonly refused = { notReady: 0, upstreamFailed: 0 };

	static async start(targetBaseUrl: string): Promise<ReadinessGate> {
		const target = new URL(targetBaseUrl);
		// Nobody knows the port before start() returns, so no request meets the gate before it exists.
		const server = createServer((req, res) => {
			void gate.pass(req, res);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const gate = new ReadinessGate(server, `http://127.0.0.1:${port}`, target);
		return gate;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async pass(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		if (!(await this.isReady())) {
			this.refused.notReady += 1;
			res.writeHead(503, { 'retry-after': '5' }).end('not ready');
			return;
		}
		const upstream = httpRequest(
			new URL(req.url ?? '/', this.target),
			{ method: req.method, headers: { ...req.headers, host: this.target.host }, agent: false },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('error', () => res.destroy());
			},
		);
		upstream.on('error', () => {
			this.refused.upstreamFailed += 1;
			if (res.headersSent) res.destroy();
			else res.writeHead(502).end('n8n did not answer');
		});
		// The sender gives up (its timeout): so does the request to n8n, as a proxy closes the upstream connection.
		res.on('close', () => {
			if (!res.writableFinished) upstream.destroy();
		});
		upstream.end(Buffer.concat(chunks));
	}

	private isReady(): Promise<boolean> {
		return new Promise((resolve) => {
			const probe = httpRequest(
				new URL('/healthz/readiness', this.target),
				{ method: 'GET', agent: false, timeout: 5000 },
				(answer) => {
					answer.resume();
					resolve(answer.statusCode === 200);
				},
			);
			probe.on('timeout', () => probe.destroy());
			probe.on('error', () => resolve(false));
			probe.end();
		});
	}
}
