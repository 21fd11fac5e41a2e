import type { GraphQLSchema } from 'graphql';
import { NodeApiError } from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import { asApiError, isGraphqlRefusal } from '../../shared/graphql/errors';
import { loadSchema } from '../../shared/graphql/schemaCache';
import { GraphqlClient } from '../../shared/graphql/client';
import type { GraphqlService, RequestContext, TransportOptions } from '../../shared/graphql/client';
import { AI_VIEWS } from './views';
import type { AiViewKey, ResolvedView } from './views';

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

/**
 * The live schema (cached per credential and endpoint), or undefined when the role may not introspect: then the
 * documented names are used and the server judges each query. Other failures (HTTP, network) throw.
 */
export async function loadSchemaUnlessRefused(
	ctx: RequestContext,
	client: GraphqlClient,
): Promise<GraphQLSchema | undefined> {
	try {
		return await loadSchema(ctx, client, AI_METADATA_SERVICE.credentialType);
	} catch (error) {
		if (isGraphqlRefusal(error)) return undefined;
		throw asApiError(ctx, error);
	}
}

/** Adds to a server's refusal of a query built from the documented names which names were used, and what to do. */
export function withDocumentedNamesHint<T>(error: T, view: ResolvedView): T {
	if (view.live || !isGraphqlRefusal(error)) return error;
	const apiError = error as unknown as NodeApiError;
	const names = [view.definition.key, ...view.definition.aliases].join(' or ');
	const hint =
		`The API does not allow introspection for this account, so the node used the documented names: view ${names}` +
		` (here "${view.rootField}"), columns ${view.columns.join(', ')}. If the API names a column differently` +
		' (e.g. the NER vendor column), choose "Fields to Return: Selected Fields" with the columns it has;' +
		' for any other name, ask the API provider to allow introspection for your role so the live names are read.';
	apiError.description = apiError.description ? `${apiError.description} ${hint}` : hint;
	return error;
}

/** Without a schema, the root field of a view: the documented name or the first alias the server knows. */
export async function probeRootField(
	ctx: RequestContext,
	client: GraphqlClient,
	key: AiViewKey,
): Promise<string> {
	const definition = AI_VIEWS[key];
	if (definition.aliases.length === 0) return definition.key;
	for (const name of [definition.key, ...definition.aliases]) {
		const document = buildRootFieldQuery({
			operationName: 'ProbeView',
			rootField: name,
			arguments: [{ name: 'limit', type: 'Int' }],
			fields: ['__typename'],
		});
		try {
			await client.request({ document, variables: { limit: 0 } });
			return name;
		} catch (error) {
			if (!isGraphqlRefusal(error)) throw asApiError(ctx, error);
		}
	}
	return definition.key;
}
