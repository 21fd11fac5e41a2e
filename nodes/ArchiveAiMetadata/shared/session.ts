import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { connectAiMetadata } from './transport';
import type { AiMetadataConnection } from './transport';
import { requireInteger } from './parameters';
import { resolveView, ViewNotFoundError } from './views';
import type { AiViewKey, ResolvedView } from './views';

export const DEFAULT_PAGE_SIZE = 1000;
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;
export const DEFAULT_MAX_RETRIES = 5;
export const MAX_RETRIES = 10;

/** The options every reading operation shares (the "Options" collection). */
export interface ReadOptions {
	pageSize: number;
	concurrency: number;
	maxRetries: number;
	simplify: boolean;
	keepRawJson: boolean;
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): ReadOptions {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		pageSize: requireInteger(ctx, itemIndex, 'Page Size', options.pageSize ?? DEFAULT_PAGE_SIZE),
		concurrency: requireInteger(ctx, itemIndex, 'Max Concurrent Requests', options.maxConcurrency ?? DEFAULT_CONCURRENCY, {
			max: MAX_CONCURRENCY,
		}),
		maxRetries: requireInteger(ctx, itemIndex, 'Max Retries', options.maxRetries ?? DEFAULT_MAX_RETRIES, {
			min: 0,
			max: MAX_RETRIES,
		}),
		simplify: options.simplify === true,
		keepRawJson: options.keepRawJson === true,
	};
}

/**
 * One node run's access to the API. Connecting (credential, introspection) happens on first use, so checks of
 * the parameters that need no schema run before any request.
 */
export class AiSession {
	private readonly connections = new Map<number, Promise<AiMetadataConnection>>();

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

	/** The view's live names; a view the account cannot see is an operation error for the item. */
	view(connection: AiMetadataConnection, key: AiViewKey, itemIndex: number): ResolvedView {
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
