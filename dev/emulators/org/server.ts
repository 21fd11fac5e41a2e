/** HTTP server of the Organization API emulator (Apollo Server 4 behaviour) with its GET token endpoint. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import {
	type DocumentNode,
	type GraphQLError,
	type GraphQLSchema,
	execute,
	parse,
	validate,
} from 'graphql';

import { CONTROL_PREFIX, handleControl } from '../core/control';
import { type Counters, countResponses } from '../core/counters';
import type { FaultControl } from '../core/faults';
import {
	ServerLifecycle,
	answeredByInjectedFault,
	baseUrl,
	extractAccessToken,
	readBody,
	send,
	sendJson,
	JSON_CONTENT_TYPE,
} from '../core/http';
import { ResponseCache } from '../core/responseCache';
import { TokenStore, handleTokenRequest } from '../core/tokens';
import type { OrgDataset } from './dataset';
import { OrgResolvers, SparqlUnavailableError, buildOrgSchema, type OrgContext } from './schema';

export const ORG_API_PATH = '/organisation_v2';

export interface OrgServerOptions {
	dataset: OrgDataset;
	seed: number;
	username: string;
	password: string;
	host: string;
	port: number;
	faults: FaultControl;
	counters: Counters;
	tokenTtlSeconds?: number;
	/** Bench mode: successful GraphQL answers are rendered once and served as stored bytes (core/responseCache). */
	responseCache?: ResponseCache;
}

interface GraphqlRequest {
	query?: unknown;
	variables?: unknown;
	operationName?: unknown;
}

interface ApolloError {
	message: string;
	locations?: ReadonlyArray<{ line: number; column: number }>;
	path?: ReadonlyArray<string | number>;
	extensions: { code: string };
}

/** Content types a browser may send without a CORS preflight; Apollo's CSRF prevention refuses them. */
const SIMPLE_CONTENT_TYPES = [
	'application/x-www-form-urlencoded',
	'multipart/form-data',
	'text/plain',
];
const CSRF_MESSAGE =
	"This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header " +
	'(with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value ' +
	'for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n';

export class OrgServer {
	readonly tokens: TokenStore;
	private readonly schema: GraphQLSchema;
	private readonly rootValue: Record<string, unknown>;
	private readonly lifecycle: ServerLifecycle;

	constructor(private readonly options: OrgServerOptions) {
		this.schema = buildOrgSchema();
		this.rootValue = new OrgResolvers(options.dataset, options.seed).rootValue();
		this.tokens = new TokenStore(options.faults, ['org', 'orgAuth']);
		this.lifecycle = new ServerLifecycle(createServer((req, res) => void this.route(req, res)));
	}

	async start(): Promise<string> {
		const port = await this.lifecycle.listen(this.options.port, this.options.host);
		return baseUrl(this.options.host, port);
	}

	close(): Promise<void> {
		return this.lifecycle.close();
	}

