import { print } from 'graphql';
import type { DocumentNode } from 'graphql';
import { NodeApiError } from 'n8n-workflow';
import type {
	IDataObject,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';

import {
	describeNetworkCode,
	findNetworkCode,
	RETRYABLE_NETWORK_CODES,
} from '../http/networkErrors';
import { TOKEN_ERROR_CONTEXT_KEY } from '../http/tokenError';
import { redactAndClip } from '../http/redact';
import { DEFAULT_RETRY, parseRetryAfter, retryLaterHint, withRetries } from '../http/retry';
import type { GaveUp, RetryPolicy } from '../http/retry';

/** Every n8n context our nodes send GraphQL from. */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** One GraphQL API: which credential authenticates it and which credential field holds its endpoint. */
export interface GraphqlService {
	credentialType: string;
	/** Used in messages, e.g. "AI Metadata API". */
	serviceName: string;
	/** Name of the credential property that holds the endpoint URL. */
	endpointProperty: string;
}

interface GraphqlRequest {
	document: DocumentNode;
	variables?: IDataObject;
	operationName?: string;
}

export interface TransportOptions {
	method?: 'POST' | 'GET';
	retry?: Partial<RetryPolicy>;
	timeoutMs?: number;
}

export { DEFAULT_RETRY, parseRetryAfter } from '../http/retry';
export type { RetryPolicy } from '../http/retry';

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/** A GraphQL error as servers send it (Hasura: extensions.code/path; Apollo: extensions.code, path). */
interface GraphqlErrorEntry {
	message?: string;
	path?: Array<string | number>;
	extensions?: { code?: string; path?: string; [key: string]: unknown };
}

/** What went wrong with one HTTP attempt, reduced to what is safe to show (no request, no token). */
interface AttemptFailure {
	/** The credential's token flow failed; its message is written to be shown as is. */
	tokenError?: { message: string; retryable: boolean };
	status?: number;
	networkCode?: string;
	/** A failure that is neither HTTP nor a known socket error; its message is passed on. */
	unexpectedMessage?: string;
	retryAfterMs?: number;
	/** For a redirect that was not followed: where it pointed (origin only). */
	redirectTarget?: string;
	body?: unknown;
}

/**
 * The one way our nodes talk to a GraphQL API: n8n's authenticated request helper (token via the credential's
 * preAuthentication, one refresh on 401), retries with backoff for 429/5xx/dropped connections honouring
 * Retry-After, and GraphQL `errors` turned into NodeApiError with the server's message, code and path.
 */
export class GraphqlClient {
	readonly retry: RetryPolicy;

	/** Requests sent and retries made, for the node's own reporting and for tests. */
	readonly stats = { requests: 0, retries: 0 };

	/**
	 * Every access token this client's requests carried: n8n writes a fetched or refreshed token into the
	 * credential, and an error may echo any of them. Bounded: a token is only added when n8n fetched a new one.
	 */
	private readonly tokensSent = new Set<string>();

	private constructor(
		private readonly ctx: RequestContext,
		private readonly service: GraphqlService,
		readonly endpoint: string,
		private readonly method: 'POST' | 'GET',
		private readonly timeoutMs: number,
		retry: RetryPolicy,
		/** The credential's data; n8n writes a fetched token into it when it is handed over as `decrypted`. */
		private readonly credentials: ICredentialDataDecryptedObject,
		/** The credential as decrypted at create, handed to n8n with every request. */
		private readonly decrypted?: ICredentialsDecrypted,
	) {
		this.retry = retry;
		this.noteTokenOf(credentials);
	}

	/**
	 * Decrypts the credential once, here, and hands it to n8n with every request (n8n's `credentialsDecrypted`;
	 * a refreshed token is written into it and saved by n8n as always). Otherwise n8n reads and decrypts the
	 * credential again for each request: a database read and a decryption per page, and in a poll trigger on n8n
	 * 2.x also a fresh expression isolate, about 40 ms per request that more pages in flight do not hide. It is the
	 * same credential either way: n8n resolves it per request for item 0 too (`httpRequestWithAuthentication` passes
	 * no item), as this `getCredentials` does.
	 */
	static async create(
		ctx: RequestContext,
		service: GraphqlService,
		options: TransportOptions = {},
	): Promise<GraphqlClient> {
		const credentials = await ctx.getCredentials(service.credentialType);
		const endpoint = String(credentials[service.endpointProperty] ?? '').trim();
		if (!/^https?:\/\/\S+$/i.test(endpoint)) {
			throw new NodeApiError(
				ctx.getNode(),
				{ message: 'Invalid endpoint URL' },
				{
					message: `${service.serviceName}: the credential's endpoint URL must be an http(s) URL`,
					description: `Check the "${service.endpointProperty}" field of the credential.`,
				},
			);
		}
		const reference = ctx.getNode().credentials?.[service.credentialType];
		return new GraphqlClient(
			ctx,
			service,
			endpoint,
			options.method ?? 'POST',
			options.timeoutMs ?? 60_000,
			{ ...DEFAULT_RETRY, ...(options.retry ?? {}) },
			credentials,
			reference?.id
				? {
						id: reference.id,
						name: reference.name,
						type: service.credentialType,
						data: credentials,
					}
				: undefined,
		);
	}

	/**
	 * Sends one GraphQL operation and returns its `data`, or throws NodeApiError. `signal` (e.g. a page that is
	 * no longer needed) stops further retries.
	 */
	async request<TData = IDataObject>(
		request: GraphqlRequest,
		itemIndex = 0,
		signal?: AbortSignal,
	): Promise<TData> {
		const node = this.ctx.getNode();
		const outcome = await this.sendWithRetries(request, signal);
		const { serviceName } = this.service;
		if ('value' in outcome) {
			const errors = graphqlErrorsOf(outcome.value);
			if (errors) {
				const secrets = await this.liveSecrets();
				throw graphqlErrorToNodeApiError(node, serviceName, errors, itemIndex, secrets);
			}
			return unwrapGraphqlResponse<TData>(node, serviceName, outcome.value, itemIndex);
		}
		throw failureToNodeApiError(node, serviceName, outcome, itemIndex, await this.liveSecrets());
	}

	/**
	 * Like `request`, for a document whose root fields (aliases) are answered independently: an error whose path
	 * starts at a root field belongs to that field only (Apollo answers HTTP 200, that field null, and an `errors`
	 * entry with its path). Returns the data and one NodeApiError per root field that has errors. An answer with any
	 * other error, and every HTTP or network failure, throws as `request` does. A store failure that is still there
	 * after the retries is answered per field as well.
	 */
	async requestPerRootField(
		request: GraphqlRequest,
		itemIndex = 0,
		signal?: AbortSignal,
	): Promise<{ data: IDataObject; fieldErrors: Map<string, NodeApiError> }> {
		const node = this.ctx.getNode();
		const { serviceName } = this.service;
		const outcome = await this.sendWithRetries(request, signal);
		const body =
			'value' in outcome
				? outcome.value
				: outcome.failure.status === 200 && dataOf(outcome.failure.body) !== undefined
					? outcome.failure.body
					: undefined;
		if (body === undefined) {
			throw failureToNodeApiError(
				node,
				serviceName,
				outcome as GaveUp<AttemptFailure>,
				itemIndex,
				await this.liveSecrets(),
			);
		}
		const errors = graphqlErrorsOf(body);
		const data = dataOf(body);
		const byField = errors && data ? errorsByRootField(errors, data) : undefined;
		if (errors && !byField) {
			throw graphqlErrorToNodeApiError(
				node,
				serviceName,
				errors,
				itemIndex,
				await this.liveSecrets(),
			);
		}
		const fieldErrors = new Map<string, NodeApiError>();
		if (byField) {
			const secrets = await this.liveSecrets();
			for (const [field, entries] of byField) {
				fieldErrors.set(
					field,
					graphqlErrorToNodeApiError(node, serviceName, entries, itemIndex, secrets),
				);
			}
		}
		return {
			data: unwrapGraphqlResponse<IDataObject>(
				node,
				serviceName,
				data === undefined ? body : { data },
				itemIndex,
			),
			fieldErrors,
		};
	}

	/** Sends one GraphQL operation with the client's retries; a store hiccup (HTTP 200) is retried like a 5xx. */
	private async sendWithRetries(
		request: GraphqlRequest,
		signal?: AbortSignal,
	): Promise<{ value: unknown } | GaveUp<AttemptFailure>> {
		return await withRetries<unknown, AttemptFailure>(
			async () => {
				const attempt = await this.attempt(request);
				if (!('failure' in attempt)) {
					if (isTransientStoreFailure(attempt.body))
						return { failure: { status: 200, body: attempt.body }, retryable: true };
					return { value: attempt.body };
				}
				const { failure } = attempt;
				return { failure, retryable: isRetryable(failure), retryAfterMs: failure.retryAfterMs };
			},
			this.retry,
			{
				signal: combineSignals(signal, this.executionSignal()),
				onRetry: () => this.stats.retries++,
			},
		);
	}

	/**
	 * The secrets an answer may echo: the password and every token sent. Without a decrypted credential of its own
	 * (no credential id), n8n kept a fetched token in its store only: it is read from there, on this error path.
	 */
	private async liveSecrets(): Promise<string[]> {
		if (!this.decrypted) {
			try {
				this.noteTokenOf(await this.ctx.getCredentials(this.service.credentialType));
			} catch {
				// The tokens already seen and the password are still redacted.
			}
		}
		return [...this.tokensSent, String(this.credentials.password ?? '')];
	}

	private noteTokenOf(credentials: ICredentialDataDecryptedObject): void {
		const token = credentials.accessToken;
		if (typeof token !== 'string' || token === '' || this.tokensSent.has(token)) return;
		if (this.tokensSent.size >= MAX_TOKENS_REMEMBERED) {
			this.tokensSent.delete(this.tokensSent.values().next().value as string);
		}
		this.tokensSent.add(token);
	}

	/**
	 * One HTTP exchange. Statuses are read from the full response (n8n's error wrapping drops headers such as
	 * Retry-After). A 401 is sent once more in n8n's strict mode, where n8n itself refreshes the token through the
	 * credential's preAuthentication and repeats the request.
	 */
	private async attempt(
		request: GraphqlRequest,
	): Promise<{ body: unknown } | { failure: AttemptFailure }> {
		try {
			let response = await this.exchange(request, true);
			if (response.statusCode === 401) response = await this.exchange(request, false);
			if (response.statusCode >= 200 && response.statusCode < 300) return { body: response.body };
			return {
				failure: {
					status: response.statusCode,
					retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
					redirectTarget: isRedirect(response.statusCode)
						? describeLocation(response.headers?.location, this.endpoint)
						: undefined,
					body: response.body,
				},
			};
		} catch (error) {
			return { failure: describeThrownFailure(error) };
		}
	}

	/**
	 * Sends the request, following only 307/308 redirects within the endpoint's own origin (method and body kept).
	 * n8n would follow any redirect and, by default, re-add the token on the other host; here redirects elsewhere are
	 * answered to the caller, who turns them into an error.
	 */
	private async exchange(
		request: GraphqlRequest,
		tolerateStatus: boolean,
	): Promise<IN8nHttpFullResponse> {
		let url = this.endpoint;
		for (let hop = 0; ; hop++) {
			const response = await this.send(request, url, tolerateStatus);
			const next = sameOriginRedirect(url, response);
			if (next === undefined || hop >= MAX_SAME_ORIGIN_REDIRECTS) return response;
			url = next;
		}
	}

	private async send(
		request: GraphqlRequest,
		url: string,
		tolerateStatus: boolean,
	): Promise<IN8nHttpFullResponse> {
		this.stats.requests++;
		try {
			return (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx,
				this.service.credentialType,
				{
					...this.httpOptions(request),
					url,
					returnFullResponse: true,
					ignoreHttpStatusErrors: tolerateStatus,
					disableFollowRedirect: true,
					sendCredentialsOnCrossOriginRedirect: false,
				},
				this.decrypted ? { credentialsDecrypted: this.decrypted } : undefined,
			)) as IN8nHttpFullResponse;
		} finally {
			// n8n wrote the token it sent (fetched before, or refreshed after a 401) into the credential.
			this.noteTokenOf(this.credentials);
		}
	}

	private httpOptions(request: GraphqlRequest): Omit<IHttpRequestOptions, 'url'> {
		const operationName = request.operationName ?? firstOperationName(request.document);
		const query = print(request.document);
		const common = { json: true, timeout: this.timeoutMs };
		if (this.method === 'GET') {
			const qs: IDataObject = { query };
			if (request.variables && Object.keys(request.variables).length > 0) {
				qs.variables = JSON.stringify(request.variables);
			}
			if (operationName) qs.operationName = operationName;
			// Apollo Server refuses "simple" GET requests (CSRF prevention) unless this header is present.
			return { ...common, method: 'GET', qs, headers: { 'apollo-require-preflight': 'true' } };
		}
		const body: IDataObject = { query, variables: request.variables ?? {} };
		if (operationName) body.operationName = operationName;
		return { ...common, method: 'POST', body, headers: { 'content-type': 'application/json' } };
	}

	private executionSignal(): AbortSignal | undefined {
		const ctx = this.ctx as Partial<IExecuteFunctions>;
		return typeof ctx.getExecutionCancelSignal === 'function'
			? ctx.getExecutionCancelSignal()
			: undefined;
	}
}

