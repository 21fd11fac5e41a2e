/** HTTP server of the AI metadata emulator: token endpoint, Hasura-style GraphQL, presigned files, control. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import {
	type DocumentNode,
	type GraphQLError,
	type GraphQLSchema,
	Kind,
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
import type { AiDataset } from './dataset';
import { HasuraError } from './engine';
import { answerPlainSelect } from './plainSelect';
import { buildAiSchema, type AiContext } from './schema';

export const AI_GRAPHQL_PATH = '/ai-results/v1/graphql';
const PRESIGN_TTL_SECONDS = 3600;
const DOCUMENT_CACHE_LIMIT = 200;

export interface AiServerOptions {
	dataset: AiDataset;
	aggregates: boolean;
	/** False: the role may not introspect (Hasura's per-role switch); `__schema`/`__type` are unknown fields. */
	introspection?: boolean;
	email: string;
	password: string;
	host: string;
	port: number;
	faults: FaultControl;
	counters: Counters;
	tokenTtlSeconds?: number;
	/** Bench mode: successful GraphQL answers are rendered once and served as stored bytes (core/responseCache). */
	responseCache?: ResponseCache;
}

interface HasuraErrorBody {
	message: string;
	extensions: { path: string; code: string };
}

export class AiServer {
	readonly schema: GraphQLSchema;
	readonly tokens: TokenStore;
	private readonly lifecycle: ServerLifecycle;
	private readonly fileSecret = randomBytes(32);
	private readonly documents = new Map<string, DocumentNode | HasuraErrorBody[]>();
	private origin = '';

	constructor(private readonly options: AiServerOptions) {
		this.schema = buildAiSchema(options.dataset, { aggregates: options.aggregates });
		this.tokens = new TokenStore(options.faults, ['ai', 'aiAuth']);
		const server = createServer((req, res) => void this.route(req, res));
		this.lifecycle = new ServerLifecycle(server);
	}

	async start(): Promise<string> {
		const port = await this.lifecycle.listen(this.options.port, this.options.host);
		this.origin = baseUrl(this.options.host, port);
		return this.origin;
	}

	close(): Promise<void> {
		return this.lifecycle.close();
	}

	/** A signed, expiring download URL for an object path (what presignS3 returns). */
	presign(path: string, ttlSeconds = PRESIGN_TTL_SECONDS): string {
		const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
		const encodedPath = path.split('/').map(encodeURIComponent).join('/');
		return `${this.origin}/files/${encodedPath}?expires=${expires}&signature=${this.sign(path, expires)}`;
	}

	private sign(path: string, expires: number): string {
		return createHmac('sha256', this.fileSecret).update(`${path}\n${expires}`).digest('hex');
	}

