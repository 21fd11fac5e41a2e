import { getVariableValues, Kind, validate } from 'graphql';
import type { DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import { outputChoiceOf, parameterError } from '../../shared/n8n/params';
import type { ParameterContext } from '../../shared/n8n/params';
import { documentedArgumentTypes, stableOrderBy } from './views';
import type { ResolvedView } from './views';

/** View queries, checked against the view's live names so a wrong name names its parameter before sending. */

/** Which node parameter a variable or the selection set came from, so server-side names map to the user's. */
export interface ParameterNames {
	selection: string;
	/** Variable name -> parameter name. */
	variables: Record<string, string>;
}

interface ViewQuery {
	/** The view, or its `_aggregate`. */
	rootField: string;
	operationName: string;
	arguments: string[];
	fields: string[];
}

/** `query <name>($where: <view>_bool_exp, ...) { <view>(where: $where, ...) { <fields> } }` */
export function buildViewQuery(view: ResolvedView, query: ViewQuery): DocumentNode {
	return buildRootFieldQuery({
		...query,
		arguments: query.arguments.map((name) => ({
			name,
			type: view.argumentTypes[name] ?? documentedType(view.rootField, name),
		})),
	});
}

function documentedType(rootField: string, argument: string): string {
	const type = documentedArgumentTypes(rootField)[argument];
	if (type === undefined) throw new Error(`Unknown argument ${argument}`);
	return type;
}

export function operationOf(
	document: DocumentNode,
	operationName?: string,
): OperationDefinitionNode | undefined {
	const operations = document.definitions.filter(
		(definition): definition is OperationDefinitionNode =>
			definition.kind === Kind.OPERATION_DEFINITION,
	);
	if (operationName) return operations.find((operation) => operation.name?.value === operationName);
	return operations.length === 1 ? operations[0] : undefined;
}

function messagesOf(errors: readonly GraphQLError[]): string {
	return errors.map((error) => error.message).join('; ');
}

/** Why a value is refused, in words a user reads: graphql-js' and the database's reasons, by their start. */
const VALUE_REASONS: Array<[RegExp, string]> = [
	[/^Int cannot represent non-integer value/, 'which is not a whole number'],
	[
		/^Int cannot represent non 32-bit/,
		'which is not a whole number from -2147483648 to 2147483647',
	],
	[/^Float cannot represent non numeric value/, 'which is not a number'],
	[/^String cannot represent/, 'which is not text'],
	[/^Boolean cannot represent/, 'which is not true or false'],
	[
		/invalid input syntax for type timestamp/,
		'which is not an ISO 8601 date and time such as 2025-06-01T08:00:00Z',
	],
	[/invalid input syntax for type uuid/, 'which is not a UUID'],
];

/**
 * `Variable "$where" got invalid value "many" at "where.n_faces._gte"; Int cannot represent …` (graphql-js, Hasura)
 * as `n_faces._gte is "many", which is not a number`; undefined for other messages.
 */
function variableProblem(message: string): string | undefined {
	const match = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]*)")?; (.*)$/s.exec(
		message,
	);
	if (!match) return undefined;
	const [, variable, value, at, reason] = match;
	const place = at?.startsWith(`${variable}.`) ? at.slice(variable.length + 1) : at;
	const field = /^Field "(\w+)" is not defined by type "\w+"/.exec(reason);
	if (field) {
		const where = place ? ` at ${place}` : '';
		return `"${field[1]}"${where} is neither a column of this view nor an operator such as _eq or _gte`;
	}
	const known = VALUE_REASONS.find(([pattern]) => pattern.test(reason));
	const what = known ? known[1] : `which is not valid: ${reason.replace(/\.$/, '')}`;
	return `${place ?? `$${variable}`} is ${value}, ${what}`;
}

/** A value the server refused (types the schema leaves open, such as timestamps) names its parameter too. */
export function withParameterNamed<T>(error: T, names: ParameterNames): T {
	if (!(error instanceof NodeApiError)) return error;
	const start = error.message.indexOf('Variable "$');
	const problem = start < 0 ? undefined : variableProblem(error.message.slice(start));
	if (problem === undefined) return error;
	error.message = `Parameter "${parameterOf(error.message, names)}": ${problem}`;
	return error;
}

