import { validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import type { QueryArgument } from '../../shared/graphql/documents';
import { resolveFieldPaths, rootFieldOf } from './fieldPaths';
import type { RootField } from './fieldPaths';
import { FLATTEN_FIELD_PATHS } from './flatten';
import type { OrgResource, OutputSettings } from './resources';

/** Builds and checks, against the (live) schema, the one document an operation sends. */

function fail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

export function requireRootField(
	ctx: IExecuteFunctions,
	schema: GraphQLSchema,
	resource: OrgResource,
	itemIndex: number,
): RootField {
	const root = rootFieldOf(schema, resource.rootField);
	if (!root) {
		fail(
			ctx,
			itemIndex,
			`The Organization API at this endpoint has no "${resource.rootField}" query`,
		);
	}
	return root;
}

/** The leaf paths to select: a preset (unknown fields skipped) or the custom list (unknown fields are an error). */
export function selectedFieldPaths(
	ctx: IExecuteFunctions,
	root: RootField,
	resource: OrgResource,
	output: OutputSettings,
	itemIndex: number,
): string[] {
	const typeName = root.type.name;
	let paths: string[];
	if (output.output === 'selected') {
		const resolved = resolveFieldPaths(root.type, output.customFields);
		if (resolved.unknown.length > 0) {
			fail(
				ctx,
				itemIndex,
				`"Fields" names ${resolved.unknown.map((path) => JSON.stringify(path)).join(', ')}, unknown on ${typeName} in the live schema`,
				'Pick the fields from the list; it is read from the server, nested fields included.',
			);
		}
		// The record's identifier always comes along, first: its ID, or its IRI where the type has no ID (persons).
		const identifier = resolveFieldPaths(root.type, ['id']).paths.length > 0 ? 'id' : 'iri';
		paths = [...new Set([identifier, ...resolved.paths])];
	} else {
		paths = resolveFieldPaths(root.type, resource.presets[output.output]).paths;
	}
	// Flatten turns the selected address and contact fields into columns; it adds none to what the user selected.
	if (output.flatten && output.output !== 'selected') {
		paths = [...new Set([...paths, ...resolveFieldPaths(root.type, FLATTEN_FIELD_PATHS).paths])];
	}
	if (paths.length === 0) fail(ctx, itemIndex, `No field of ${typeName} could be selected`);
	return paths;
}

/**
 * `query <name>($a: T, ...) { <rootField>(a: $a, ...) { ...fields } }` with the argument types the live schema
 * declares; values only ever travel as variables. The document is validated before it is sent.
 */
export function buildDocument(
	ctx: IExecuteFunctions,
	schema: GraphQLSchema,
	root: RootField,
	resource: OrgResource,
	operationName: string,
	argumentNames: string[],
	fields: string[],
	itemIndex: number,
): DocumentNode {
	const queryArguments: QueryArgument[] = argumentNames.map((argument) => ({
		name: argument,
		type: argumentTypeOf(ctx, root, resource, argument, itemIndex),
	}));
	const document = buildRootFieldQuery({
		operationName,
		rootField: resource.rootField,
		arguments: queryArguments,
		fields,
	});
	assertFitsSchema(ctx, schema, document, resource, itemIndex);
	return document;
}

/** The type the live schema declares for one of the root field's arguments; an argument it lacks is an error. */
export function argumentTypeOf(
	ctx: IExecuteFunctions,
	root: RootField,
	resource: OrgResource,
	argument: string,
	itemIndex: number,
): string {
	const type = root.argumentTypes.get(argument);
	if (!type)
		fail(
			ctx,
			itemIndex,
			`The "${resource.rootField}" query of this server takes no "${argument}" argument`,
		);
	return type;
}

/** Checks a document against the schema before it is sent. */
export function assertFitsSchema(
	ctx: IExecuteFunctions,
	schema: GraphQLSchema,
	document: DocumentNode,
	resource: OrgResource,
	itemIndex: number,
): void {
	const errors = validate(schema, document);
	if (errors.length > 0) {
		fail(
			ctx,
			itemIndex,
			`The query for "${resource.plural}" does not fit the server's schema: ${errors[0].message}`,
			errors.map((error) => error.message).join('\n'),
		);
	}
}