function combineSignals(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
	const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
	if (present.length <= 1) return present[0];
	return AbortSignal.any(present);
}

const MAX_SAME_ORIGIN_REDIRECTS = 3;

/** Tokens one client remembers for redaction; each is a token n8n fetched during the client's life. */
const MAX_TOKENS_REMEMBERED = 16;

/** How much of a server's text an error shows: one GraphQL message, its code or path, other answers. */
const MAX_SERVER_MESSAGE = 1000;
const MAX_SERVER_CODE = 200;
const MAX_SERVER_BODY = 500;
/** Segments of a GraphQL error's path that are shown. */
const MAX_PATH_SEGMENTS = 20;
/** GraphQL errors listed one per line; the rest are counted. */
const MAX_GRAPHQL_ERRORS_LISTED = 20;

function isRedirect(status: number): boolean {
	return status >= 300 && status < 400;
}

/** The next URL when the answer is a 307/308 within the same origin; its query is dropped (ours is sent again). */
function sameOriginRedirect(from: string, response: IN8nHttpFullResponse): string | undefined {
	if (response.statusCode !== 307 && response.statusCode !== 308) return undefined;
	const location = response.headers?.location;
	if (typeof location !== 'string' || location === '') return undefined;
	try {
		const next = new URL(location, from);
		return next.origin === new URL(from).origin ? `${next.origin}${next.pathname}` : undefined;
	} catch {
		return undefined;
	}
}

