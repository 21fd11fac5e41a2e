import type { GraphQLSchema } from 'graphql';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { GraphqlClient } from '../../shared/graphql/client';
import { loadSchemaUnlessRefused, probeRootField } from './introspection';
import { connectAiMetadata, createAiMetadataClient } from './client';
import type { AiMetadataConnection } from './client';
import {
	DEFAULT_ACTION_CONCURRENCY,
	DEFAULT_MAX_RETRIES,
	MAX_CONCURRENT_REQUESTS,
	MAX_RETRIES,
} from '../../shared/n8n/limits';
import { requireInteger } from '../../shared/n8n/params';
import { resolveView, documentedView, ViewNotFoundError } from './views';
import type { AiViewKey, ResolvedView } from './views';

/** A client plus the live schema, or no schema when the API refuses introspection (then the documented names apply). */
export interface ViewConnection {
	client: GraphqlClient;
	schema?: GraphQLSchema;
}

export const DEFAULT_PAGE_SIZE = 1000;

/** The options every reading operation shares (the "Options" collection). */
export interface ReadOptions {
	pageSize: number;
	concurrency: number;
	maxRetries: number;
	keepRawJson: boolean;
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): ReadOptions {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		pageSize: requireInteger(ctx, itemIndex, 'Page Size', options.pageSize ?? DEFAULT_PAGE_SIZE),
		concurrency: requireInteger(
			ctx,
			itemIndex,
			'Max Concurrent Requests',
			options.maxConcurrency ?? DEFAULT_ACTION_CONCURRENCY,
			{
				max: MAX_CONCURRENT_REQUESTS,
			},
		),
		maxRetries: requireInteger(
			ctx,
			itemIndex,
			'Max Retries',
			options.maxRetries ?? DEFAULT_MAX_RETRIES,
			{
				min: 0,
				max: MAX_RETRIES,
			},
		),
		keepRawJson: options.keepRawJson === true,
	};
}

/**
 * One node run's access to the API. Connecting (credential, introspection) happens on first use, so checks of
 * the parameters that need no schema run before any request.
 */
export class AiSession {
	private readonly connections = new Map<number, Promise<AiMetadataConnection>>();
	private readonly viewConnections = new Map<number, Promise<ViewConnection>>();
	private readonly probedViews = new Map<AiViewKey, Promise<string>>();

	constructor(readonly ctx: IExecuteFunctions) {}

	async connect(maxRetries = DEFAULT_MAX_RETRIES): Promise<AiMetadataConnection> {
		let connection = this.connections.get(maxRetries);
		if (!connection) {
			connection = connectAiMetadata(this.ctx, { retry: { maxRetries } });
			this.connections.set(maxRetries, connection);
			connection.catch(() => this.connections.delete(maxRetries));
		}
		return await connection;
	}

	/**
	 * For the view operations: like `connect`, but a refused introspection is no error; the views then use the
	 * documented names (as the trigger does) and the server judges each query.
	 */
	async connectToViews(maxRetries = DEFAULT_MAX_RETRIES): Promise<ViewConnection> {
		let connection = this.viewConnections.get(maxRetries);
		if (!connection) {
			connection = (async () => {
				const client = await createAiMetadataClient(this.ctx, { retry: { maxRetries } });
				return { client, schema: await loadSchemaUnlessRefused(this.ctx, client) };
			})();
			this.viewConnections.set(maxRetries, connection);
			connection.catch(() => this.viewConnections.delete(maxRetries));
		}
		return await connection;
	}

	/**
	 * Without a schema, the view's name: the documented one, or the first published alias the server knows (one probe
	 * per view and run, only for views with aliases, e.g. image_tasks / face_image_tasks).
	 */
	async documentedNamedView(connection: ViewConnection, key: AiViewKey): Promise<ResolvedView> {
		let probe = this.probedViews.get(key);
		if (!probe) {
			probe = probeRootField(this.ctx, connection.client, key);
			this.probedViews.set(key, probe);
		}
		return documentedView(key, await probe);
	}

	/** The view's live names, or without a schema the documented ones (under the name the server knows). */
	async resolve(
		connection: ViewConnection,
		key: AiViewKey,
		itemIndex: number,
	): Promise<ResolvedView> {
		return connection.schema
			? this.view(connection, key, itemIndex)
			: await this.documentedNamedView(connection, key);
	}

	/** The view's live names (the documented ones without a schema); a view the account cannot see is an item error. */
	view(connection: { schema?: GraphQLSchema }, key: AiViewKey, itemIndex: number): ResolvedView {
		if (!connection.schema) return documentedView(key);
		try {
			return resolveView(connection.schema, key);
		} catch (error) {
			if (error instanceof ViewNotFoundError) {
				throw new NodeOperationError(this.ctx.getNode(), error.message, {
					itemIndex,
					description: 'The account may not have access to this view.',
				});
			}
			throw new NodeOperationError(this.ctx.getNode(), error as Error, { itemIndex });
		}
	}
}
