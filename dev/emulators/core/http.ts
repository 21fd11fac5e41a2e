/** Small HTTP helpers on top of node:http (no framework). */
import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { Socket } from 'node:net';

import type { Counters, ServiceName } from './counters';
import type { FaultControl, FaultDecision, FaultTarget } from './faults';

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
	) {
		super(`HTTP ${status}`);
	}
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new HttpError(413, { error: 'payload_too_large' }));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	send(res, status, JSON.stringify(body), {
		'content-type': JSON_CONTENT_TYPE,
		...headers,
	});
}

export function send(
	res: ServerResponse,
	status: number,
	body: string | Buffer,
	headers: Record<string, string>,
): void {
	if (res.headersSent || res.destroyed) return;
	const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
	res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
	res.end(payload);
}

export interface BasicCredentials {
	user: string;
	password: string;
}

export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
	const match = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
	if (!match) return undefined;
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const separator = decoded.indexOf(':');
	if (separator < 0) return undefined;
	return { user: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}

/** The token from `Authorization: Bearer` or, as the real gateways also accept, the `jwtauth` query parameter. */
export function extractAccessToken(req: IncomingMessage, url: URL): string | undefined {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
	if (match) return match[1];
	return url.searchParams.get('jwtauth') ?? undefined;
}

const HTML_PAGE =
	'<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Sign in</h1>' +
	'<form method="post"><input name="username"><input name="password" type="password"></form></body></html>';

/** Writes the answer of an injected response fault. */
export function writeFault(res: ServerResponse, decision: FaultDecision): void {
	const { kind, plan } = decision;
	switch (kind) {
		case 'dropConnection':
			res.socket?.destroy();
			return;
		case 'status429':
			sendJson(
				res,
				429,
				{ error: 'too_many_requests', message: 'Rate limit exceeded' },
				{
					'retry-after': String(plan.status429?.retryAfter ?? 1),
				},
			);
			return;
		case 'status5xx': {
			const code = plan.status5xx?.code ?? 503;
			sendJson(res, code, { error: 'upstream_unavailable', message: `Injected ${code}` });
			return;
		}
		case 'html':
			send(res, 200, HTML_PAGE, { 'content-type': 'text/html; charset=utf-8' });
			return;
		case 'nonJson':
			send(res, 200, 'OK maintenance-mode 7f3a;;', { 'content-type': 'text/plain; charset=utf-8' });
			return;
	}
}

export interface InjectedFaultsOptions {
	service: ServiceName;
	/** Counter name of the endpoint, e.g. `graphql` or `token`. */
	endpoint: string;
	target: FaultTarget;
	faults: FaultControl;
	counters: Counters;
	delay: (ms: number) => Promise<void>;
}

/**
 * What every emulated endpoint does first: counts the request, waits the injected delay and answers an injected
 * fault. True when a fault answered, so the endpoint stops there.
 */
export async function answeredByInjectedFault(
	res: ServerResponse,
	options: InjectedFaultsOptions,
): Promise<boolean> {
	const { service, endpoint, target, faults, counters } = options;
	counters.request(service, endpoint);
	const slowMs = faults.get(target).slowMs;
	if (slowMs) await options.delay(slowMs);
	const fault = faults.decide(target);
	if (!fault) return false;
	counters.fault(service, endpoint, fault.kind);
	writeFault(res, fault);
	return true;
}

/** Tracks sockets and delay timers so `close()` ends everything and jest sees no open handles. */
export class ServerLifecycle {
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private closing = false;

	constructor(private readonly server: Server) {
		server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	delay(ms: number): Promise<void> {
		if (ms <= 0 || this.closing) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	listen(port: number, host: string): Promise<number> {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				const address = this.server.address();
				resolve(typeof address === 'object' && address ? address.port : port);
			});
		});
	}

	close(): Promise<void> {
		this.closing = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		return new Promise((resolve) => {
			this.server.close(() => resolve());
			for (const socket of this.sockets) socket.destroy();
		});
	}
}

/** Port part of a listening URL, for building base URLs. */
export function baseUrl(host: string, port: number): string {
	const hostPart = host.includes(':') ? `[${host}]` : host;
	return `http://${hostPart}:${port}`;
}
