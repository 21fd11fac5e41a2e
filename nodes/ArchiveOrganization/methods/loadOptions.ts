import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { labelOf, valueKindOf } from '../../shared/n8n/english';

import { enumValuesOfArgument, listFieldPaths, rootFieldOf } from '../api/fieldPaths';
import { isOrgResourceName, RESOURCES } from '../api/resources';
import { editorSchema } from '../api/session';
import { DEFAULT_ORG_TYPES, DEFAULT_SECTORS, getDocumentedSchema } from '../api/documentedSchema';

/** API enum values as words (`ContentPartner` → "Content Partner"), the value itself as the hint. */
function toOptions(values: string[]): INodePropertyOptions[] {
	return values.map((value) => ({
		name: value.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'),
		value,
		description: value,
	}));
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
	// Top-level fields first (the ones most people pick), then nested ones by path; readable names, API path as hint.
	const depth = (path: string) => path.split('.').length;
	return listFieldPaths(root.type)
		.sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path))
		.map((field) => ({
			name: field.path.split('.').map(labelOf).join(' › '),
			value: field.path,
			description: hintOf(field.path, field.typeName),
		}));
}

/** The API's path of a field and what it holds: `Field "primary_site.address.locality": text`. */
function hintOf(path: string, typeName: string): string {
	const kind = valueKindOf(typeName);
	return `Field "${path}"${kind ? `: ${kind}` : ''}`;
}

export async function getOrgTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await enumOptions(this, 'type', DEFAULT_ORG_TYPES);
}

export async function getSectors(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await enumOptions(this, 'sector', DEFAULT_SECTORS);
}
