import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { chunk, mapWithConcurrency } from '../../shared/concurrency';
import {
	maxConcurrencyOption,
	maxRetriesOption,
	optionsCollection,
	outputParameter,
	showFor,
} from '../../shared/n8n/descriptions';
import { labelOf, nounOf } from '../../shared/n8n/english';
import type { GroupResults } from '../../shared/n8n/executeGrouped';
import { markFound, NotFoundOutputs, readWhenNotFound } from '../../shared/n8n/notFound';
import type { WhenNotFound } from '../../shared/n8n/notFound';
import {
	readMaxConcurrency,
	readMaxRetries,
	requireInteger,
	splitList,
} from '../../shared/n8n/params';
import { combineConditions, fieldSelectionOf } from '../api/documents';
import type { FieldSelection } from '../api/documents';
import { readRows } from '../api/viewSource';
import type { ViewSource } from '../api/viewSource';
import { AI_VIEW_KEYS, AI_VIEWS, shapeRecord, stableOrderBy } from '../api/views';
import type { AiViewDefinition, ResolvedView } from '../api/views';

export function resourcesWhere(predicate: (view: AiViewDefinition) => boolean): string[] {
	return AI_VIEW_KEYS.map((key) => AI_VIEWS[key])
		.filter(predicate)
		.map((view) => view.resource);
}

const DEFAULT_PAGE_SIZE = 1000;

export const ALL_VIEW_RESOURCES = resourcesWhere(() => true);
export const RESOURCES_WITH_PID = resourcesWhere((view) => view.pidLookup);
export const RESOURCES_WITH_FILES = resourcesWhere((view) => view.files.length > 0);

export { optionsCollection, showFor };

/** A view's Output parameter: its Simplified description names exactly the columns Simplified returns. */
export function viewOutputParameter(
	view: AiViewDefinition,
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties {
	const columns = view.simplifiedColumns.map(labelOf);
	return outputParameter(displayOptions, {
		record: 'row',
		simplified: `${columns.slice(0, -1).join(', ')} and ${columns.at(-1)}`,
		raw: 'Every column of the view, raw JSON outputs parsed unless Keep Raw JSON Text is on',
	});
}

/** Output (Simplified / Raw / Selected Fields) and, for Selected Fields, the columns listed from the live schema. */
export function outputProperties(resources: string[], operations: string[]): INodeProperties[] {
	return [
		...AI_VIEW_KEYS.map((key) => AI_VIEWS[key])
			.filter((view) => resources.includes(view.resource))
			.map((view) => viewOutputParameter(view, showFor([view.resource], operations))),
		{
			displayName: 'Field Names or IDs',
			name: 'fields',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['resource'] },
			default: [],
			description:
				'Columns to return, read from the live API schema. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			displayOptions: {
				show: { resource: resources, operation: operations, output: ['selected'] },
			},
		},
	];
}

const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_PAGE_SIZE,
	description:
		'Rows requested per call (limit/offset paging). Lower it if the API times out on large pages.',
};

const concurrencyOption = maxConcurrencyOption(
	'How many page requests may be in flight at once. More than the default helps only over long distances, and asks more of the API.',
);

export const retriesOption = maxRetriesOption('action');

export const keepRawJsonOption: INodeProperties = {
	displayName: 'Keep Raw JSON Text',
	name: 'keepRawJson',
	type: 'boolean',
	default: false,
	description:
		'Whether to return raw output columns (processed_json, transcript_json, statistics, ...) as the JSON text the API sends, to pass them on unchanged, instead of parsed objects',
};

/** The options `readOptions` reads for an operation that pages through rows, in the order they are listed. */
export const pagedReadOptions: INodeProperties[] = [
	keepRawJsonOption,
	concurrencyOption,
	retriesOption,
	pageSizeOption,
];

/** The Options collection of the view operations; an option the operation does not offer reads as its default. */
export interface ReadOptions {
	pageSize: number;
	concurrency: number;
	maxRetries: number;
	keepRawJson: boolean;
	whenNotFound: WhenNotFound;
}

