import type { GraphQLSchema } from 'graphql';
import type { IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../shared/n8n/executePerItem';
import { isIntrospectionRefused } from '../../shared/graphql/errors';
import { loadSchema } from '../../shared/graphql/schemaCache';
import { GraphqlClient } from '../../shared/graphql/client';
import type { RequestContext } from '../../shared/graphql/client';
import { ORGANIZATION_SERVICE } from './resources';
import type { OrgResource, RequestSettings } from './resources';
import { getDocumentedSchema } from './documentedSchema';

/** Retries back off from here (doubling, with jitter); a server's Retry-After wins. */
const RETRY_BASE_DELAY_MS = 500;

/**
 * The client with the item's request settings, and the schema to build its documents from: the live one, or the
 * documented one when the server refuses introspection.
 */
export async function openOrganizationApi(
	ctx: IExecuteFunctions,
	request: RequestSettings,
	itemIndex: number,
): Promise<{ client: GraphqlClient; schema: GraphQLSchema }> {
	const client = await GraphqlClient.create(ctx, ORGANIZATION_SERVICE, {
		method: request.method,
		retry: { maxRetries: request.maxRetries, baseDelayMs: RETRY_BASE_DELAY_MS },
	});
	try {
		return { client, schema: await loadSchema(ctx, client, ORGANIZATION_SERVICE.credentialType) };
	} catch (error) {
		if (isIntrospectionRefused(error)) return { client, schema: getDocumentedSchema() };
		throw asNodeError(ctx, error, itemIndex);
	}
}

/** The editor should answer quickly: one retry, short backoff. */
export async function editorClient(ctx: RequestContext): Promise<GraphqlClient> {
	return await GraphqlClient.create(ctx, ORGANIZATION_SERVICE, {
		retry: { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 },
		timeoutMs: 20_000,
	});
}

/** The editor's schema: any failure falls back to the documented one. */
export async function editorSchema(
	ctx: RequestContext,
	client?: GraphqlClient,
): Promise<GraphQLSchema> {
	try {
		return await loadSchema(
			ctx,
			client ?? (await editorClient(ctx)),
			ORGANIZATION_SERVICE.credentialType,
		);
	} catch {
		return getDocumentedSchema();
	}
}

/**
 * Names the operation in the server's logs: `GetContentPartners` for Get's aliased batches, `GetManyContentPartners`
 * for Get Many (both ask for several entities).
 */
export function operationName(prefix: 'Get' | 'GetMany', resource: OrgResource): string {
	return `${prefix}${resource.title.replace(/ /g, '')}s`;
}
