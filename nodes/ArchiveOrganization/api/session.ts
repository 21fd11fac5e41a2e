import type { GraphQLSchema } from 'graphql';
import type { IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../shared/n8n/executePerItem';
import { isIntrospectionRefused } from '../../shared/graphql/errors';
import { loadSchema } from '../../shared/graphql/schemaCache';
import { GraphqlClient } from '../../shared/graphql/client';
import type { RequestContext } from '../../shared/graphql/client';
import { ORGANIZATION_SERVICE } from './resources';
import type { OrgResource } from './resources';
import { getDocumentedSchema } from './documentedSchema';

/** The live schema for building and validating documents; the documented schema when introspection is refused. */
async function schemaForExecution(
	ctx: IExecuteFunctions,
	client: GraphqlClient,
	itemIndex: number,
): Promise<GraphQLSchema> {
	try {
		return await loadSchema(ctx, client, ORGANIZATION_SERVICE.credentialType);
	} catch (error) {
		if (isIntrospectionRefused(error)) return getDocumentedSchema();
		throw asNodeError(ctx, error, itemIndex);
	}
}

/** Retries back off from here (doubling, with jitter); a server's Retry-After wins. */
const RETRY_BASE_DELAY_MS = 500;

interface OrganizationApi {
	client: GraphqlClient;
	schema: GraphQLSchema;
}

/** The client with the user's request settings, and the schema to build its documents from. */
export async function openOrganizationApi(
	ctx: IExecuteFunctions,
	request: { method: 'POST' | 'GET'; maxRetries: number },
	itemIndex: number,
): Promise<OrganizationApi> {
	const client = await GraphqlClient.create(ctx, ORGANIZATION_SERVICE, {
		method: request.method,
		retry: { maxRetries: request.maxRetries, baseDelayMs: RETRY_BASE_DELAY_MS },
	});
	return { client, schema: await schemaForExecution(ctx, client, itemIndex) };
}

/** The editor should answer quickly: one retry, short backoff; any failure falls back to the documented names. */
export async function editorSchema(ctx: RequestContext): Promise<GraphQLSchema> {
	try {
		const client = await GraphqlClient.create(ctx, ORGANIZATION_SERVICE, {
			retry: { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 },
			timeoutMs: 20_000,
		});
		return await loadSchema(ctx, client, ORGANIZATION_SERVICE.credentialType);
	} catch {
		return getDocumentedSchema();
	}
}

/**
 * Names the operation in the server's logs: `GetPartners` for Get's aliased batches, `GetManyPartners` for Get Many
 * (both ask for several entities).
 */
export function operationName(prefix: 'Get' | 'GetMany', resource: OrgResource): string {
	const base = resource.name.charAt(0).toUpperCase() + resource.name.slice(1);
	return `${prefix}${base}s`;
}
