import { createHash } from 'node:crypto';
import { WorkflowOperationError } from 'n8n-workflow';

import { BoundedCache } from '../../nodes/shared/boundedCache';
import { describeNetworkCode } from '../../nodes/shared/http/networkErrors';
import { redactAndClip, withoutUserinfo } from '../../nodes/shared/http/redact';
import { describeRedirect } from '../../nodes/shared/http/redirects';
import { TOKEN_ERROR_CONTEXT_KEY } from '../../nodes/shared/http/tokenError';
import type { IHttpRequestHelper, IHttpRequestMethods, IN8nHttpFullResponse } from 'n8n-workflow';

/** What a client-credentials token endpoint needs; both archive APIs use HTTP Basic on `{authUrl}/token`. */
interface TokenRequest {
	/** Shown in error messages, e.g. "AI Metadata API". */
	service: string;
	/** The account name's field in the credential, e.g. "E-Mail". */
	usernameLabel: string;
	method: IHttpRequestMethods;
	authUrl: string;
	username: string;
	password: string;
	lifetimeSeconds: number;
	/** The token n8n holds now; when n8n asks again because it was rejected, it must not be handed back. */
	rejectedToken?: string;
}

/** Errors of the token flow carry the mark and whether trying again may help. */
function tokenError(message: string, retryable = false): WorkflowOperationError {
	const error = new WorkflowOperationError(message);
	error.context = { [TOKEN_ERROR_CONTEXT_KEY]: true, retryable };
	return error;
}

interface CachedToken {
	accessToken: string;
	validUntil: number;
}

/** Tokens are reused this long before their stated expiry runs out, so a token is never used at its edge. */
const EXPIRY_MARGIN_MS = 30_000;

/** Accounts (credential + lifetime) whose tokens one process keeps; the least recently used is dropped first. */
export const MAX_CACHED_TOKENS = 256;

/**
 * n8n calls `preAuthentication` for every request that finds no token and again after every 401, so concurrent
 * page requests of one execution (or parallel executions in one process) would each fetch a token. The cache
 * makes that one request per credential and token lifetime per process; n8n still persists the token itself.
 */
const tokens = new BoundedCache<CachedToken>(MAX_CACHED_TOKENS);
/** Bounded by the requests in flight: each entry is removed when its token request settles. */
const inFlight = new Map<string, Promise<CachedToken>>();

/** Tokens held in this process (for tests of the bound). */
export function cachedAccessTokenCount(): number {
	return tokens.size;
}

export function clearAccessTokenCache(): void {
	tokens.clear();
	inFlight.clear();
}

/** `{authUrl}/token`; trailing slashes are cut by a scan from the end (/\/+$/ is quadratic on a long run). */
export function tokenEndpoint(authUrl: string): string {
	let end = authUrl.length;
	while (end > 0 && authUrl[end - 1] === '/') end--;
	return `${authUrl.slice(0, end)}/token`;
}

/** What an answer of the token endpoint may echo: the password, the Basic credential, the token being replaced. */
function secretsOf(request: TokenRequest): string[] {
	return [
		request.password,
		Buffer.from(`${request.username}:${request.password}`).toString('base64'),
		request.rejectedToken,
	].filter((secret): secret is string => Boolean(secret));
}

/** A valid token for the account, fetched only when no usable token is known in this process. */
export async function obtainAccessToken(
	helpers: IHttpRequestHelper['helpers'],
	request: TokenRequest,
): Promise<string> {
	const where = `${request.service} credential`;
	if (!/^https?:\/\/[^\s/]+/i.test(request.authUrl)) {
		throw tokenError(
			`${where}: "Token URL" must be an http(s) URL, got "${withoutUserinfo(request.authUrl)}"`,
		);
	}
	if (!request.username) throw tokenError(`${where}: "${request.usernameLabel}" is empty`);
	if (!request.password) throw tokenError(`${where}: "Password" is empty`);
	if (!Number.isInteger(request.lifetimeSeconds) || request.lifetimeSeconds < 1) {
		throw tokenError(`${where}: "Token Lifetime" must be a whole number of seconds of at least 1`);
	}
	const { method, authUrl, username, password, lifetimeSeconds } = request;
	const key = createHash('sha256')
		.update(JSON.stringify([method, authUrl, username, password, lifetimeSeconds]))
		.digest('hex');
	const cached = tokens.get(key);
	if (cached && cached.accessToken !== request.rejectedToken) return cached.accessToken;
	if (cached) tokens.delete(key);

	let pending = inFlight.get(key);
	if (!pending) {
		pending = fetchAccessToken(helpers, request)
			.then((token) => {
				tokens.set(key, token, token.validUntil);
				return token;
			})
			.finally(() => inFlight.delete(key));
		inFlight.set(key, pending);
	}
	return (await pending).accessToken;
}