/** Where a redirect points, as an origin: its path and query may carry anything, even the token. */
function describeLocation(location: unknown, base: string): string {
	if (typeof location !== 'string' || location === '') return 'no address (no Location header)';
	try {
		return new URL(location, base).origin;
	} catch {
		return 'an address that is not a URL';
	}
}

function firstOperationName(document: DocumentNode): string | undefined {
	for (const definition of document.definitions) {
		if (definition.kind === 'OperationDefinition' && definition.name) return definition.name.value;
	}
	return undefined;
}

function isRetryable(failure: AttemptFailure): boolean {
	if (failure.tokenError) return failure.tokenError.retryable;
	if (failure.status !== undefined) return RETRYABLE_STATUS.has(failure.status);
	return failure.networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(failure.networkCode);
}

/**
 * What n8n's request helper threw: the token flow failed, the connection failed, or (strict mode after a 401) the
 * API refused again. n8n keeps only message, httpCode, description and context of the original error.
 */
function describeThrownFailure(error: unknown): AttemptFailure {
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
	let candidate = error as TokenErrorShape | undefined;
	for (let depth = 0; candidate && depth < 3; depth++) {
		if (candidate.context?.[TOKEN_ERROR_CONTEXT_KEY] === true) {
			return {
				message: String(candidate.message),
				retryable: candidate.context.retryable === true,
			};
		}
		candidate = candidate.cause;
	}
	return undefined;
}

