import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';

import {
	describeNetworkCode,
	findNetworkCode,
	RETRYABLE_NETWORK_CODES,
} from '../http/networkErrors';
import { TOKEN_ERROR_CONTEXT_KEY } from '../http/tokenError';
import { redactAndClip } from '../http/redact';
import { retryLaterHint } from '../http/retry';
import type { GaveUp } from '../http/retry';

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/** How much of a server's text an error shows: one GraphQL message, its code or path, other answers. */
const MAX_SERVER_MESSAGE = 1000;
const MAX_SERVER_CODE = 200;
const MAX_SERVER_BODY = 500;
const MAX_PATH_SEGMENTS = 20;
/** GraphQL errors listed one per line; the rest are counted. */
const MAX_GRAPHQL_ERRORS_LISTED = 20;

/** A GraphQL error as servers send it (Hasura: extensions.code/path; Apollo: extensions.code, path). */
export interface GraphqlErrorEntry {
	message?: string;
	path?: Array<string | number>;
	extensions?: { code?: string; path?: string; [key: string]: unknown };
}

/** What went wrong with one HTTP attempt, reduced to what is safe to show (no request, no token). */
export interface AttemptFailure {
	/** The credential's token flow failed; its message is written to be shown as is. */
	tokenError?: { message: string; retryable: boolean };
	status?: number;
	networkCode?: string;
	/** Neither HTTP nor a known socket error: its message is passed on. */
	unexpectedMessage?: string;
	retryAfterMs?: number;
	/** Where a redirect that was not followed pointed (origin only). */
	redirectTarget?: string;
	body?: unknown;
}

export function isRetryable(failure: AttemptFailure): boolean {
	if (failure.tokenError) return failure.tokenError.retryable;
	if (failure.status !== undefined) return RETRYABLE_STATUS.has(failure.status);
	return failure.networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(failure.networkCode);
}

/**
 * What n8n's request helper threw: the token flow failed, the connection failed, or (strict mode after a 401) the
 * API refused again. n8n keeps only message, httpCode, description and context of the original error.
 */
export function describeThrownFailure(error: unknown): AttemptFailure {
	const tokenFailure = findTokenError(error);
	if (tokenFailure) return { tokenError: tokenFailure };
	const thrown = error as {
		httpCode?: string | null;
		message?: string;
		messages?: string[];
		context?: { data?: unknown };
	};
	const status = thrown.httpCode ? Number(thrown.httpCode) : undefined;
	if (status !== undefined && Number.isFinite(status))
		return { status, body: thrown.context?.data };
	const texts = [thrown.message ?? '', ...(thrown.messages ?? [])].join(' ');
	const networkCode =
		findNetworkCode(texts) ?? (/socket hang up/i.test(texts) ? 'ECONNRESET' : undefined);
	return {
		networkCode: networkCode ?? 'UNKNOWN',
		unexpectedMessage: networkCode ? undefined : thrown.message,
	};
}

/**
 * The token flow's error, marked in its `context`: as thrown, or as the `cause` of the NodeApiError that n8n 2.x's
 * request helper wraps it in. n8n 1.x keeps neither cause nor mark, only the message (see failureToNodeApiError).
 */
function findTokenError(error: unknown): { message: string; retryable: boolean } | undefined {
	type Thrown = { message?: string; context?: Record<string, unknown>; cause?: Thrown };
	let candidate = error as Thrown | undefined;
	for (let depth = 0; candidate && depth < 3; depth++) {
		const { context } = candidate;
		if (context?.[TOKEN_ERROR_CONTEXT_KEY] === true)
			return { message: String(candidate.message), retryable: context.retryable === true };
		candidate = candidate.cause;
	}
	return undefined;
}

/**
 * The Organization API (Apollo over a SPARQL store) answers HTTP 200 with INTERNAL_SERVER_ERROR "Unable to query
 * SPARQL service" when its store hiccups: worth retrying like a 5xx. Other resolver errors are not retried.
 */
export function isTransientStoreFailure(body: unknown): boolean {
	return (
		graphqlErrorsOf(body)?.every(
			(entry) =>
				entry?.extensions?.code === 'INTERNAL_SERVER_ERROR' &&
				/unable to query sparql service/i.test(String(entry.message ?? '')),
		) ?? false
	);
}

export function dataOf(body: unknown): IDataObject | undefined {
	const data = (body as { data?: unknown } | null | undefined)?.data;
	return typeof data === 'object' && data !== null && !Array.isArray(data)
		? (data as IDataObject)
		: undefined;
}

/** The errors by the root field of `data` their path starts at; undefined when one has no such path. */
export function errorsByRootField(
	errors: GraphqlErrorEntry[],
	data: IDataObject,
): Map<string, GraphqlErrorEntry[]> | undefined {
	const byField = new Map<string, GraphqlErrorEntry[]>();
	for (const entry of errors) {
		const field = Array.isArray(entry?.path) ? entry.path[0] : undefined;
		if (typeof field !== 'string' || !Object.hasOwn(data, field)) return undefined;
		byField.set(field, [...(byField.get(field) ?? []), entry]);
	}
	return byField;
}

