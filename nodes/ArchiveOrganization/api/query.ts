import { validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { GraphqlClient } from '../../shared/graphql/client';
import { resolveFieldPaths, rootFieldOf } from './fieldPaths';
import type { RootField } from './fieldPaths';
import { FLATTEN_FIELD_PATHS, flattenOrganization } from './flatten';
import type { OrgResource, OutputSettings, Settings } from './resources';
import { openOrganizationApi } from './session';

/** One item's query: the opened API, the resource's root field in its schema, and the fields to select. */
export interface OrgQuery {
	ctx: IExecuteFunctions;
	resource: OrgResource;
	itemIndex: number;
	client: GraphqlClient;
	schema: GraphQLSchema;
	root: RootField;
	fields: string[];
}

type At = Pick<OrgQuery, 'ctx' | 'itemIndex'>;

function fail({ ctx, itemIndex }: At, message: string, description?: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/** The leaf paths to select: a preset (unknown fields skipped) or the custom list (unknown fields are an error). */
function selectedFieldPaths(
	at: At,
	root: RootField,
	resource: OrgResource,
	output: OutputSettings,
) {
	const typeName = root.type.name;
	const resolve = (requested: string[]) => resolveFieldPaths(root.type, requested);
	let paths: string[];
	if (output.output === 'selected') {
		const { paths: selected, unknown } = resolve(output.customFields);
		if (unknown.length > 0) {
			fail(
				at,
				`"Fields" names ${unknown.map((path) => JSON.stringify(path)).join(', ')}, unknown on ${typeName} in the live schema`,
				'Pick the fields from the list; it is read from the server, nested fields included.',
			);
		}
		// The record's identifier always comes along, first: its ID, or its IRI where the type has no ID (persons).
		paths = [resolve(['id']).paths.length > 0 ? 'id' : 'iri', ...selected];
	} else {
		// Flatten turns the selected address and contact fields into columns; it adds none to Selected Fields.
		const flatten = output.flatten ? resolve(FLATTEN_FIELD_PATHS).paths : [];
		paths = [...resolve(resource.presets[output.output]).paths, ...flatten];
	}
	paths = [...new Set(paths)];
	if (paths.length === 0) fail(at, `No field of ${typeName} could be selected`);
	return paths;
}

/** Opens the API with the item's settings and resolves its fields; `check` runs on the schema before that. */
export async function openQuery(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	{ request, output }: Settings,
	itemIndex: number,
	check?: (schema: GraphQLSchema) => void,
): Promise<OrgQuery> {
	const at = { ctx, itemIndex };
	const { client, schema } = await openOrganizationApi(ctx, request, itemIndex);
	const root = rootFieldOf(schema, resource.rootField);
	if (!root) fail(at, `The Organization API at this endpoint has no "${resource.rootField}" query`);
	check?.(schema);
	const fields = selectedFieldPaths(at, root, resource, output);
	return { ctx, resource, itemIndex, client, schema, root, fields };
}

/** The type the schema declares for one of the root field's arguments; an argument it lacks is an error. */
export function argumentTypeOf(query: OrgQuery, argument: string): string {
	const type = query.root.argumentTypes.get(argument);
	if (!type) {
		fail(
			query,
			`The "${query.resource.rootField}" query of this server takes no "${argument}" argument`,
		);
	}
	return type;
}

/** The document, once the schema accepts it: values only ever travel as variables, checked before sending. */
export function checked(query: OrgQuery, document: DocumentNode): DocumentNode {
	const errors = validate(query.schema, document);
	if (errors.length > 0) {
		fail(
			query,
			`The query for "${query.resource.plural}" does not fit the server's schema: ${errors[0].message}`,
			errors.map((error) => error.message).join('\n'),
		);
	}
	return document;
}

export function rowsOf(data: IDataObject, rootField: string): unknown[] {
	const rows = data[rootField];
	return Array.isArray(rows) ? rows : [];
}

/** The API answers `[null]` for an unknown iri: entries that are not objects are no results. */
export function presentRows(rows: unknown[]): IDataObject[] {
	return rows.filter((row): row is IDataObject => typeof row === 'object' && row !== null);
}

export function shapeRows(rows: IDataObject[], output: OutputSettings): IDataObject[] {
	const fillKnown = output.output !== 'selected';
	return output.flatten ? rows.map((row) => flattenOrganization(row, fillKnown)) : rows;
}