	private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const { counters } = this.options;
		const url = new URL(req.url ?? '/', 'http://emulator');
		try {
			if (url.pathname.startsWith(CONTROL_PREFIX)) return await this.control(req, res, url);
			countResponses(res, counters, 'ai');
			if (url.pathname === '/auth/token') return await this.token(req, res, url);
			if (url.pathname === AI_GRAPHQL_PATH) return await this.graphql(req, res, url);
			if (url.pathname.startsWith('/files/')) return this.file(req, res, url);
			counters.request('ai', 'other');
			sendJson(res, 404, { error: 'not_found' });
		} catch (error) {
			sendJson(res, 500, { error: 'internal', message: (error as Error).message });
		}
	}

	private control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
		const { faults, counters, dataset } = this.options;
		return handleControl(req, res, url, {
			faults,
			counters,
			extra: {
				touch: (_route, body) => {
					const { view, count, at } = body as { view?: string; count?: number; at?: string };
					if (!view) throw new Error('"view" is required');
					return { touched: dataset.touch(view, count ?? 1, { at }) };
				},
			},
		});
	}

	private token(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
		const { faults, counters, email, password, tokenTtlSeconds } = this.options;
		return handleTokenRequest(req, res, url, {
			service: 'ai',
			method: 'POST',
			user: email,
			password,
			faultTarget: 'aiAuth',
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
				service: 'ai',
				endpoint: 'graphql',
				target: 'ai',
				faults,
				counters,
				delay,
			})
		)
			return;
		const body = await readBody(req);
		// The gateway answers authentication problems itself, before Hasura sees the request.
		const tokenState = this.tokens.check(extractAccessToken(req, url));
		if (tokenState !== 'valid') {
			const message =
				tokenState === 'expired'
					? 'Token expired'
					: tokenState === 'missing'
						? 'Missing authorization'
						: 'Invalid token';
			return sendJson(res, 401, { message }, { 'www-authenticate': 'Bearer' });
		}
		if (req.method !== 'POST')
			return sendJson(res, 405, { message: 'only POST is supported', code: 'method-not-allowed' });
		let request: { query?: unknown; variables?: unknown; operationName?: unknown };
		try {
			request = JSON.parse(body.toString('utf8')) as typeof request;
		} catch {
			return sendJson(res, 400, {
				path: '$',
				error: 'Error in $: invalid JSON body',
				code: 'invalid-json',
			});
		}
		const { responseCache, dataset } = this.options;
		if (!responseCache) return sendJson(res, 200, this.run(request));
		const answer = responseCache.answer(ResponseCache.keyOf(request), dataset.generation, () => {
			const body = this.run(request);
			const failed = typeof body === 'object' && body !== null && 'errors' in body;
			// Answers while rows are withheld show a passing state: not stored, so they do not displace the stored
			// answers of the whole data, which apply again once the rows are released.
			return {
				status: 200,
				body,
				cacheable: !failed && !dataset.unstableTies && !dataset.withholding,
			};
		});
		send(res, answer.status, answer.body, { 'content-type': JSON_CONTENT_TYPE });
	}

	private run(request: { query?: unknown; variables?: unknown; operationName?: unknown }): unknown {
		if (typeof request.query !== 'string')
			return hasuraErrors([
				{
					message: "the key 'query' was not present",
					extensions: { path: '$', code: 'parse-failed' },
				},
			]);
		const document = this.document(request.query);
		if (Array.isArray(document)) return hasuraErrors(document);
		const refused = this.options.introspection === false ? introspectionField(document) : undefined;
		if (refused) {
			// Hasura answers a role without introspection as if the field did not exist.
			return hasuraErrors([
				{
					message: `field '${refused}' not found in type: 'query_root'`,
					extensions: { path: `$.selectionSet.${refused}`, code: 'validation-failed' },
				},
			]);
		}
		const variableValues =
			(request.variables as Record<string, unknown> | null | undefined) ?? undefined;
		const operationName =
			typeof request.operationName === 'string' ? request.operationName : undefined;
		// Pages of plain columns skip graphql-js's per-field execution (same answer, a fraction of the CPU).
		const plain = answerPlainSelect(
			this.schema,
			this.options.dataset,
			document,
			variableValues,
			operationName,
		);
		if (plain) return plain;
		const context: AiContext = {
			dataset: this.options.dataset,
			presign: (path) => this.presign(path),
		};
		const result = execute({
			schema: this.schema,
			document,
			contextValue: context,
			variableValues,
			operationName,
		});
		if (result instanceof Promise) throw new Error('resolvers are synchronous');
		// Hasura answers either data or errors, never both.
		if (result.errors?.length) return hasuraErrors(result.errors.map(toHasuraError));
		return { data: result.data };
	}

	/** Parsed and validated documents are cached: clients repeat the same query text for every page. */
	private document(query: string): DocumentNode | HasuraErrorBody[] {
		const cached = this.documents.get(query);
		if (cached) return cached;
		let outcome: DocumentNode | HasuraErrorBody[];
		try {
			const document = parse(query);
			const errors = validate(this.schema, document);
			outcome = errors.length
				? errors.map((error) => ({
						message: error.message,
						extensions: { path: '$', code: 'validation-failed' },
					}))
				: document;
		} catch (error) {
			outcome = [
				{
					message: (error as Error).message,
					extensions: { path: '$.query', code: 'parse-failed' },
				},
			];
		}
		if (this.documents.size >= DOCUMENT_CACHE_LIMIT)
			this.documents.delete(this.documents.keys().next().value as string);
		this.documents.set(query, outcome);
		return outcome;
	}

	private file(req: IncomingMessage, res: ServerResponse, url: URL): void {
		this.options.counters.request('ai', 'files');
		if (req.method !== 'GET' && req.method !== 'HEAD')
			return s3Error(res, 405, 'MethodNotAllowed', 'Only GET is allowed');
		const path = decodeURIComponent(url.pathname.slice('/files/'.length));
		const expires = Number(url.searchParams.get('expires'));
		const signature = url.searchParams.get('signature') ?? '';
		const expected = Buffer.from(this.sign(path, expires));
		const given = Buffer.from(signature);
		if (
			!Number.isInteger(expires) ||
			given.length !== expected.length ||
			!timingSafeEqual(given, expected)
		) {
			return s3Error(
				res,
				403,
				'SignatureDoesNotMatch',
				'The request signature we calculated does not match the signature you provided.',
			);
		}
		if (Date.now() / 1000 > expires)
			return s3Error(res, 403, 'AccessDenied', 'Request has expired');
		const file = this.options.dataset.fileContent(path);
		if (!file) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
		send(res, 200, req.method === 'HEAD' ? '' : file.content, { 'content-type': file.contentType });
	}
}

/** The first `__schema` or `__type` root field of any operation (fragments are not followed: clients inline them). */
function introspectionField(document: DocumentNode): string | undefined {
	for (const definition of document.definitions) {
		if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
		for (const selection of definition.selectionSet.selections) {
			if (
				selection.kind === Kind.FIELD &&
				(selection.name.value === '__schema' || selection.name.value === '__type')
			)
				return selection.name.value;
		}
	}
	return undefined;
}

function hasuraErrors(errors: HasuraErrorBody[]): { errors: HasuraErrorBody[] } {
	return { errors };
}

function toHasuraError(error: GraphQLError): HasuraErrorBody {
	const original = error.originalError;
	if (original instanceof HasuraError)
		return { message: original.message, extensions: { path: original.path, code: original.code } };
	const path = error.path ? `$.selectionSet.${error.path.join('.')}` : '$';
	// Variable coercion failures and scalar parse errors are validation failures in Hasura.
	return {
		message: error.message,
		extensions: { path, code: original ? 'unexpected' : 'validation-failed' },
	};
}

function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
	const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
	send(res, status, xml, { 'content-type': 'application/xml' });
}
