import type { GraphQLSchema } from 'graphql';
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { labelOf, valueKindOf } from '../../shared/n8n/english';
import { enumValuesOfArgument, listFieldPaths, rootFieldOf } from '../api/fieldPaths';
import { currentResource, RESOURCES } from '../api/resources';
import { editorSchema } from '../api/session';
import { getDocumentedSchema } from '../api/documentedSchema';

/** What the live schema says, or the documented schema where the live one cannot say it. */
async function fromSchema<T>(
	ctx: ILoadOptionsFunctions,
	read: (schema: GraphQLSchema) => T | undefined,
): Promise<T | undefined> {
	return read(await editorSchema(ctx)) ?? read(getDocumentedSchema());
}

/** API enum values as words (`ContentPartner` → "Content Partner"), the value itself as the hint. */
async function enumOptions(
	ctx: ILoadOptionsFunctions,
	argument: string,
): Promise<INodePropertyOptions[]> {
	const values = await fromSchema(ctx, (schema) =>
		enumValuesOfArgument(schema, RESOURCES.organization.rootField, argument),
	);
	return (values ?? []).map((value) => ({
		name: value.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'),
		value,
		description: value,
	}));
}

/** Field paths of the selected resource's type, nested types included to a fixed depth. */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { rootField } = currentResource(this);
	const root = await fromSchema(this, (schema) => rootFieldOf(schema, rootField));
	if (!root) return [];
	return listFieldPaths(root.type).map(({ path, typeName }) => {
		const kind = valueKindOf(typeName);
		return {
			name: path.split('.').map(labelOf).join(' › '),
			value: path,
			description: `Field "${path}"${kind ? `: ${kind}` : ''}`,
		};
	});
}

export async function getOrgTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await enumOptions(this, 'type');
}

export async function getSectors(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await enumOptions(this, 'sector');
}