export function graphqlErrorsOf(body: unknown): GraphqlErrorEntry[] | undefined {
	const errors = (body as { errors?: unknown } | null | undefined)?.errors;
	return Array.isArray(errors) && errors.length > 0 ? (errors as GraphqlErrorEntry[]) : undefined;
}

/** A GraphQL error reduced to what may be shown: its message, code and path, redacted and clipped. */
function safeGraphqlError(raw: unknown, secrets: readonly string[]): GraphqlErrorEntry {
	const shown = (value: unknown, max: number) =>
		typeof value === 'string' || typeof value === 'number'
			? redactAndClip(String(value), secrets, max)
			: undefined;
	// A server may send anything as an error entry (null, a bare string): shown as well as it goes, never thrown on.
	const entry: GraphqlErrorEntry =
		typeof raw === 'object' && raw !== null
			? raw
			: { message: typeof raw === 'string' ? raw : undefined };
	const safe: GraphqlErrorEntry = { message: shown(entry.message, MAX_SERVER_MESSAGE) };
	if (Array.isArray(entry.path))
		safe.path = entry.path
			.slice(0, MAX_PATH_SEGMENTS)
			.map((segment) => shown(segment, MAX_SERVER_CODE) ?? '?');
	const code = shown(entry.extensions?.code, MAX_SERVER_CODE);
	const path = shown(entry.extensions?.path, MAX_SERVER_CODE);
	if (code !== undefined || path !== undefined) {
		safe.extensions = code === undefined ? {} : { code };
		if (path !== undefined) safe.extensions.path = path;
	}
	return safe;
}

/** `error code "validation-failed", at face_tasks.task_id`; the root path `$` says nothing. */
function detailsOf(entry: GraphqlErrorEntry): string {
	const code = entry.extensions?.code;
	const path = entry.path?.join('.') ?? entry.extensions?.path;
	return [code ? `error code "${code}"` : '', path && path !== '$' ? `at ${path}` : '']
		.filter(Boolean)
		.join(', ');
}

/**
 * The message holds the first error's words, the description its code and path and a line per further error, all
 * redacted of the request's `secrets` and of anything shaped like a credential (a server may echo the request).
 */
export function graphqlErrorToNodeApiError(
	node: INode,
	serviceName: string,
	errors: GraphqlErrorEntry[],
	itemIndex: number,
	secrets: readonly string[],
	httpCode?: number,
): NodeApiError {
	const shownErrors = errors
		.slice(0, MAX_GRAPHQL_ERRORS_LISTED)
		.map((entry) => safeGraphqlError(entry, secrets));
	const [first, ...others] = shownErrors;
	const lines = others.map((entry) => {
		const details = detailsOf(entry);
		return `${entry.message ?? 'Unknown error'}${details ? ` (${details})` : ''}`;
	});
	const firstDetails = detailsOf(first);
	if (firstDetails) lines.unshift(`The API answered with ${firstDetails}.`);
	const more = errors.length - shownErrors.length;
	if (more > 0) lines.push(`… and ${more} more ${more === 1 ? 'error' : 'errors'}`);
	return new NodeApiError(
		node,
		{ message: first.message ?? 'GraphQL error', errors: shownErrors as unknown as JsonObject[] },
		{
			message: `${serviceName}: ${first.message ?? 'GraphQL error'}`,
			description: lines.length > 0 ? lines.join('\n') : undefined,
			httpCode: httpCode ? String(httpCode) : first.extensions?.code,
			itemIndex,
		},
	);
}

/** The `data` of an answer without `errors`; an answer without data says what the endpoint is instead. */
export function dataOfAnswer<TData>(
	node: INode,
	serviceName: string,
	body: unknown,
	itemIndex: number,
): TData {
	const data = (body as { data?: unknown } | null | undefined)?.data;
	if (typeof data === 'object' && data !== null) return data as TData;
	const webPage = typeof body === 'string' && /^\s*</.test(body);
	throw new NodeApiError(
		node,
		{ message: 'No data in GraphQL response' },
		{
			message: webPage
				? `${serviceName}: the endpoint answered a web page, not GraphQL`
				: `${serviceName}: the response holds no GraphQL "data"`,
			description:
				"Check the credential's endpoint URL: it must be the API's GraphQL address, not a web page or login page.",
			itemIndex,
		},
	);
}