async function fetchAccessToken(
	helpers: IHttpRequestHelper['helpers'],
	request: TokenRequest,
): Promise<CachedToken> {
	const url = tokenEndpoint(request.authUrl);
	// The token endpoint as messages show it.
	const shown = withoutUserinfo(url);
	const form = new URLSearchParams({
		grant_type: 'client_credentials',
		expires_in: String(request.lifetimeSeconds),
	}).toString();
	const get = request.method === 'GET';
	const startedAt = Date.now();
	let response: IN8nHttpFullResponse;
	try {
		response = (await helpers.httpRequest({
			method: request.method,
			url: get ? `${url}?${form}` : url,
			auth: { username: request.username, password: request.password },
			headers: get
				? { accept: 'application/json' }
				: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
			body: get ? undefined : form,
			encoding: 'text',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect would carry the Basic credential to wherever it points (n8n re-adds it across origins).
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: 30_000,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		// Transport failures carry the request (and its Basic header) inside; only the error code is safe to show.
		const failure = error as { code?: string; cause?: { code?: string } };
		throw tokenError(
			`${request.service}: could not reach the token endpoint ${shown} (${describeNetworkCode(failure.code ?? failure.cause?.code)}). Check the "Token URL".`,
			true,
		);
	}
	const { service } = request;
	const status = response.statusCode;
	if (status >= 300 && status < 400) {
		// Names only the host: the redirect's path or query may hold anything.
		const target = describeRedirect(
			response.headers?.location,
			shown,
			(next) => `the host ${redactAndClip(next.host, secretsOf(request), 200)}`,
		);
		throw tokenError(
			`${service}: the token endpoint ${shown} redirected (HTTP ${status}) to ${target}. Redirects are not followed, so the password is never sent elsewhere: set the "Token URL" to the token service's own address.`,
		);
	}
	const text =
		typeof response.body === 'string'
			? response.body
			: Buffer.isBuffer(response.body)
				? response.body.toString('utf8')
				: JSON.stringify(response.body ?? '');
	let body: Record<string, unknown> | undefined;
	try {
		body = JSON.parse(text) as Record<string, unknown>;
	} catch {
		body = undefined;
	}
	if (status === 401 || status === 403) {
		throw tokenError(
			`${service}: the token endpoint refused the credential's "${request.usernameLabel}" and "Password" (HTTP ${status})${serverMessage(body, request)}. Check both, for the environment the "Token URL" points to.`,
		);
	}
	if (status === 404 || status === 405) {
		throw tokenError(
			`${service}: ${shown} is not a token endpoint (HTTP ${status}). Set the "Token URL" to the token service's base address, without /token, e.g. https://auth.example.org.`,
		);
	}
	if (status < 200 || status >= 300) {
		throw tokenError(
			`${service}: the token endpoint ${shown} answered HTTP ${status}${serverMessage(body, request)}`,
			status === 429 || status >= 500,
		);
	}
	if (body === undefined) {
		const htmlHint = /^\s*</.test(text)
			? ' (it sent an HTML page: is the "Token URL" the token service and not a web page?)'
			: '';
		throw tokenError(`${service}: the token endpoint ${shown} did not answer JSON${htmlHint}`);
	}
	const token = body.access_token;
	if (typeof token !== 'string' || token === '') {
		throw tokenError(`${service}: the token endpoint's answer has no "access_token"`);
	}
	const stated = Number(body.expires_in);
	const expiresInSeconds = Number.isFinite(stated) && stated > 0 ? stated : request.lifetimeSeconds;
	const margin = Math.min(EXPIRY_MARGIN_MS, (expiresInSeconds * 1000) / 10);
	return { accessToken: token, validUntil: startedAt + expiresInSeconds * 1000 - margin };
}

/** A short server message for the error text, never the request (which holds the credentials). */
function serverMessage(body: Record<string, unknown> | undefined, request: TokenRequest): string {
	const message = body?.error_description ?? body?.message ?? body?.error;
	if (typeof message !== 'string') return '';
	return `: ${redactAndClip(message, secretsOf(request), 300)}`;
}
