import { buildClientSchema, getIntrospectionQuery, parse } from 'graphql';
import type { GraphQLSchema, IntrospectionQuery } from 'graphql';
import { NodeApiError } from 'n8n-workflow';

import { BoundedCache } from '../boundedCache';
import type { GraphqlClient, RequestContext } from './client';

/** Schemas change rarely; ten minutes keeps the editor's option lists fresh without an introspection per run. */
const SCHEMA_TTL_MS = 10 * 60_000;

/** Credential + endpoint pairs whose schemas one process keeps; the least recently used is dropped first. */
export const MAX_CACHED_SCHEMAS = 64;

const schemas = new BoundedCache<Promise<GraphQLSchema>>(MAX_CACHED_SCHEMAS);

const INTROSPECTION = parse(getIntrospectionQuery({ descriptions: true }));

/** Schemas held in this process (for tests of the bound). */
export function cachedSchemaCount(): number {
	return schemas.size;
}

export function clearSchemaCache(): void {
	schemas.clear();
}

/**
 * The live schema of the client's endpoint, introspected once per credential and endpoint and TTL: names are read
 * from it, so differences between service versions need no code change.
 */
export async function loadSchema(
	ctx: RequestContext,
	client: GraphqlClient,
	credentialType: string,
): Promise<GraphQLSchema> {
	const credentialId = ctx.getNode().credentials?.[credentialType]?.id ?? 'unsaved';
	const key = `${credentialType}|${credentialId}|${client.endpoint}`;
	const cached = schemas.get(key);
	if (cached) return await cached;

	const schema = client
		.request<IntrospectionQuery>({ document: INTROSPECTION, operationName: 'IntrospectionQuery' })
		.then(async (answer) => {
			try {
				return buildClientSchema(answer);
			} catch (error) {
				// graphql's error quotes the answer, which may echo the request: it is redacted.
				throw new NodeApiError(
					ctx.getNode(),
					{ message: 'Not a GraphQL schema' },
					{
						message: `${client.service.serviceName}: the endpoint's answer to the schema query is not a GraphQL schema`,
						description: `Check the credential's endpoint URL. The answer: ${await client.redacted((error as Error).message, 300)}`,
					},
				);
			}
		});
	schemas.set(key, schema, Date.now() + SCHEMA_TTL_MS);
	// A failed introspection must not be cached: the next call tries again. Only this attempt's entry goes: by the
	// time it fails, an expiry or eviction may have let a newer attempt take the key.
	schema.catch(() => schemas.deleteIf(key, schema));
	return await schema;
}