interface TokenErrorShape {
	message?: string;
	context?: Record<string, unknown>;
	cause?: TokenErrorShape;
}

/**
 * The Organization API (Apollo over a SPARQL store) answers HTTP 200 with INTERNAL_SERVER_ERROR "Unable to query
 * SPARQL service" when its store hiccups: worth retrying like a 5xx. Other resolver errors are not retried.
 */
function isTransientStoreFailure(body: unknown): boolean {
	const errors = graphqlErrorsOf(body);
	return (
		errors !== undefined &&
		errors.every(
			(entry) =>
				entry?.extensions?.code === 'INTERNAL_SERVER_ERROR' &&
				/unable to query sparql service/i.test(String(entry.message ?? '')),
		)
	);
}

function dataOf(body: unknown): IDataObject | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const data = (body as { data?: unknown }).data;
	return typeof data === 'object' && data !== null && !Array.isArray(data)
		? (data as IDataObject)
		: undefined;
}

/**
 * The errors grouped by the root field their path starts at, when every error has such a path to a field of
 * `data`; otherwise undefined (an error of the whole operation).
 */
function errorsByRootField(
	errors: GraphqlErrorEntry[],
	data: IDataObject,
): Map<string, GraphqlErrorEntry[]> | undefined {
	const byField = new Map<string, GraphqlErrorEntry[]>();
	for (const entry of errors) {
		const field = Array.isArray(entry?.path) ? entry.path[0] : undefined;
		if (typeof field !== 'string' || !Object.prototype.hasOwnProperty.call(data, field)) {
			return undefined;
		}
		byField.set(field, [...(byField.get(field) ?? []), entry]);
	}
	return byField;
}

