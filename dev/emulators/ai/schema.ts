/** The AI metadata API as a real graphql-js schema with Hasura v2 naming (query_root, *_bool_exp, ...). */
import {
	GraphQLBoolean,
	GraphQLEnumType,
	GraphQLError,
	GraphQLFloat,
	GraphQLInputObjectType,
	GraphQLInt,
	GraphQLList,
	GraphQLNonNull,
	GraphQLObjectType,
	GraphQLScalarType,
	GraphQLSchema,
	GraphQLString,
	Kind,
	valueFromASTUntyped,
	type GraphQLFieldConfigMap,
	type GraphQLInputFieldConfigMap,
	type GraphQLInputType,
	type GraphQLOutputType,
	type GraphQLResolveInfo,
} from 'graphql';

import { formatTimestamptz, parseTimestamptz } from '../core/timestamps';
import type { AiDataset, AiRow, AiView } from './dataset';
import { selectRows, type SelectArgs } from './engine';
import {
	toArrayLiteral,
	type ArrayColumnType,
	type ColumnDef,
	type ColumnType,
	type RawFile,
} from './model';

export interface AiContext {
	dataset: AiDataset;
	/** Signed download URL for an object path. */
	presign(path: string): string;
}

const timestamptz = new GraphQLScalarType({
	name: 'timestamptz',
	serialize: (value) => (typeof value === 'number' ? formatTimestamptz(value) : value),
	parseValue: (value) => parseTimestampInput(value),
	parseLiteral: (ast) => parseTimestampInput(ast.kind === Kind.STRING ? ast.value : undefined),
});

function parseTimestampInput(value: unknown): number {
	const parsed = typeof value === 'string' ? parseTimestamptz(value) : undefined;
	if (parsed === undefined)
		throw new GraphQLError(
			`invalid input syntax for type timestamp with time zone: ${JSON.stringify(value)}`,
		);
	return parsed;
}

