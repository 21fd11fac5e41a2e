import type { GraphQLSchema } from 'graphql';
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { GraphqlClient } from '../../shared/graphql/client';
import { enumValuesOfArgument, listFieldPaths, rootFieldOf } from '../helpers/fieldPaths';
import { isOrgResourceName, ORGANIZATION_SERVICE, RESOURCES } from '../helpers/resources';
import { schemaForEditor } from '../helpers/schema';
import { DEFAULT_ORG_TYPES, DEFAULT_SECTORS, getSeedSchema } from '../helpers/seedSchema';

/** The editor should answer quickly: one retry, short backoff; failures fall back to the seed's names. */
async function editorSchema(ctx: ILoadOptionsFunctions): Promise<GraphQLSchema> {
	try {
		const client = await GraphqlClient.create(ctx, ORGANIZATION_SERVICE, {
			retry: { maxRetries: 1, baseDelayMs: 200, maxDelayMs: 2_000 },
			timeoutMs: 20_000,
		});
		return await schemaForEditor(ctx, client);
	} catch {
		return getSeedSchema();
	}
}

function toOptions(values: string[]): INodePropertyOptions[] {
	return values.map((value) => ({ name: value.replace(/_/g, ' '), value }));
}

async function enumOptions(
	ctx: ILoadOptionsFunctions,
	argument: string,
	defaults: string[],
): Promise<INodePropertyOptions[]> {
	const schema = await editorSchema(ctx);
	const values = enumValuesOfArgument(schema, RESOURCES.organization.rootField, argument) ?? defaults;
	return toOptions(values);
}

/** Field paths of the selected resource's type, nested types included to a fixed depth. */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const resourceName = this.getCurrentNodeParameter('resource');
	const resource = RESOURCES[isOrgResourceName(resourceName) ? resourceName : 'organization'];
	const root = rootFieldOf(await editorSchema(this), resource.rootField) ??
		rootFieldOf(getSeedSchema(), resource.rootField);
	if (!root) return [];
	return listFieldPaths(root.type).map((field) => ({
		name: field.path,
		value: field.path,
		description: field.typeName,
	}));
}

export async function getOrgTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await enumOptions(this, 'type', DEFAULT_ORG_TYPES);
}

export async function getSectors(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await enumOptions(this, 'sector', DEFAULT_SECTORS);
}