function graphqlErrorsOf(body: unknown): GraphqlErrorEntry[] | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const errors = (body as { errors?: unknown }).errors;
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
			? (raw as GraphqlErrorEntry)
			: { message: typeof raw === 'string' ? raw : undefined };
	const path = Array.isArray(entry.path)
		? entry.path
				.slice(0, MAX_PATH_SEGMENTS)
				.map((segment) => shown(segment, MAX_SERVER_CODE) ?? '?')
		: undefined;
	const code = shown(entry.extensions?.code, MAX_SERVER_CODE);
	const extensionPath = shown(entry.extensions?.path, MAX_SERVER_CODE);
	return {
		message: shown(entry.message, MAX_SERVER_MESSAGE),
		...(path ? { path } : {}),
		...(code !== undefined || extensionPath !== undefined
			? {
					extensions: {
						...(code !== undefined ? { code } : {}),
						...(extensionPath !== undefined ? { path: extensionPath } : {}),
					},
				}
			: {}),
	};
}

/**
 * One line per GraphQL error: message, code and path as the server gave them, with every secret the request carried
 * (`secrets`) and anything shaped like a credential redacted: a server may echo the request in them.
 */
function describeGraphqlErrors(
	errors: GraphqlErrorEntry[],
	secrets: readonly string[] = [],
): string {
	const lines = errors.slice(0, MAX_GRAPHQL_ERRORS_LISTED).map((error) => {
		const entry = safeGraphqlError(error, secrets);
		const code = entry.extensions?.code;
		const path = entry.path?.join('.') ?? entry.extensions?.path;
		const details = [code ? `code ${code}` : '', path ? `path ${path}` : '']
			.filter(Boolean)
			.join(', ');
		return `${entry.message ?? 'Unknown error'}${details ? ` (${details})` : ''}`;
	});
	const more = errors.length - lines.length;
	if (more > 0) lines.push(`… and ${more} more ${more === 1 ? 'error' : 'errors'}`);
	return lines.join('\n');
}

function graphqlErrorToNodeApiError(
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
	const first = shownErrors[0];
	return new NodeApiError(
		node,
		{
			message: first.message ?? 'GraphQL error',
			errors: shownErrors as unknown as JsonObject[],
		} as JsonObject,
		{
			message: `${serviceName}: ${first.message ?? 'GraphQL error'}`,
			description: describeGraphqlErrors(errors, secrets),
			httpCode: httpCode ? String(httpCode) : first.extensions?.code,
			itemIndex,
		},
	);
}

