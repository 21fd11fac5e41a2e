import type { GraphQLSchema } from 'graphql';
import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../../shared/n8n/executePerItem';

import { loadSchema } from '../../shared/graphql/schemaCache';
import type { GraphqlClient, RequestContext } from '../../shared/graphql/client';
import { ORGANIZATION_SERVICE } from './resources';
import { getSeedSchema } from './seedSchema';

/**
 * A server that answered but refused the introspection query (introspection switched off: HTTP 400/403 or a
 * GraphQL error code). Authentication, network and server failures are not refusals: they are reported as they are.
 */
function isIntrospectionRefused(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const code = error.httpCode ?? '';
	if (code === '400' || code === '403' || code === '405') return true;
	return code !== '' && Number.isNaN(Number(code));
}

/** The live schema for building and validating documents; the seed's schema when introspection is refused. */
export async function schemaForExecution(
	ctx: IExecuteFunctions,
	client: GraphqlClient,
	itemIndex: number,
): Promise<GraphQLSchema> {
	try {
		return await loadSchema(ctx, client, ORGANIZATION_SERVICE.credentialType);
	} catch (error) {
		if (isIntrospectionRefused(error)) return getSeedSchema();
		throw asNodeError(ctx, error, itemIndex);
	}
}

/** The editor's option lists must always show something: any failure falls back to the seed's names. */
export async function schemaForEditor(ctx: RequestContext, client: GraphqlClient): Promise<GraphQLSchema> {
	try {
		return await loadSchema(ctx, client, ORGANIZATION_SERVICE.credentialType);
	} catch {
		return getSeedSchema();
	}
}
