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
import { describeRedirect, redirectTarget } from '../http/redirects';
import { DEFAULT_RETRY, parseRetryAfter, withRetries } from '../http/retry';
import type { RetryPolicy } from '../http/retry';
import {
	dataOf,
	dataOfAnswer,
	describeThrownFailure,
	errorsByRootField,
	failureToNodeApiError,
	graphqlErrorsOf,
	graphqlErrorToNodeApiError,
	isRetryable,
	isTransientStoreFailure,
} from './errors';
import type { AttemptFailure, GraphqlErrorEntry } from './errors';

/** Every n8n context our nodes send GraphQL from. */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** One GraphQL API: which credential authenticates it and which credential field holds its endpoint. */
export interface GraphqlService {
	credentialType: string;
	/** Used in messages, e.g. "AI Metadata API". */
	serviceName: string;
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

const MAX_SAME_ORIGIN_REDIRECTS = 3;

/** Tokens one client remembers for redaction; each is a token n8n fetched during the client's life. */
const MAX_TOKENS_REMEMBERED = 16;

/**
 * The one way our nodes talk to a GraphQL API: n8n's authenticated request helper (token via the credential's
 * preAuthentication, one refresh on 401), retries with backoff for 429/5xx/dropped connections honouring
 * Retry-After, and GraphQL `errors` turned into NodeApiError with the server's message, code and path.
 */
export class GraphqlClient {
	/** Every access token this client's requests carried (n8n writes each fetched one into the credential). */
	private readonly tokensSent = new Set<string>();

	private constructor(
		private readonly ctx: RequestContext,
		readonly service: GraphqlService,
		readonly endpoint: string,
		private readonly options: { method: 'POST' | 'GET'; timeoutMs: number; retry: RetryPolicy },
		private readonly credentials: ICredentialDataDecryptedObject,
		/** The credential as decrypted at create, handed to n8n with every request. */
		private readonly decrypted?: ICredentialsDecrypted,
	) {
		this.noteTokenOf(credentials);
	}

	/** Decrypts the credential once for all requests; n8n would decrypt it per request. */
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
		const decrypted = reference?.id
			? { id: reference.id, name: reference.name, type: service.credentialType, data: credentials }
			: undefined;
		const settings = {
			method: options.method ?? 'POST',
			timeoutMs: options.timeoutMs ?? 60_000,
			retry: { ...DEFAULT_RETRY, ...options.retry },
		};
		return new GraphqlClient(ctx, service, endpoint, settings, credentials, decrypted);
	}

	/** Sends one GraphQL operation and returns its `data`, or throws NodeApiError; `signal` stops further retries. */
	async request<TData = IDataObject>(
		request: GraphqlRequest,
		itemIndex = 0,
		signal?: AbortSignal,
	): Promise<TData> {
		const body = await this.answer(request, itemIndex, signal);
		const errors = graphqlErrorsOf(body);
		if (errors) throw this.graphqlError(errors, itemIndex, await this.liveSecrets());
		return dataOfAnswer<TData>(this.ctx.getNode(), this.service.serviceName, body, itemIndex);
	}

	/**
	 * Like `request`, for root fields (aliases) answered independently: an error whose path starts at a root field
	 * (Apollo: HTTP 200, that field null) becomes that field's NodeApiError. Any other error throws as in `request`.
	 */
	async requestPerRootField(
		request: GraphqlRequest,
		itemIndex = 0,
		signal?: AbortSignal,
	): Promise<{ data: IDataObject; fieldErrors: Map<string, NodeApiError> }> {
		const body = await this.answer(request, itemIndex, signal);
		const errors = graphqlErrorsOf(body);
		const data = dataOf(body);
		const byField = errors && data ? errorsByRootField(errors, data) : undefined;
		if (errors && !byField) throw this.graphqlError(errors, itemIndex, await this.liveSecrets());
		const fieldErrors = new Map<string, NodeApiError>();
		if (byField) {
			const secrets = await this.liveSecrets();
			for (const [field, entries] of byField)
				fieldErrors.set(field, this.graphqlError(entries, itemIndex, secrets));
		}
		const { serviceName } = this.service;
		return {
			data: data ?? dataOfAnswer<IDataObject>(this.ctx.getNode(), serviceName, body, itemIndex),
			fieldErrors,
		};
	}

