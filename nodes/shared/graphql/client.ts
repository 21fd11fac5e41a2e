import { Kind, print } from 'graphql';
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
	IPollFunctions,
} from 'n8n-workflow';

import { redactAndClip } from '../http/redact';
import { DEFAULT_RETRY, parseRetryAfter, withRetries } from '../http/retry';
import type { GaveUp, RetryPolicy } from '../http/retry';
import {
	dataOf,
	describeThrownFailure,
	errorsByRootField,
	failureToNodeApiError,
	graphqlErrorsOf,
	graphqlErrorToNodeApiError,
	isRedirect,
	isRetryable,
	isTransientStoreFailure,
	unwrapGraphqlResponse,
} from './errors';
import type { AttemptFailure } from './errors';

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

export { parseRetryAfter } from '../http/retry';
export type { RetryPolicy } from '../http/retry';

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
		readonly service: GraphqlService,
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
		const endpoint = String(
			(credentials[service.endpointProperty] as string | undefined) ?? '',
		).trim();
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

	/** Server text fit for an error: every secret this client sent and the password redacted, then clipped. */
	async redacted(text: string, maxLength: number): Promise<string> {
		return redactAndClip(text, await this.liveSecrets(), maxLength);
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
		return [...this.tokensSent, String((this.credentials.password as string | undefined) ?? '')];
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
		if (definition.kind === Kind.OPERATION_DEFINITION && definition.name)
			return definition.name.value;
	}
	return undefined;
}
