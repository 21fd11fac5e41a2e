import type { GraphQLSchema } from 'graphql';

import { loadSchema } from '../../shared/graphql/schemaCache';
import { GraphqlClient } from '../../shared/graphql/client';
import type { GraphqlService, RequestContext, TransportOptions } from '../../shared/graphql/client';

/** The AI metadata GraphQL API: authenticated by the `archiveAiMetadataApi` credential, endpoint in `graphqlUrl`. */
export const AI_METADATA_SERVICE: GraphqlService = {
	credentialType: 'archiveAiMetadataApi',
	endpointProperty: 'graphqlUrl',
	serviceName: 'AI Metadata API',
};

export interface AiMetadataConnection {
	client: GraphqlClient;
	schema: GraphQLSchema;
}

export async function createAiMetadataClient(
	ctx: RequestContext,
	options: TransportOptions = {},
): Promise<GraphqlClient> {
	return await GraphqlClient.create(ctx, AI_METADATA_SERVICE, options);
}

/** A client plus the live schema of its endpoint (introspected once per credential and endpoint, then cached). */
export async function connectAiMetadata(
	ctx: RequestContext,
	options: TransportOptions = {},
): Promise<AiMetadataConnection> {
	const client = await createAiMetadataClient(ctx, options);
	const schema = await loadSchema(ctx, client, AI_METADATA_SERVICE.credentialType);
	return { client, schema };
}