function parameterOf(message: string, names: ParameterNames): string {
	const variable = /Variable "\$(\w+)"/.exec(message)?.[1];
	return (variable && names.variables[variable]) ?? names.selection;
}

/** Checks a document and its variables against the live schema before sending, naming the parameter at fault. */
export function assertValidAgainstSchema(
	ctx: Pick<ParameterContext, 'getNode'>,
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
	throw parameterError(
		ctx,
		itemIndex,
		parameterOf(first.message, names),
		variableProblem(first.message) ?? `is not valid for this API: ${messagesOf(coerced.errors)}`,
	);
}

/** LIKE wildcards and its escape character, matched literally once escaped (Postgres' default escape is `\`). */
export function escapeLikePattern(text: string): string {
	return text.replace(/[\\%_]/g, '\\$&');
}

/** Combines conditions as Hasura does: none -> `{}` (no filter), one -> itself, more -> `_and`. */
export function combineConditions(conditions: IDataObject[]): IDataObject {
	const nonEmpty = conditions.filter((condition) => Object.keys(condition).length > 0);
	if (nonEmpty.length === 0) return {};
	if (nonEmpty.length === 1) return nonEmpty[0];
	return { _and: nonEmpty };
}

/** One rule of the Sort parameter, checked for what needs no schema. */
export interface SortRule {
	column: string;
	direction: string;
}

/** The sort as a Hasura `order_by`, checked, with the unique key last so offset paging sees one total order. */
export function orderByFor(
	ctx: Pick<ParameterContext, 'getNode'>,
	itemIndex: number,
	rules: SortRule[],
	view: ResolvedView,
): Array<Record<string, string>> {
	const userOrder = rules.map(({ column, direction }) => {
		if (view.live && !view.columns.includes(column)) {
			throw parameterError(
				ctx,
				itemIndex,
				'Sort',
				`unknown column "${column}" for ${view.rootField}; known: ${view.columns.join(', ')}`,
			);
		}
		return { [column]: direction };
	});
	return stableOrderBy(view, userOrder);
}

/** Output: the simplified columns, every column (Raw), or the user's choice, which must not be empty. */
export type FieldSelection =
	| { mode: 'simplified' | 'raw' }
	| { mode: 'selected'; fields: string[] };

/** Output and its field list as read (the list only when Selected Fields is chosen); the trigger reads them too. */
export function fieldSelectionOf(
	ctx: Pick<ParameterContext, 'getNode'>,
	itemIndex: number,
	output: unknown,
	readFields: () => string[],
): FieldSelection {
	const mode = outputChoiceOf(ctx, itemIndex, output);
	if (mode !== 'selected') return { mode };
	const fields = readFields();
	if (fields.length === 0)
		throw parameterError(
			ctx,
			itemIndex,
			'Field Names or IDs',
			'is empty: choose at least one field, or choose Simplified or Raw in "Output"',
		);
	return { mode: 'selected', fields: [...new Set(fields)] };
}

/** Columns to select: the chosen ones (checked against the live columns) with the record's identifier, or all (or simplified). */
export function fieldsFor(
	ctx: Pick<ParameterContext, 'getNode'>,
	itemIndex: number,
	selection: FieldSelection,
	view: ResolvedView,
): string[] {
	if (selection.mode !== 'selected') {
		const simplified = selection.mode === 'simplified' && view.simplifiedColumns.length > 0;
		return simplified ? view.simplifiedColumns : view.columns;
	}
	if (view.live) {
		const unknown = selection.fields.filter((field) => !view.columns.includes(field));
		if (unknown.length > 0) {
			throw parameterError(
				ctx,
				itemIndex,
				'Field Names or IDs',
				`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((field) => `"${field}"`).join(', ')} for ${view.rootField}; known: ${view.columns.join(', ')}`,
			);
		}
	}
	// The record's identifier always comes along, first: a row without it cannot be told apart or looked up again.
	const identifier = view.idColumn ? [view.idColumn] : view.uniqueKey;
	return [
		...identifier.filter((column) => !selection.fields.includes(column)),
		...selection.fields,
	];
}