export function readOptions(ctx: IExecuteFunctions, itemIndex: number): ReadOptions {
	const options = ctx.getNodeParameter('options', itemIndex, {});
	return {
		pageSize: requireInteger(ctx, itemIndex, 'Page Size', options.pageSize ?? DEFAULT_PAGE_SIZE),
		concurrency: readMaxConcurrency(ctx, itemIndex, options.maxConcurrency),
		maxRetries: readMaxRetries(ctx, itemIndex, options.maxRetries),
		keepRawJson: options.keepRawJson === true,
		whenNotFound: readWhenNotFound(options),
	};
}

export function readFieldSelection(ctx: IExecuteFunctions, itemIndex: number): FieldSelection {
	return fieldSelectionOf(
		ctx,
		itemIndex,
		ctx.getNodeParameter('output', itemIndex, 'simplified'),
		() => splitList(ctx.getNodeParameter('fields', itemIndex, [])),
	);
}

export interface WhereIn {
	column: string;
	values: string[];
	batchSize: number;
	/** Batches in flight; the pages of a batch run one after the other. */
	concurrency: number;
	/** Rows per page; without it a batch is one request for at most one row per value (an id column's). */
	pageSize?: number;
	/** The order of the rows; the view's unique key is added. */
	orderBy?: Array<Record<string, string>>;
	/** The columns to read; `column` is added to file the rows by. */
	fields: string[];
	/** ANDed with each batch's condition. */
	filter?: IDataObject;
	/** The parameter a rejected `where` is reported as. */
	whereParameter: string;
}

/** Rows whose `column` is one of `values`: one `_in` query per batch of values. */
export async function readRowsWhereIn(
	ctx: IExecuteFunctions,
	source: ViewSource,
	itemIndex: number,
	query: WhereIn,
): Promise<IDataObject[]> {
	const batches = await mapWithConcurrency(
		chunk(query.values, query.batchSize),
		query.concurrency,
		async (batch) =>
			await readRows(
				ctx,
				source,
				itemIndex,
				{
					where: combineConditions([{ [query.column]: { _in: batch } }, query.filter ?? {}]),
					orderBy: stableOrderBy(source.view, query.orderBy),
					fields: query.fields.includes(query.column)
						? query.fields
						: [...query.fields, query.column],
					// A batch usually fits in one page, and a page sent ahead would mostly come back empty.
					concurrency: 1,
					// One request when every value has its row; a server that caps rows is still paged through.
					pageSize: query.pageSize ?? batch.length,
					maxRows: query.pageSize === undefined ? batch.length : undefined,
				},
				{ selection: 'Field Names or IDs', variables: { where: query.whereParameter } },
			),
	);
	return batches.flat();
}

/**
 * Files each row under the keys its `keyColumn` stands for; the key column is dropped from the row unless the
 * user selected it. With `keyField`, each filed copy also carries the key it was filed under.
 */
export function fileRows(
	rows: IDataObject[],
	keyColumn: string,
	fields: string[],
	keysOf: (value: string) => Iterable<string>,
	keyField?: string,
): Map<string, IDataObject[]> {
	const filed = new Map<string, IDataObject[]>();
	for (const found of rows) {
		const row = { ...found };
		if (!fields.includes(keyColumn)) delete row[keyColumn];
		const value = found[keyColumn] as string;
		for (const key of keysOf(String(value))) {
			const list = filed.get(key) ?? [];
			list.push(keyField ? { ...row, [keyField]: key } : row);
			filed.set(key, list);
		}
	}
	return filed;
}

interface LookedUp {
	itemIndex: number;
	options: ReadOptions;
	value: string;
	rows: IDataObject[];
}

/** Each item's rows, shaped, or what its When Not Found asks for when there are none. */
export function lookupResults(
	ctx: IExecuteFunctions,
	view: ResolvedView,
	key: string,
	items: LookedUp[],
	results: GroupResults = new Map(),
): GroupResults {
	const notFound = new NotFoundOutputs(ctx);
	for (const { itemIndex, options, value, rows } of items) {
		const { whenNotFound } = options;
		const lookup = { noun: nounOf(view.definition.displayName), key, value };
		results.set(
			itemIndex,
			rows.length > 0
				? rows.map((row) => markFound(shapeRecord(view, row, options), whenNotFound))
				: notFound.of(whenNotFound, lookup, itemIndex),
		);
	}
	notFound.hint();
	return results;
}