	private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const { counters, faults } = this.options;
		const url = new URL(req.url ?? '/', 'http://emulator');
		try {
			if (url.pathname.startsWith(CONTROL_PREFIX))
				return await handleControl(req, res, url, { faults, counters });
			countResponses(res, counters, 'org');
			if (url.pathname === '/auth/token') return await this.token(req, res, url);
			if (url.pathname === ORG_API_PATH || url.pathname === `${ORG_API_PATH}/`)
				return await this.graphql(req, res, url);
			counters.request('org', 'other');
			sendJson(res, 404, { error: 'not_found' });
		} catch (error) {
			sendJson(res, 500, { error: 'internal', message: (error as Error).message });
		}
	}

	private token(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
		const { faults, counters, username, password, tokenTtlSeconds } = this.options;
		return handleTokenRequest(req, res, url, {
			service: 'org',
			method: 'GET',
			user: username,
			password,
			faultTarget: 'orgAuth',
			store: this.tokens,
			faults,
			counters,
			maxLifetimeSeconds: tokenTtlSeconds,
			delay: (ms) => this.lifecycle.delay(ms),
		});
	}

	private async graphql(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
		const { faults, counters } = this.options;
		const delay = (ms: number) => this.lifecycle.delay(ms);
		if (
			await answeredByInjectedFault(res, {
				service: 'org',
				endpoint: 'graphql',
				target: 'org',
				faults,
				counters,
				delay,
			})
		)
			return;
		const body = await readBody(req);
		const tokenState = this.tokens.check(extractAccessToken(req, url));
		if (tokenState !== 'valid') {
			return sendJson(
				res,
				401,
				{ message: tokenState === 'expired' ? 'jwt expired' : 'Unauthorized' },
				{ 'www-authenticate': 'Bearer' },
			);
		}
		if (this.blockedAsCsrf(req))
			return sendApollo(res, 400, {
				errors: [{ message: CSRF_MESSAGE, extensions: { code: 'BAD_REQUEST' } }],
			});
		const request = this.readRequest(req, url, body);
		if ('status' in request) return sendApollo(res, request.status, { errors: [request.error] });
		const sparqlDown = faults.decideSparqlDown('org');
		if (sparqlDown) counters.fault('org', 'graphql', 'sparqlDown');
		const failKeys = failingKeysOf(faults);
		const { responseCache } = this.options;
		if (!responseCache || sparqlDown || failKeys) {
			const { status, payload } = this.run(request, sparqlDown, { sparqlDown, failKeys });
			return sendApollo(res, status, payload);
		}
		// The data never changes after start (generation 0); unordered lists and errors are not stored.
		const answer = responseCache.answer(ResponseCache.keyOf(request), 0, () => {
			const context: OrgContext = { sparqlDown };
			const { status, payload } = this.run(request, sparqlDown, context);
			const failed = typeof payload === 'object' && payload !== null && 'errors' in payload;
			return { status, body: payload, cacheable: !failed && context.unordered !== true };
		});
		send(res, answer.status, answer.body, { 'content-type': JSON_CONTENT_TYPE });
	}

	private blockedAsCsrf(req: IncomingMessage): boolean {
		const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		const preflighted = contentType !== '' && !SIMPLE_CONTENT_TYPES.includes(contentType);
		const header = (name: string) => String(req.headers[name] ?? '').length > 0;
		return (
			!preflighted && !header('apollo-require-preflight') && !header('x-apollo-operation-name')
		);
	}

	private readRequest(
		req: IncomingMessage,
		url: URL,
		body: Buffer,
	): GraphqlRequest | { status: number; error: ApolloError } {
		const badRequest = (message: string) => ({
			status: 400,
			error: { message, extensions: { code: 'BAD_REQUEST' } },
		});
		if (req.method === 'GET') {
			const variables = url.searchParams.get('variables');
			try {
				return {
					query: url.searchParams.get('query') ?? undefined,
					operationName: url.searchParams.get('operationName') ?? undefined,
					variables: variables ? JSON.parse(variables) : undefined,
				};
			} catch {
				return badRequest('`variables` in a GET request must be a JSON-encoded object');
			}
		}
		if (req.method !== 'POST')
			return {
				status: 405,
				error: {
					message: 'Apollo Server supports only GET/POST requests.',
					extensions: { code: 'BAD_REQUEST' },
				},
			};
		try {
			const parsed = JSON.parse(body.toString('utf8')) as unknown;
			if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
				return badRequest('POST body must be a JSON object');
			return parsed;
		} catch {
			return badRequest('POST body is not valid JSON');
		}
	}

	private run(
		request: GraphqlRequest,
		sparqlDown: boolean,
		context: OrgContext = { sparqlDown },
	): { status: number; payload: unknown } {
		const fail = (status: number, errors: ApolloError[]) => ({ status, payload: { errors } });
		if (typeof request.query !== 'string' || request.query === '') {
			return fail(400, [
				{
					message:
						'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.',
					extensions: { code: 'BAD_REQUEST' },
				},
			]);
		}
		let document: DocumentNode;
		try {
			document = parse(request.query);
		} catch (error) {
			return fail(400, [apolloError(error as GraphQLError, 'GRAPHQL_PARSE_FAILED')]);
		}
		const validationErrors = validate(this.schema, document);
		if (validationErrors.length)
			return fail(
				400,
				validationErrors.map((error) => apolloError(error, 'GRAPHQL_VALIDATION_FAILED')),
			);
		const result = execute({
			schema: this.schema,
			document,
			rootValue: this.rootValue,
			contextValue: context,
			variableValues:
				(request.variables as Record<string, unknown> | null | undefined) ?? undefined,
			operationName: typeof request.operationName === 'string' ? request.operationName : undefined,
		});
		if (result instanceof Promise) throw new Error('resolvers are synchronous');
		if (!('data' in result) || result.data === undefined) {
			// No data at all: variable coercion or operation resolution failed before execution.
			const code = result.errors?.some((error) => /operation/i.test(error.message))
				? 'OPERATION_RESOLUTION_FAILURE'
				: 'BAD_USER_INPUT';
			return fail(
				400,
				(result.errors ?? []).map((error) => apolloError(error, code)),
			);
		}
		const errors = result.errors?.map((error) => apolloError(error, 'INTERNAL_SERVER_ERROR'));
		return {
			status: 200,
			payload: errors?.length ? { errors, data: result.data } : { data: result.data },
		};
	}
}

function failingKeysOf(faults: FaultControl): OrgContext['failKeys'] {
	const rule = faults.get('org').failKeys;
	if (!rule || !Array.isArray(rule.keys) || rule.keys.length === 0) return undefined;
	return {
		keys: new Set(rule.keys.map(String)),
		message: rule.message ?? 'Internal error while resolving this entity',
	};
}

function apolloError(error: GraphQLError, code: string): ApolloError {
	const out: ApolloError = { message: error.message, extensions: { code } };
	if (error.locations) out.locations = error.locations;
	if (error.path) out.path = error.path;
	if (error.originalError instanceof SparqlUnavailableError)
		out.extensions.code = 'INTERNAL_SERVER_ERROR';
	return out;
}

function sendApollo(res: ServerResponse, status: number, payload: unknown): void {
	sendJson(res, status, payload);
}
