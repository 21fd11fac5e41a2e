/** Opaque bearer tokens with a real server-side expiry table, plus the two token endpoints. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Counters, ServiceName } from './counters';
import type { FaultControl, FaultTarget } from './faults';
import { answeredByInjectedFault, parseBasicAuth, readBody, sendJson } from './http';

interface IssuedToken {
	issuedAt: number;
	expiresAt: number;
}

export type TokenCheck = 'valid' | 'missing' | 'unknown' | 'expired';

export class TokenStore {
	private readonly tokens = new Map<string, IssuedToken>();

	constructor(
		private readonly faults: FaultControl,
		private readonly faultTargets: readonly FaultTarget[],
	) {}

	issue(lifetimeSeconds: number): string {
		this.purgeExpired();
		const token = randomBytes(32).toString('base64url');
		const now = Date.now();
		this.tokens.set(token, { issuedAt: now, expiresAt: now + lifetimeSeconds * 1000 });
		return token;
	}

	check(token: string | undefined): TokenCheck {
		if (!token) return 'missing';
		const issued = this.tokens.get(token);
		if (!issued) return 'unknown';
		const now = Date.now();
		if (now >= issued.expiresAt) return 'expired';
		const earlyExpiry = this.earlyExpiryMs();
		if (earlyExpiry !== undefined && now >= issued.issuedAt + earlyExpiry) return 'expired';
		return 'valid';
	}

	/** Expires every token now (handy for tests of re-authentication). */
	revokeAll(): void {
		this.tokens.clear();
	}

	private earlyExpiryMs(): number | undefined {
		const limits = this.faultTargets
			.map((target) => this.faults.get(target).expireTokensAfterMs)
			.filter((value): value is number => typeof value === 'number');
		return limits.length ? Math.min(...limits) : undefined;
	}

	private purgeExpired(): void {
		const now = Date.now();
		for (const [token, issued] of this.tokens)
			if (now >= issued.expiresAt) this.tokens.delete(token);
	}
}

export interface TokenEndpointOptions {
	service: ServiceName;
	/** AI: POST with a form body; Organization: GET with query parameters. */
	method: 'POST' | 'GET';
	user: string;
	password: string;
	faultTarget: FaultTarget;
	store: TokenStore;
	faults: FaultControl;
	counters: Counters;
	/** Cap on issued lifetimes (`tokenTtlSeconds`); undefined = as requested. */
	maxLifetimeSeconds?: number;
	delay: (ms: number) => Promise<void>;
}

const DEFAULT_EXPIRES_IN = 3600;

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
	sendJson(res, status, { error, error_description: description });
}

async function readTokenParameters(
	req: IncomingMessage,
	url: URL,
	method: 'POST' | 'GET',
): Promise<URLSearchParams> {
	if (method === 'GET') return url.searchParams;
	const body = (await readBody(req)).toString('utf8');
	const params = new URLSearchParams(body);
	// Lenient like most OAuth servers: parameters in the query string count too.
	for (const [key, value] of url.searchParams) if (!params.has(key)) params.set(key, value);
	return params;
}

export async function handleTokenRequest(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	options: TokenEndpointOptions,
): Promise<void> {
	const { service, counters, faults } = options;
	const injected = {
		service,
		endpoint: 'token',
		target: options.faultTarget,
		faults,
		counters,
		delay: options.delay,
	};
	if (await answeredByInjectedFault(res, injected)) return;
	if (req.method !== options.method) {
		await readBody(req).catch(() => undefined);
		return tokenError(res, 401, 'invalid_request', `Token requests must use ${options.method}`);
	}
	const params = await readTokenParameters(req, url, options.method);
	const credentials = parseBasicAuth(req.headers.authorization);
	if (
		!credentials ||
		credentials.user !== options.user ||
		credentials.password !== options.password
	) {
		return tokenError(res, 401, 'invalid_client', 'Invalid client credentials');
	}
	const grantType = params.get('grant_type');
	if (!grantType) return tokenError(res, 400, 'invalid_request', 'Missing grant_type');
	if (grantType !== 'client_credentials') {
		return tokenError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported');
	}
	const requested = params.has('expires_in')
		? Number(params.get('expires_in'))
		: DEFAULT_EXPIRES_IN;
	if (!Number.isInteger(requested) || requested <= 0) {
		return tokenError(res, 400, 'invalid_request', 'expires_in must be a positive integer');
	}
	const lifetime = options.maxLifetimeSeconds
		? Math.min(requested, options.maxLifetimeSeconds)
		: requested;
	const accessToken = options.store.issue(lifetime);
	counters.tokenIssued(service);
	sendJson(res, 200, { access_token: accessToken, expires_in: lifetime, token_type: 'bearer' });
}