const UUID_PATTERN = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function parseUuidInput(value: unknown): string {
	if (typeof value !== 'string' || !UUID_PATTERN.test(value)) {
		throw new GraphQLError(`invalid input syntax for type uuid: ${JSON.stringify(value)}`);
	}
	const hex = value.replace(/-/g, '').toLowerCase();
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const uuid = new GraphQLScalarType({
	name: 'uuid',
	serialize: (value) => value,
	parseValue: parseUuidInput,
	parseLiteral: (ast) => parseUuidInput(ast.kind === Kind.STRING ? ast.value : undefined),
});

const jsonb = new GraphQLScalarType({
	name: 'jsonb',
	serialize: (value) => value,
	parseValue: (value) => value,
	parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/**
 * A Postgres array column as Hasura serves it: the array literal text (`{a,b}`). Any other stored value (a test's
 * deliberately wrong one) goes out as it is. Input takes JSON arrays only.
 */
function arrayScalar(name: ArrayColumnType): GraphQLScalarType {
	return new GraphQLScalarType({
		name,
		serialize: (value) => (Array.isArray(value) ? toArrayLiteral(value) : value),
		parseValue: (value) => {
			if (!Array.isArray(value))
				throw new GraphQLError(
					`the emulator takes ${name} input as a JSON array, got ${JSON.stringify(value)}`,
				);
			return value as unknown[];
		},
		parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
	});
}

const SCALARS: Record<ColumnType, GraphQLScalarType> = {
	String: GraphQLString,
	Int: GraphQLInt,
	Float: GraphQLFloat,
	timestamptz,
	uuid,
	jsonb,
	_uuid: arrayScalar('_uuid'),
	_int4: arrayScalar('_int4'),
	_numeric: arrayScalar('_numeric'),
	_text: arrayScalar('_text'),
};

const list = (type: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(type));

function comparisonType(type: ColumnType): GraphQLInputObjectType {
	const scalar = SCALARS[type];
	const fields: GraphQLInputFieldConfigMap = {
		_eq: { type: scalar },
		_gt: { type: scalar },
		_gte: { type: scalar },
		_in: { type: list(scalar) },
		_is_null: { type: GraphQLBoolean },
		_lt: { type: scalar },
		_lte: { type: scalar },
		_neq: { type: scalar },
		_nin: { type: list(scalar) },
	};
	if (type === 'String') {
		for (const operator of [
			'_like',
			'_nlike',
			'_ilike',
			'_nilike',
			'_similar',
			'_nsimilar',
			'_regex',
			'_iregex',
			'_nregex',
			'_niregex',
		]) {
			fields[operator] = { type: GraphQLString };
		}
	}
	if (type === 'jsonb') {
		fields._contains = { type: jsonb };
		fields._contained_in = { type: jsonb };
		fields._has_key = { type: GraphQLString };
		fields._has_keys_all = { type: list(GraphQLString) };
		fields._has_keys_any = { type: list(GraphQLString) };
	}
	return new GraphQLInputObjectType({ name: `${type}_comparison_exp`, fields });
}

const orderBy = new GraphQLEnumType({
	name: 'order_by',
	values: Object.fromEntries(
		['asc', 'asc_nulls_first', 'asc_nulls_last', 'desc', 'desc_nulls_first', 'desc_nulls_last'].map(
			(value) => [value, { value }],
		),
	),
});

const AGGREGATABLE: ReadonlySet<ColumnType> = new Set(['String', 'Int', 'Float', 'timestamptz']);

interface ViewTypes {
	row: GraphQLObjectType;
	args: Record<string, { type: GraphQLInputType }>;
	aggregate: GraphQLObjectType;
}

function viewTypes(view: AiView, comparisons: Map<ColumnType, GraphQLInputObjectType>): ViewTypes {
	const name = view.name;
	const columns = view.def.columns;
	const column = (row: AiRow, def: ColumnDef, context: AiContext) =>
		context.dataset.value(view, row, def);

	const row = new GraphQLObjectType<AiRow, AiContext>({
		name,
		description: `columns and relationships of "${name}"`,
		fields: () =>
			Object.fromEntries(
				columns.map((def) => [
					def.name,
					{
						type: SCALARS[def.type] as GraphQLOutputType,
						resolve: (source: AiRow, _args: unknown, context: AiContext) =>
							column(source, def, context),
					},
				]),
			),
	});

	const boolExp: GraphQLInputObjectType = new GraphQLInputObjectType({
		name: `${name}_bool_exp`,
		description: `Boolean expression to filter rows from the table "${name}". All fields are combined with a logical 'AND'.`,
		fields: () => ({
			_and: { type: list(boolExp) },
			_not: { type: boolExp },
			_or: { type: list(boolExp) },
			...Object.fromEntries(columns.map((def) => [def.name, { type: comparisons.get(def.type)! }])),
		}),
	});
	const orderByType = new GraphQLInputObjectType({
		name: `${name}_order_by`,
		description: `Ordering options when selecting data from "${name}".`,
		fields: Object.fromEntries(columns.map((def) => [def.name, { type: orderBy }])),
	});
	const selectColumn = new GraphQLEnumType({
		name: `${name}_select_column`,
		description: `select columns of table "${name}"`,
		values: Object.fromEntries(
			columns.map((def) => [def.name, { value: def.name, description: 'column name' }]),
		),
	});

	const aggregate = aggregateType(view, row, selectColumn);
	return {
		row,
		aggregate,
		args: {
			distinct_on: { type: list(selectColumn) },
			limit: { type: GraphQLInt },
			offset: { type: GraphQLInt },
			order_by: { type: list(orderByType) },
			where: { type: boolExp },
		},
	};
}

function aggregateType(
	view: AiView,
	row: GraphQLObjectType,
	selectColumn: GraphQLEnumType,
): GraphQLObjectType {
	const name = view.name;
	const comparable = view.def.columns.filter((def) => AGGREGATABLE.has(def.type));
	const extreme = (kind: 'max' | 'min') =>
		new GraphQLObjectType<AiRow[], AiContext>({
			name: `${name}_${kind}_fields`,
			description: `aggregate ${kind} on columns`,
			fields: Object.fromEntries(
				comparable.map((def) => [
					def.name,
					{
						type: SCALARS[def.type] as GraphQLOutputType,
						resolve: (rows: AiRow[], _args: unknown, context: AiContext) =>
							extremeOf(rows, (item) => context.dataset.value(view, item, def), kind),
					},
				]),
			),
		});
	const fields = new GraphQLObjectType<AiRow[], AiContext>({
		name: `${name}_aggregate_fields`,
		description: `aggregate fields of "${name}"`,
		fields: {
			count: {
				type: new GraphQLNonNull(GraphQLInt),
				args: { columns: { type: list(selectColumn) }, distinct: { type: GraphQLBoolean } },
				resolve: (
					rows: AiRow[],
					args: { columns?: string[] | null; distinct?: boolean | null },
					context: AiContext,
				) => countRows(view, rows, args, context.dataset),
			},
			max: { type: extreme('max'), resolve: (rows: AiRow[]) => rows },
			min: { type: extreme('min'), resolve: (rows: AiRow[]) => rows },
		},
	});
	return new GraphQLObjectType<AiRow[], AiContext>({
		name: `${name}_aggregate`,
		description: `aggregated selection of "${name}"`,
		fields: {
			aggregate: { type: fields, resolve: (rows: AiRow[]) => rows },
			nodes: {
				type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(row))),
				resolve: (rows: AiRow[]) => rows,
			},
		},
	});
}

function countRows(
	view: AiView,
	rows: AiRow[],
	args: { columns?: string[] | null; distinct?: boolean | null },
	dataset: AiDataset,
): number {
	const columns = (args.columns ?? []).map((name) => view.columnsByName.get(name)!);
	if (!columns.length) return rows.length;
	const keys = rows
		.map((row) => columns.map((def) => dataset.value(view, row, def)))
		.filter((values) => values.every((value) => value !== null && value !== undefined))
		.map((values) => JSON.stringify(values));
	return args.distinct ? new Set(keys).size : keys.length;
}

function extremeOf(rows: AiRow[], read: (row: AiRow) => unknown, kind: 'max' | 'min'): unknown {
	let best: unknown = null;
	for (const row of rows) {
		const value = read(row);
		if (value === null || value === undefined) continue;
		if (
			best === null ||
			(kind === 'max' ? (value as number) > (best as number) : (value as number) < (best as number))
		)
			best = value;
	}
	return best;
}

/** presignS3 input field -> output field (as the real service names them). */
export function presignedFieldName(column: string, raw: RawFile): string {
	switch (raw) {
		case 'transcript.json':
			return 'presigned_json';
		case 'transcript.srt':
			return 'presigned_srt';
		case 'transcript.txt':
			return 'presigned_txt';
		case 'transcript.vtt':
			return 'presigned_vtt';
		default:
			return `presigned_${column}`;
	}
}

function presignField(dataset: AiDataset): GraphQLFieldConfigMap<unknown, AiContext>[string] {
	const rawColumns = dataset.rawColumns();
	const input = new GraphQLInputObjectType({
		name: 'urls_sets_input',
		fields: Object.fromEntries(rawColumns.map(({ column }) => [column, { type: GraphQLString }])),
	});
	const output = new GraphQLObjectType({
		name: 'presigned_urls',
		fields: Object.fromEntries(
			rawColumns.map(({ column, raw }) => [
				presignedFieldName(column, raw),
				{ type: GraphQLString },
			]),
		),
	});
	return {
		type: new GraphQLList(output),
		args: { urls_sets: { type: new GraphQLNonNull(input) } },
		resolve: (_root, args: { urls_sets: Record<string, string | null | undefined> }, context) => {
			const urls: Record<string, string | null> = {};
			for (const { column, raw } of rawColumns) {
				const path = args.urls_sets[column];
				urls[presignedFieldName(column, raw)] = path ? context.presign(path) : null;
			}
			return [urls];
		},
	};
}

export interface AiSchemaOptions {
	aggregates: boolean;
}

export function buildAiSchema(dataset: AiDataset, options: AiSchemaOptions): GraphQLSchema {
	const comparisons = new Map<ColumnType, GraphQLInputObjectType>(
		(Object.keys(SCALARS) as ColumnType[]).map((type) => [type, comparisonType(type)]),
	);
	const fields: GraphQLFieldConfigMap<unknown, AiContext> = {};
	for (const viewName of dataset.viewNames()) {
		const view = dataset.view(viewName);
		const types = viewTypes(view, comparisons);
		const select = (args: SelectArgs, context: AiContext, info: GraphQLResolveInfo) =>
			selectRows(context.dataset, view, args, `$.selectionSet.${info.fieldName}.args`);
		fields[viewName] = {
			type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(types.row))),
			description: `fetch data from the table: "${viewName}"`,
			args: types.args,
			resolve: (_root, args: SelectArgs, context, info) => select(args, context, info),
		};
		if (options.aggregates) {
			fields[`${viewName}_aggregate`] = {
				type: new GraphQLNonNull(types.aggregate),
				description: `fetch aggregated fields from the table: "${viewName}"`,
				args: types.args,
				resolve: (_root, args: SelectArgs, context, info) => select(args, context, info),
			};
		}
	}
	fields.presignS3 = presignField(dataset);
	return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'query_root', fields }) });
}