/** Server text in the error is redacted first: NodeApiError copies it into message, description and response. */
export function failureToNodeApiError(
	node: INode,
	serviceName: string,
	outcome: GaveUp<AttemptFailure>,
	itemIndex: number,
	secrets: readonly string[],
): NodeApiError {
	const { failure, retries } = outcome;
	const afterRetries =
		(retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '') +
		(outcome.reason === 'retryAfterTooLong'
			? `; ${retryLaterHint(outcome.retryAfterMs ?? 0)}`
			: '');
	if (failure.tokenError) {
		const message = redactAndClip(failure.tokenError.message, secrets, MAX_SERVER_MESSAGE);
		return new NodeApiError(
			node,
			{ message },
			{ message: `${message}${afterRetries}`, description: 'Check the credential.', itemIndex },
		);
	}
	if (failure.redirectTarget !== undefined) {
		const target = redactAndClip(failure.redirectTarget, secrets, MAX_SERVER_CODE);
		return new NodeApiError(
			node,
			{ message: `HTTP ${failure.status}`, httpCode: String(failure.status) },
			{
				message: `${serviceName}: the endpoint redirected (HTTP ${failure.status}) to ${target}; only 307 and 308 redirects within the endpoint's own origin are followed, so the token never leaves it`,
				description: "Set the credential's endpoint URL to the API's own address.",
				httpCode: String(failure.status),
				itemIndex,
			},
		);
	}
	const errors = graphqlErrorsOf(failure.body);
	if (errors) {
		const httpCode = failure.status === 200 ? undefined : failure.status;
		return graphqlErrorToNodeApiError(node, serviceName, errors, itemIndex, secrets, httpCode);
	}
	if (failure.unexpectedMessage !== undefined) {
		const message = redactAndClip(failure.unexpectedMessage, secrets, MAX_SERVER_MESSAGE);
		// n8n 1.x wraps the token flow's error without its mark (see findTokenError); its message names the service.
		const fromCredential = message.startsWith(`${serviceName}: `);
		return new NodeApiError(
			node,
			{ message },
			fromCredential
				? { message, description: 'Check the credential.', itemIndex }
				: { message: `${serviceName}: ${message}`, itemIndex },
		);
	}
	if (failure.status === undefined) {
		// Not the network code in the response: n8n would replace the message and take the code for an HTTP status.
		return new NodeApiError(
			node,
			{ message: 'Connection failed' },
			{
				message: `${serviceName}: the request failed${afterRetries} (${describeNetworkCode(failure.networkCode)})`,
				description:
					"Check the credential's endpoint URL, or try again later if the service is down.",
				itemIndex,
			},
		);
	}
	const said = serverText(failure.body, secrets);
	return new NodeApiError(
		node,
		{ message: `HTTP ${failure.status}`, httpCode: String(failure.status) },
		{
			message: `${serviceName}: ${statusMessage(failure.status)}${afterRetries}`,
			description: [said === undefined ? '' : `The server said: ${said}.`, whatToDo(failure.status)]
				.filter((text) => text !== '')
				.join(' '),
			httpCode: String(failure.status),
			itemIndex,
		},
	);
}

/** What a user can change after an HTTP error, where something helps. */
function whatToDo(status: number): string {
	if (status === 429)
		return 'The service limits requests: lower Max Concurrent Requests in the options, or run the workflow less often.';
	if (status >= 500)
		return 'Try again later; Max Retries in the options sets how often each request is retried first.';
	return '';
}

function statusMessage(status: number): string {
	if (status === 401)
		return 'authentication failed (HTTP 401) even with a fresh token; check the credential';
	if (status === 403)
		return 'access denied (HTTP 403); the account may lack permission for this query';
	if (status === 429) return 'too many requests (HTTP 429)';
	if (status >= 300 && status < 400)
		return `the endpoint redirected (HTTP ${status}); only 307 and 308 redirects within its own origin are followed`;
	if (status >= 500) return `the server failed (HTTP ${status})`;
	return `the request was refused (HTTP ${status})`;
}

/** The server's own words for an HTTP error: its `message`/`error`, or the body; redacted, then clipped. */
function serverText(body: unknown, secrets: readonly string[]): string | undefined {
	if (body === undefined || body === null || body === '') return undefined;
	if (typeof body === 'string') return redactAndClip(body, secrets, MAX_SERVER_BODY);
	const { message, error } = body as { message?: unknown; error?: unknown };
	const words = message ?? error;
	return redactAndClip(
		typeof words === 'string' ? words : JSON.stringify(body),
		secrets,
		MAX_SERVER_BODY,
	);
}

/** A GraphQL error from a server that answered: it carries the server's code (`validation-failed`), not a status. */
export function isGraphqlRefusal(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const code = error.httpCode;
	return typeof code === 'string' && code !== '' && !/^\d+$/.test(code);
}

/**
 * A server that answered but refused the introspection query: a GraphQL error, or HTTP 400/403/405 from servers
 * that block it before GraphQL. Authentication, network and server failures are not refusals.
 */
export function isIntrospectionRefused(error: unknown): boolean {
	if (isGraphqlRefusal(error)) return true;
	const code = error instanceof NodeApiError ? error.httpCode : undefined;
	return code === '400' || code === '403' || code === '405';
}

/** Transport failures are NodeApiErrors already; anything else becomes one. */
export function asApiError(ctx: { getNode(): INode }, error: unknown): NodeApiError {
	if (error instanceof NodeApiError) return error;
	return new NodeApiError(ctx.getNode(), { message: (error as Error).message ?? String(error) });
}
