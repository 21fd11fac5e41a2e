import { getVariableValues, validate } from 'graphql';
import type { DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import type { QueryArgument } from '../../shared/graphql/documents';
import { parameterError } from '../../shared/n8n/params';
import type { ResolvedView } from './views';

/** Which node parameter a variable or the selection set came from, so server-side names map to the user's. */
export interface ParameterNames {
	/** Parameter behind the selected fields. */
	selection: string;
	/** Variable name -> parameter name. */
	variables: Record<string, string>;
}

interface ViewQuery {
	/** Name of the root field: the view, or its `_aggregate`. */
	rootField: string;
	operationName: string;
	/** Arguments sent as variables (types are read from the view's live arguments). */
	arguments: string[];
	fields: string[];
}

/** `query <name>($where: <view>_bool_exp, ...) { <view>(where: $where, ...) { <fields> } }` from the view's live types. */
export function buildViewQuery(view: ResolvedView, query: ViewQuery): DocumentNode {
	const argumentsWithTypes: QueryArgument[] = query.arguments.map((argument) => ({
		name: argument,
		type: view.argumentTypes[argument] ?? fallbackArgumentType(view, argument),
	}));
	return buildRootFieldQuery({
		operationName: query.operationName,
		rootField: query.rootField,
		arguments: argumentsWithTypes,
		fields: query.fields,
	});
}

function fallbackArgumentType(view: ResolvedView, argument: string): string {
	if (argument === 'limit' || argument === 'offset') return 'Int';
	if (argument === 'where') return `${view.rootField}_bool_exp`;
	if (argument === 'order_by') return `[${view.rootField}_order_by!]`;
	throw new Error(`Unknown argument ${argument}`);
}

function operationOf(
	document: DocumentNode,
	operationName?: string,
): OperationDefinitionNode | undefined {
	const operations = document.definitions.filter(
		(definition): definition is OperationDefinitionNode =>
			definition.kind === 'OperationDefinition',
	);
	if (operationName) return operations.find((operation) => operation.name?.value === operationName);
	return operations.length === 1 ? operations[0] : undefined;
}

function messagesOf(errors: readonly GraphQLError[]): string {
	return errors.map((error) => error.message).join('; ');
}

/**
 * Checks a document and its variables against the live schema before sending, and names the parameter at fault:
 * a variable's error names the parameter behind that variable, anything else names the selection's parameter.
 */
export function assertValidAgainstSchema(
	ctx: IExecuteFunctions,
	itemIndex: number,
	schema: GraphQLSchema,
	document: DocumentNode,
	variables: IDataObject,
	names: ParameterNames,
	operationName?: string,
): void {
	const documentErrors = validate(schema, document);
	if (documentErrors.length > 0) {
		throw parameterError(
			ctx,
			itemIndex,
			names.selection,
			`is not valid for this API: ${messagesOf(documentErrors)}`,
		);
	}
	const operation = operationOf(document, operationName);
	if (!operation) return;
	const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, {
		maxErrors: 10,
	});
	if (!('errors' in coerced) || !coerced.errors?.length) return;
	const first = coerced.errors[0];
	const variable = /Variable "\$(\w+)"/.exec(first.message)?.[1];
	const parameter = (variable && names.variables[variable]) ?? names.selection;
	throw parameterError(
		ctx,
		itemIndex,
		parameter,
		`is not valid for this API: ${messagesOf(coerced.errors)}`,
	);
}