/** A response is only data when it has no `errors`: partial data with errors is still an error (nothing silently dropped). */
function unwrapGraphqlResponse<TData>(
	node: INode,
	serviceName: string,
	body: unknown,
	itemIndex: number,
	secrets: readonly string[] = [],
): TData {
	const errors = graphqlErrorsOf(body);
	if (errors) throw graphqlErrorToNodeApiError(node, serviceName, errors, itemIndex, secrets);
	const data =
		typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
	if (typeof data !== 'object' || data === null) {
		throw new NodeApiError(
			node,
			{ message: 'No data in GraphQL response' },
			{
				message: `${serviceName}: the response holds no GraphQL "data"`,
				description:
					'The endpoint answered without data or errors; check the endpoint URL of the credential.',
				itemIndex,
			},
		);
	}
	return data as TData;
}

/**
 * Server text in the error (GraphQL errors, HTTP bodies, a redirect's target, an unexpected message, the token
 * flow's message) is redacted with the request's `secrets` first: NodeApiError copies it into its message,
 * description, messages and errorResponse.
 */
function failureToNodeApiError(
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
			{
				message: `${message}${afterRetries}`,
				description: 'Check the credential.',
				itemIndex,
			},
		);
	}
	if (failure.redirectTarget !== undefined) {
		const target = redactAndClip(failure.redirectTarget, secrets, MAX_SERVER_CODE);
		return new NodeApiError(
			node,
			{ message: `HTTP ${failure.status}`, httpCode: String(failure.status) },
			{
				message: `${serviceName}: the endpoint redirected (HTTP ${failure.status}) to ${target}; redirects to another address are not followed, so the token is never sent there`,
				description: "Set the credential's endpoint URL to the API's own address.",
				httpCode: String(failure.status),
				itemIndex,
			},
		);
	}
	const errors = graphqlErrorsOf(failure.body);
	if (errors)
		return graphqlErrorToNodeApiError(
			node,
			serviceName,
			errors,
			itemIndex,
			secrets,
			failure.status === 200 ? undefined : failure.status,
		);
	if (failure.unexpectedMessage !== undefined) {
		const message = redactAndClip(failure.unexpectedMessage, secrets, MAX_SERVER_MESSAGE);
		// n8n 1.x wraps the credential's token error without its mark (see findTokenError), but its message already
		// names the service: say it once.
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
		return new NodeApiError(
			node,
			{ message: 'Connection failed', code: failure.networkCode ?? null },
			{
				message: `${serviceName}: the request failed${afterRetries} (${describeNetworkCode(failure.networkCode)})`,
				description: 'The server could not be reached or dropped the connection.',
				itemIndex,
			},
		);
	}
	return new NodeApiError(
		node,
		{ message: `HTTP ${failure.status}`, httpCode: String(failure.status) },
		{
			message: `${serviceName}: ${statusMessage(failure.status)}${afterRetries}`,
			description: serverText(failure.body, secrets),
			httpCode: String(failure.status),
			itemIndex,
		},
	);
}

function statusMessage(status: number): string {
	if (status === 401)
		return 'authentication failed (HTTP 401) even with a fresh token; check the credential';
	if (status === 403)
		return 'access denied (HTTP 403); the account may lack permission for this query';
	if (status === 429) return 'too many requests (HTTP 429)';
	if (isRedirect(status))
		return `the endpoint redirected (HTTP ${status}); redirects to another address are not followed`;
	if (status >= 500) return `the server failed (HTTP ${status})`;
	return `the request was refused (HTTP ${status})`;
}

/** The server's own words for an HTTP error: its `message`/`error`, or the body; redacted, then clipped. */
function serverText(body: unknown, secrets: readonly string[]): string | undefined {
	if (body === undefined || body === null || body === '') return undefined;
	if (typeof body === 'string') return redactAndClip(body, secrets, MAX_SERVER_BODY);
	const message =
		(body as { message?: unknown; error?: unknown }).message ?? (body as { error?: unknown }).error;
	return redactAndClip(
		typeof message === 'string' ? message : JSON.stringify(body),
		secrets,
		MAX_SERVER_BODY,
	);
}