	/** Server text fit for an error: every secret this client sent and the password redacted, then clipped. */
	async redacted(text: string, maxLength: number): Promise<string> {
		return redactAndClip(text, await this.liveSecrets(), maxLength);
	}

	/** The answer after the retries; a store hiccup (HTTP 200) is retried like a 5xx and, if it stays, answered. */
	private async answer(
		request: GraphqlRequest,
		itemIndex: number,
		signal?: AbortSignal,
	): Promise<unknown> {
		const cancel = (this.ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();
		const outcome = await withRetries<unknown, AttemptFailure>(
			async () => {
				const attempt = await this.attempt(request);
				if ('body' in attempt) {
					if (!isTransientStoreFailure(attempt.body)) return { value: attempt.body };
					return { failure: { status: 200, body: attempt.body }, retryable: true };
				}
				const { failure } = attempt;
				return { failure, retryable: isRetryable(failure), retryAfterMs: failure.retryAfterMs };
			},
			this.options.retry,
			{ signal: signal && cancel ? AbortSignal.any([signal, cancel]) : (signal ?? cancel) },
		);
		if ('value' in outcome) return outcome.value;
		if (outcome.failure.status === 200) return outcome.failure.body;
		const secrets = await this.liveSecrets();
		const { serviceName } = this.service;
		throw failureToNodeApiError(this.ctx.getNode(), serviceName, outcome, itemIndex, secrets);
	}

	private graphqlError(
		errors: GraphqlErrorEntry[],
		itemIndex: number,
		secrets: string[],
	): NodeApiError {
		const { serviceName } = this.service;
		return graphqlErrorToNodeApiError(this.ctx.getNode(), serviceName, errors, itemIndex, secrets);
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
	 * One HTTP exchange, read from the full response (n8n's error wrapping drops Retry-After). After a 401 it is sent
	 * once more in n8n's strict mode, where n8n refreshes the token (preAuthentication) and repeats the request.
	 */
	private async attempt(
		request: GraphqlRequest,
	): Promise<{ body: unknown } | { failure: AttemptFailure }> {
		try {
			let response = await this.exchange(request, true);
			if (response.statusCode === 401) response = await this.exchange(request, false);
			const status = response.statusCode;
			if (status >= 200 && status < 300) return { body: response.body };
			const location = response.headers?.location;
			return {
				failure: {
					status,
					retryAfterMs: parseRetryAfter(response.headers?.['retry-after']),
					// Its origin only: the path and query may carry anything, even the token.
					redirectTarget:
						status >= 300 && status < 400
							? describeRedirect(location, this.endpoint, (target) => target.origin)
							: undefined,
					body: response.body,
				},
			};
		} catch (error) {
			return { failure: describeThrownFailure(error) };
		}
	}

	/**
	 * Sends the request, following only 307/308 redirects within the endpoint's origin (method and body kept): n8n
	 * would follow any and re-add the token on the other host. Other redirects are answered to the caller.
	 */
	private async exchange(
		request: GraphqlRequest,
		tolerateStatus: boolean,
	): Promise<IN8nHttpFullResponse> {
		let url = this.endpoint;
		for (let hop = 0; ; hop++) {
			let response: IN8nHttpFullResponse;
			try {
				response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
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
			const next = sameOriginRedirect(url, response);
			if (next === undefined || hop >= MAX_SAME_ORIGIN_REDIRECTS) return response;
			url = next;
		}
	}

	private httpOptions(request: GraphqlRequest): Omit<IHttpRequestOptions, 'url'> {
		const operationName = request.operationName ?? firstOperationName(request.document);
		const query = print(request.document);
		const common = { json: true, timeout: this.options.timeoutMs };
		if (this.options.method === 'GET') {
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
}

/** The next URL when the answer is a 307/308 within the same origin; its query is dropped (ours is sent again). */
function sameOriginRedirect(from: string, response: IN8nHttpFullResponse): string | undefined {
	if (response.statusCode !== 307 && response.statusCode !== 308) return undefined;
	const next = redirectTarget(response.headers?.location, from);
	return next instanceof URL && next.origin === new URL(from).origin
		? `${next.origin}${next.pathname}`
		: undefined;
}

function firstOperationName(document: DocumentNode): string | undefined {
	for (const definition of document.definitions) {
		if (definition.kind === Kind.OPERATION_DEFINITION && definition.name)
			return definition.name.value;
	}
	return undefined;
}
