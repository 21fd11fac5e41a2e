import type { GraphQLSchema } from 'graphql';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fetchAllByOffset } from '../../shared/graphql/pagination';
import type { GraphqlClient, RequestContext } from '../../shared/graphql/client';
import { DEFAULT_MAX_RETRIES } from '../../shared/n8n/limits';
import { loadSchema } from '../../shared/graphql/schemaCache';
import {
	AI_METADATA_SERVICE,
	createAiMetadataClient,
	loadSchemaUnlessRefused,
	probeRootField,
	withDocumentedNamesHint,
} from './client';
import type { AiMetadataConnection } from './client';
import { assertValidAgainstSchema, buildViewQuery, withParameterNamed } from './documents';
import type { ParameterNames } from './documents';
import { resolveView, documentedView, ViewNotFoundError } from './views';
import type { AiViewKey, ResolvedView } from './views';

/** The one way to a view, for the action node, the trigger and the editor's lists. */

/** A client plus the live schema, or no schema when the API refuses introspection (then the documented names apply). */
interface ViewConnection {
	client: GraphqlClient;
	schema?: GraphQLSchema;
}

export interface ViewSource extends ViewConnection {
	view: ResolvedView;
}

interface ViewLocation {
	itemIndex?: number;
	/** The parameter that chose the view, named in the error when the account cannot see it. */
	parameter?: string;
}

/** Connects; a refused introspection is no error (the documented names apply, and the server judges each query). */
async function connectToViews(ctx: RequestContext, maxRetries: number): Promise<ViewConnection> {
	const client = await createAiMetadataClient(ctx, { retry: { maxRetries } });
	return { client, schema: await loadSchemaUnlessRefused(ctx, client) };
}

/** The view's live names, or without a schema the documented ones under the root field the server knows. */
export async function viewOf(
	ctx: RequestContext,
	connection: ViewConnection,
	key: AiViewKey,
	location: ViewLocation = {},
	// Finds the root field without introspection; the items of a run share one probe.
	probe = async (view: AiViewKey) => await probeRootField(ctx, connection.client, view),
): Promise<ViewSource> {
	if (!connection.schema) return { ...connection, view: documentedView(key, await probe(key)) };
	try {
		return { ...connection, view: resolveView(connection.schema, key) };
	} catch (error) {
		const { itemIndex } = location;
		if (!(error instanceof ViewNotFoundError))
			throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		const prefix = location.parameter ? `Parameter "${location.parameter}": ` : '';
		throw new NodeOperationError(ctx.getNode(), `${prefix}${error.message}`, {
			itemIndex,
			description: 'The account may not have access to this view.',
		});
	}
}

/** Connects and resolves one view: the trigger's polls and the editor's lists, which read one view once. */
export async function openViewSource(
	ctx: RequestContext,
	key: AiViewKey,
	options: { maxRetries: number } & ViewLocation,
): Promise<ViewSource> {
	return await viewOf(ctx, await connectToViews(ctx, options.maxRetries), key, options);
}

/**
 * One node run's access to the API, connected on first use (parameter checks run before any request); items share
 * one connection per Max Retries value and one probe per view.
 */
export class AiSession {
	private readonly connections = new Map<number, Promise<AiMetadataConnection>>();
	private readonly viewConnections = new Map<number, Promise<ViewConnection>>();
	private readonly probedViews = new Map<AiViewKey, Promise<string>>();

	constructor(readonly ctx: IExecuteFunctions) {}

	/** For the operations that need the live schema (Custom Query, Download Files): a refused introspection fails. */
	async connect(maxRetries = DEFAULT_MAX_RETRIES): Promise<AiMetadataConnection> {
		return await memoized(this.connections, maxRetries, async () => {
			const client = await createAiMetadataClient(this.ctx, { retry: { maxRetries } });
			return {
				client,
				schema: await loadSchema(this.ctx, client, AI_METADATA_SERVICE.credentialType),
			};
		});
	}

	/** For the view operations: the view's live names, or the documented ones when introspection is refused. */
	async openView(key: AiViewKey, maxRetries: number, itemIndex: number): Promise<ViewSource> {
		const connection = await memoized(this.viewConnections, maxRetries, () =>
			connectToViews(this.ctx, maxRetries),
		);
		return await viewOf(this.ctx, connection, key, { itemIndex }, (view) =>
			memoized(this.probedViews, view, () => probeRootField(this.ctx, connection.client, view)),
		);
	}
}

/** One promise per key; a failed one is forgotten so the next item tries again. */
async function memoized<K, V>(
	cache: Map<K, Promise<V>>,
	key: K,
	create: () => Promise<V>,
): Promise<V> {
	let promise = cache.get(key);
	if (!promise) {
		promise = create();
		cache.set(key, promise);
		promise.catch(() => cache.delete(key));
	}
	return await promise;
}

export interface ReadRequest {
	where: IDataObject;
	/** A total order: the caller adds the view's unique key (or the trigger's cursor columns) so paging is stable. */
	orderBy: IDataObject[];
	fields: string[];
	pageSize: number;
	concurrency: number;
	/** Limit mode; undefined = every row. */
	maxRows?: number;
	/** Names the query in the server's logs; `ReadRows` unless given. */
	operationName?: string;
	/** One request of `maxRows` rows, for "the newest N" (paging would ask again after a short page). */
	singlePage?: boolean;
}

/**
 * Reads rows with limit/offset pages, checked against the live schema first when there is one. Pages run up to
 * `concurrency` at a time, in offset order; `mapPage` maps each page as it arrives, while later ones are on their way.
 */
export async function readRows<T = IDataObject>(
	ctx: RequestContext,
	source: ViewSource,
	itemIndex: number,
	request: ReadRequest,
	names: ParameterNames,
	mapPage: (rows: IDataObject[]) => T[] = (rows) => rows as T[],
): Promise<T[]> {
	const { view, client } = source;
	const document = buildViewQuery(view, {
		operationName: request.operationName ?? 'ReadRows',
		rootField: view.rootField,
		arguments: ['where', 'order_by', 'limit', 'offset'],
		fields: request.fields,
	});
	const pageSize =
		request.maxRows === undefined ? request.pageSize : Math.min(request.pageSize, request.maxRows);
	const variablesFor = (offset: number, limit: number): IDataObject => ({
		where: request.where,
		order_by: request.orderBy,
		limit,
		offset,
	});
	if (source.schema)
		assertValidAgainstSchema(
			ctx,
			itemIndex,
			source.schema,
			document,
			variablesFor(0, pageSize),
			names,
		);
	const fetchPage = async (offset: number, limit: number, signal?: AbortSignal) => {
		// The signal cancels pages sent ahead that turn out not to be needed (the data ended earlier).
		const data = await client.request<Record<string, IDataObject[] | null>>(
			{ document, variables: variablesFor(offset, limit) },
			itemIndex,
			signal,
		);
		const rows = data[view.rootField];
		return mapPage(Array.isArray(rows) ? rows : []);
	};
	try {
		if (request.singlePage) return await fetchPage(0, pageSize);
		return await fetchAllByOffset(fetchPage, {
			pageSize,
			concurrency: request.concurrency,
			maxRows: request.maxRows,
		});
	} catch (error) {
		throw withDocumentedNamesHint(withParameterNamed(error, names), view);
	}
}
