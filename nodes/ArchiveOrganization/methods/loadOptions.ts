import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { enumValuesOfArgument, listFieldPaths, rootFieldOf } from '../api/fieldPaths';
import { isOrgResourceName, RESOURCES } from '../api/resources';
import { editorSchema } from '../api/session';
import { DEFAULT_ORG_TYPES, DEFAULT_SECTORS, getDocumentedSchema } from '../api/documentedSchema';

function toOptions(values: string[]): INodePropertyOptions[] {
	return values.map((value) => ({ name: value.replace(/_/g, ' '), value }));
}

async function enumOptions(
	ctx: ILoadOptionsFunctions,
	argument: string,
	defaults: string[],
): Promise<INodePropertyOptions[]> {
	const schema = await editorSchema(ctx);
	const values =
		enumValuesOfArgument(schema, RESOURCES.organization.rootField, argument) ?? defaults;
	return toOptions(values);
}

/** Field paths of the selected resource's type, nested types included to a fixed depth. */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const resourceName = this.getCurrentNodeParameter('resource');
	const resource = RESOURCES[isOrgResourceName(resourceName) ? resourceName : 'organization'];
	const root =
		rootFieldOf(await editorSchema(this), resource.rootField) ??
		rootFieldOf(getDocumentedSchema(), resource.rootField);
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
