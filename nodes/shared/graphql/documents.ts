import { Kind, OperationTypeNode, assertName, parseType } from 'graphql';
import type {
	ArgumentNode,
	DocumentNode,
	FieldNode,
	SelectionSetNode,
	VariableDefinitionNode,
} from 'graphql';

/**
 * Builders for the GraphQL documents our nodes send. Every name that comes from a user or a schema goes
 * through `assertName`, and values only ever travel as variables, so user input can never change a query's shape.
 */

interface QueryArgument {
	/** Argument name on the root field, e.g. `where`. */
	name: string;
	/** GraphQL type of the variable, e.g. `face_tasks_bool_exp` or `[String!]`. */
	type: string;
}

interface RootFieldQuery {
	operationName: string;
	rootField: string;
	arguments: QueryArgument[];
	/** Dotted paths of the fields to select, e.g. `account_manager.given_name`. */
	fields: string[];
}

function name(value: string) {
	return { kind: Kind.NAME, value: assertName(value) } as const;
}

/** Turns dotted field paths into a nested selection set (`a.b`, `a.c` -> `a { b c }`). */
function selectionFromPaths(paths: string[]): SelectionSetNode {
	if (paths.length === 0) throw new Error('At least one field must be selected');
	type Tree = Map<string, Tree>;
	const tree: Tree = new Map();
	for (const path of paths) {
		let level = tree;
		for (const part of path.split('.')) {
			assertName(part);
			if (!level.has(part)) level.set(part, new Map());
			level = level.get(part) as Tree;
		}
	}
	const toSelectionSet = (level: Tree): SelectionSetNode => ({
		kind: Kind.SELECTION_SET,
		selections: [...level.entries()].map(
			([fieldName, children]): FieldNode => ({
				kind: Kind.FIELD,
				name: name(fieldName),
				selectionSet: children.size > 0 ? toSelectionSet(children) : undefined,
			}),
		),
	});
	return toSelectionSet(tree);
}

/** `argumentName: $variableName` */
function variableArgument(argumentName: string, variableName: string): ArgumentNode {
	return {
		kind: Kind.ARGUMENT,
		name: name(argumentName),
		value: { kind: Kind.VARIABLE, name: name(variableName) },
	};
}

/** `query <operationName>(<variables>) { <fields> }`: the one operation of every document the nodes send. */
function queryDocument(
	operationName: string,
	variables: QueryArgument[],
	fields: FieldNode[],
): DocumentNode {
	return {
		kind: Kind.DOCUMENT,
		definitions: [
			{
				kind: Kind.OPERATION_DEFINITION,
				operation: OperationTypeNode.QUERY,
				name: name(operationName),
				variableDefinitions: variables.map(
					(variable): VariableDefinitionNode => ({
						kind: Kind.VARIABLE_DEFINITION,
						variable: { kind: Kind.VARIABLE, name: name(variable.name) },
						type: parseType(variable.type),
					}),
				),
				selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
			},
		],
	};
}

/** `query <operationName>($a: T, ...) { <rootField>(a: $a, ...) { <selection> } }` */
export function buildRootFieldQuery(query: RootFieldQuery): DocumentNode {
	return queryDocument(query.operationName, query.arguments, [
		{
			kind: Kind.FIELD,
			name: name(query.rootField),
			arguments: query.arguments.map((argument) => variableArgument(argument.name, argument.name)),
			selectionSet: selectionFromPaths(query.fields),
		},
	]);
}

/** One aliased call of a root field: `<alias>: rootField(<argument>: $<alias>, ...)`. */
export interface AliasedLookup {
	alias: string;
	/** The root field's argument the key goes to, e.g. `id` or `iri`; its value travels as the variable `$<alias>`. */
	argument: QueryArgument;
}

interface AliasedLookupQuery {
	operationName: string;
	rootField: string;
	lookups: AliasedLookup[];
	/** Integer arguments every call carries as literals (our own constants, never user input), e.g. `offset: 0`. */
	constantArguments: Record<string, number>;
	fields: string[];
}

/**
 * `query <operationName>($k0: T, $k1: T, ...) { k0: <rootField>(id: $k0, offset: 0) { <selection> } k1: ... }`:
 * several keys in one request for an API that takes one key per root-field call. Each alias gets its own variable.
 */
export function buildAliasedLookupQuery(query: AliasedLookupQuery): DocumentNode {
	const selectionSet = selectionFromPaths(query.fields);
	const constants = Object.entries(query.constantArguments).map(
		([argumentName, value]): ArgumentNode => {
			if (!Number.isSafeInteger(value)) throw new Error(`${argumentName} must be an integer`);
			return {
				kind: Kind.ARGUMENT,
				name: name(argumentName),
				value: { kind: Kind.INT, value: String(value) },
			};
		},
	);
	return queryDocument(
		query.operationName,
		query.lookups.map((lookup) => ({ name: lookup.alias, type: lookup.argument.type })),
		query.lookups.map(
			(lookup): FieldNode => ({
				kind: Kind.FIELD,
				alias: name(lookup.alias),
				name: name(query.rootField),
				arguments: [variableArgument(lookup.argument.name, lookup.alias), ...constants],
				selectionSet,
			}),
		),
	);
}
