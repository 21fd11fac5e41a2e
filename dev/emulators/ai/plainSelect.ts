/**
 * The answer to a "plain select" without graphql-js's field-by-field execution: every paging client sends one, a
 * page of one view with only its columns selected. graphql-js spends most of a 1,000-row page on per-field
 * bookkeeping (paths, argument coercion for each of 17,000 fields, promise checks), which made the single-threaded
 * emulator the bottleneck of every Return All benchmark. The answer is the same value graphql-js would build
 * (test/dev/emulators/plainSelect.test.ts compares them byte for byte); any document that is not plain, and any
 * problem at all, returns undefined and the caller executes the document the full way, errors included.
 */
import {
	getArgumentValues,
	getNamedType,
	getVariableValues,
	isObjectType,
	isScalarType,
	Kind,
	OperationTypeNode,
	type DocumentNode,
	type FieldNode,
	type GraphQLField,
	type GraphQLNamedType,
	type GraphQLScalarType,
	type GraphQLSchema,
	type OperationDefinitionNode,
	type SelectionNode,
} from 'graphql';

import type { AiDataset, AiView } from './dataset';
import { selectRows, type SelectArgs } from './engine';
import type { ColumnDef } from './model';

interface PlainColumn {
	key: string;
	column: ColumnDef;
	scalar: GraphQLScalarType;
}

interface PlainRootField {
	key: string;
	node: FieldNode;
	field: GraphQLField<unknown, unknown>;
	view: AiView;
	columns: PlainColumn[];
}

/** The one query operation graphql-js would run, or undefined (fragments, mutations, no match). */
function operationOf(
	document: DocumentNode,
	operationName: string | undefined,
): OperationDefinitionNode | undefined {
	const operations: OperationDefinitionNode[] = [];
	for (const definition of document.definitions) {
		if (definition.kind !== Kind.OPERATION_DEFINITION) return undefined;
		operations.push(definition);
	}
	const chosen =
		operationName === undefined
			? operations.length === 1
				? operations[0]
				: undefined
			: operations.find((each) => each.name?.value === operationName);
	return chosen?.operation === OperationTypeNode.QUERY ? chosen : undefined;
}

/** A field node as a plain select needs it: no directives, and a selection set only when `nested`. */
function isBareField(selection: SelectionNode, nested: boolean): selection is FieldNode {
	return (
		selection.kind === Kind.FIELD &&
		!selection.directives?.length &&
		Boolean(selection.selectionSet) === nested
	);
}

/** Response keys must be unique: graphql-js merges repeated keys, which this path does not attempt. */
function uniqueKeys(keys: string[]): boolean {
	return new Set(keys).size === keys.length;
}

function plainColumns(
	view: AiView,
	selections: readonly SelectionNode[],
	rowType: GraphQLNamedType,
): PlainColumn[] | undefined {
	if (!isObjectType(rowType)) return undefined;
	const fields = rowType.getFields();
	const columns: PlainColumn[] = [];
	for (const selection of selections) {
		if (!isBareField(selection, false) || selection.arguments?.length) return undefined;
		const column = view.columnsByName.get(selection.name.value);
		const scalar = fields[selection.name.value]
			? getNamedType(fields[selection.name.value].type)
			: undefined;
		if (!column || !scalar || !isScalarType(scalar)) return undefined;
		columns.push({ key: selection.alias?.value ?? selection.name.value, column, scalar });
	}
	return uniqueKeys(columns.map((each) => each.key)) ? columns : undefined;
}

function plainRootFields(
	schema: GraphQLSchema,
	dataset: AiDataset,
	operation: OperationDefinitionNode,
): PlainRootField[] | undefined {
	const queryType = schema.getQueryType();
	if (!queryType || operation.directives?.length) return undefined;
	const viewNames = new Set(dataset.viewNames());
	const roots: PlainRootField[] = [];
	for (const selection of operation.selectionSet.selections) {
		if (!isBareField(selection, true) || !viewNames.has(selection.name.value)) return undefined;
		const field = queryType.getFields()[selection.name.value];
		const view = dataset.view(selection.name.value);
		const columns = plainColumns(
			view,
			selection.selectionSet!.selections,
			getNamedType(field.type),
		);
		if (!columns) return undefined;
		roots.push({
			key: selection.alias?.value ?? selection.name.value,
			node: selection,
			field,
			view,
			columns,
		});
	}
	return roots.length && uniqueKeys(roots.map((each) => each.key)) ? roots : undefined;
}

/** `{ data }` for a plain select of a validated document, or undefined when the full execution must answer. */
export function answerPlainSelect(
	schema: GraphQLSchema,
	dataset: AiDataset,
	document: DocumentNode,
	variables: Record<string, unknown> | undefined,
	operationName: string | undefined,
): { data: Record<string, unknown> } | undefined {
	// graphql-js refuses variables that are not an object; the full execution says so.
	if (
		variables !== undefined &&
		(typeof variables !== 'object' || variables === null || Array.isArray(variables))
	)
		return undefined;
	const operation = operationOf(document, operationName);
	const roots = operation && plainRootFields(schema, dataset, operation);
	if (!operation || !roots) return undefined;
	const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
	if (coerced.errors) return undefined;
	try {
		const data: Record<string, unknown> = {};
		for (const root of roots) {
			const args = getArgumentValues(root.field, root.node, coerced.coerced) as SelectArgs;
			const rows = selectRows(
				dataset,
				root.view,
				args,
				`$.selectionSet.${root.node.name.value}.args`,
			);
			const answers: Array<Record<string, unknown>> = [];
			for (const row of rows) {
				const answer: Record<string, unknown> = {};
				for (const { key, column, scalar } of root.columns) {
					const value = dataset.value(root.view, row, column);
					const serialized: unknown =
						value === null || value === undefined ? null : scalar.serialize(value);
					// graphql-js reports a scalar that serializes a value to nothing as an error.
					if (
						serialized === undefined ||
						(serialized === null && value !== null && value !== undefined)
					)
						return undefined;
					answer[key] = serialized;
				}
				answers.push(answer);
			}
			data[root.key] = answers;
		}
		return { data };
	} catch {
		// A Hasura error, a bad argument or a value a scalar refuses: the full execution reports it as graphql-js does.
		return undefined;
	}
}
