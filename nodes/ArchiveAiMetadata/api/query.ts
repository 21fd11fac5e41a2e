import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	isUuid,
	outputChoiceOf,
	parameterError,
	parseJsonObject,
	readDateTime,
	splitList,
} from '../../shared/n8n/params';
import type { ParameterContext } from '../../shared/n8n/params';
import type { ResolvedView } from './views';

/**
 * Turns the friendly filter, sort and field parameters into Hasura arguments. Column names are checked against
 * the view's live columns here, so a wrong name is reported with its parameter before anything is sent.
 */

type Condition = IDataObject;

interface FriendlyFilter {
	parameter: string;
	displayName: string;
	/** Column the filter applies to, by view. */
	column: (view: ResolvedView) => string;
	toCondition: (ctx: ParameterContext, itemIndex: number, value: unknown) => Condition | undefined;
}

const inList = (value: unknown): Condition | undefined => {
	const values = splitList(value);
	return values.length > 0 ? { _in: values } : undefined;
};

/** LIKE wildcards and its escape character, matched literally once escaped (Postgres' default escape is `\`). */
const LIKE_SPECIALS = /[\\%_]/g;

export function escapeLikePattern(text: string): string {
	return text.replace(LIKE_SPECIALS, '\\$&');
}

/** "Contains this text": the text matched literally anywhere, case-insensitively. */
const containsText = (value: unknown): Condition | undefined => {
	const text = String(value ?? '').trim();
	return text === '' ? undefined : { _ilike: `%${escapeLikePattern(text)}%` };
};

const fixed = (column: string) => () => column;

/** "One of these identifiers" filters on the id columns users hold (comma-separated lists, exact values). */
export const ID_LIST_FILTER_COLUMNS = {
	externalId: { displayName: 'External ID', column: 'external_id' },
	fragmentId: { displayName: 'Fragment ID', column: 'fragment_id' },
	mainLocalId: { displayName: 'Main Local ID', column: 'main_local_id' },
	mediaObjectId: { displayName: 'Media Object ID', column: 'media_object_id' },
	refsetPersonWikiId: {
		displayName: 'Reference-Set Person Wiki ID',
		column: 'refset_person_wiki_id',
	},
	taskIds: { displayName: 'Task IDs', column: 'task_id' },
} as const;

const ID_LIST_FILTERS: FriendlyFilter[] = Object.entries(ID_LIST_FILTER_COLUMNS).map(
	([parameter, { displayName, column }]) => ({
		parameter,
		displayName,
		column: fixed(column),
		toCondition: (_ctx, _i, value) => inList(value),
	}),
);

const FRIENDLY_FILTERS: FriendlyFilter[] = [
	{
		parameter: 'status',
		displayName: 'Status',
		column: fixed('status'),
		toCondition: (_ctx, _i, value) => inList(value),
	},
	{
		parameter: 'contentPartner',
		displayName: 'Content Partner',
		column: fixed('cp'),
		toCondition: (_ctx, _i, value) => inList(value),
	},
	{
		parameter: 'pid',
		displayName: 'PID',
		column: fixed('pid'),
		toCondition: (_ctx, _i, value) => inList(value),
	},
	{
		parameter: 'timeFrom',
		displayName: 'Time From',
		column: (view) => view.timeColumn,
		toCondition: (ctx, itemIndex, value) => {
			const time = readDateTime(ctx, itemIndex, 'Time From', value);
			return time === undefined ? undefined : { _gte: time };
		},
	},
	{
		parameter: 'timeTo',
		displayName: 'Time To',
		column: (view) => view.timeColumn,
		toCondition: (ctx, itemIndex, value) => {
			const time = readDateTime(ctx, itemIndex, 'Time To', value);
			return time === undefined ? undefined : { _lt: time };
		},
	},
	{
		parameter: 'minMatchScore',
		displayName: 'Min Match Score',
		column: fixed('match_score'),
		toCondition: (ctx, itemIndex, value) => {
			if (value === undefined || value === null || value === '') return undefined;
			const score = Number(value);
			if (!Number.isFinite(score))
				throw parameterError(
					ctx,
					itemIndex,
					'Min Match Score',
					`must be a number, got ${JSON.stringify(value)}`,
				);
			return { _gte: score };
		},
	},
	{
		parameter: 'personName',
		displayName: 'Person Name Contains',
		column: fixed('refset_person_name'),
		toCondition: (_ctx, _i, value) => containsText(value),
	},
	{
		parameter: 'clusterUuid',
		displayName: 'Cluster UUID',
		column: fixed('cluster_uuid'),
		toCondition: (_ctx, _i, value) => inList(value),
	},
	{
		parameter: 'refsetPersonId',
		displayName: 'Reference-Set Person ID',
		column: fixed('refset_person_id'),
		toCondition: (_ctx, _i, value) => inList(value),
	},
	...ID_LIST_FILTERS,
	{
		parameter: 'label',
		displayName: 'Label Contains',
		column: fixed('label'),
		toCondition: (_ctx, _i, value) => containsText(value),
	},
	{
		parameter: 'title',
		displayName: 'Title Contains',
		column: fixed('title'),
		toCondition: (_ctx, _i, value) => containsText(value),
	},
];

const ADVANCED_FILTER_PARAMETER = 'where';
export const ADVANCED_FILTER_NAME = 'Advanced Filter (JSON)';

/** Combines conditions as Hasura does: none -> `{}` (no filter), one -> itself, more -> `_and`. */
export function combineConditions(conditions: Condition[]): Condition {
	const nonEmpty = conditions.filter((condition) => Object.keys(condition).length > 0);
	if (nonEmpty.length === 0) return {};
	if (nonEmpty.length === 1) return nonEmpty[0];
	return { _and: nonEmpty };
}

/** `where` from the `filters` collection: friendly filters and the advanced Hasura filter, all combined with AND. */
export function buildWhere(
	ctx: ParameterContext,
	itemIndex: number,
	view: ResolvedView,
	filters: IDataObject,
): Condition {
	const conditions: Condition[] = [];
	for (const filter of FRIENDLY_FILTERS) {
		if (!(filter.parameter in filters)) continue;
		const condition = filter.toCondition(ctx, itemIndex, filters[filter.parameter]);
		if (!condition) continue;
		const column = filter.column(view);
		// Without a live schema (no introspection) the server judges the names.
		if (view.live && !view.columns.includes(column)) {
			throw parameterError(
				ctx,
				itemIndex,
				filter.displayName,
				`cannot be used here: ${view.rootField} has no column "${column}"`,
			);
		}
		assertUuids(ctx, itemIndex, view, filter.displayName, column, condition);
		conditions.push({ [column]: condition });
	}
	conditions.push(
		parseJsonObject(ctx, itemIndex, ADVANCED_FILTER_NAME, filters[ADVANCED_FILTER_PARAMETER]),
	);
	return combineConditions(conditions);
}

/** A list filter on a uuid column (task_id) only takes UUIDs: said before the request, naming the filter. */
function assertUuids(
	ctx: ParameterContext,
	itemIndex: number,
	view: ResolvedView,
	parameter: string,
	column: string,
	condition: Condition,
): void {
	if (view.columnTypes[column] !== 'uuid' || !Array.isArray(condition._in)) return;
	const invalid = (condition._in as string[]).filter((value) => !isUuid(value));
	if (invalid.length > 0)
		throw parameterError(
			ctx,
			itemIndex,
			parameter,
			`must be UUIDs, got ${invalid.map((value) => JSON.stringify(value)).join(', ')}`,
		);
}

/** Local checks of the filters that need no schema (JSON syntax, numbers, dates), run before any request. */
export function precheckFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	filters: IDataObject,
): void {
	for (const filter of FRIENDLY_FILTERS) {
		if (filter.parameter in filters) filter.toCondition(ctx, itemIndex, filters[filter.parameter]);
	}
	parseJsonObject(ctx, itemIndex, ADVANCED_FILTER_NAME, filters[ADVANCED_FILTER_PARAMETER]);
}

export const SORT_DIRECTIONS = [
	'asc',
	'desc',
	'asc_nulls_first',
	'asc_nulls_last',
	'desc_nulls_first',
	'desc_nulls_last',
];

interface SortRule {
	column: string;
	direction: string;
}

/** The `sort` fixed collection, checked for what needs no schema (every rule has a column and a known direction). */
export function parseSort(ctx: IExecuteFunctions, itemIndex: number): SortRule[] {
	const sort = ctx.getNodeParameter('sort', itemIndex, {}) as {
		rules?: Array<{ column?: string; direction?: string }>;
	};
	return (sort.rules ?? []).map((rule) => {
		const column = String(rule.column ?? '').trim();
		const direction = String(rule.direction ?? 'asc');
		if (column === '')
			throw parameterError(ctx, itemIndex, 'Sort', 'every sort rule needs a column');
		if (!SORT_DIRECTIONS.includes(direction)) {
			throw parameterError(
				ctx,
				itemIndex,
				'Sort',
				`unknown direction "${direction}"; use one of ${SORT_DIRECTIONS.join(', ')}`,
			);
		}
		return { column, direction };
	});
}

/** The parsed sort as a Hasura `order_by` list, its columns checked against the live view (the unique tiebreaker is added later). */
export function orderByFor(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rules: SortRule[],
	view: ResolvedView,
): Array<Record<string, string>> {
	return rules.map(({ column, direction }) => {
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
}

/** Output: the simplified columns, every column (Raw), or the user's choice, which must not be empty. */
export type FieldSelection =
	| { mode: 'simplified' | 'raw' }
	| { mode: 'selected'; fields: string[] };

export function parseFieldSelection(ctx: IExecuteFunctions, itemIndex: number): FieldSelection {
	return fieldSelectionOf(
		ctx,
		itemIndex,
		ctx.getNodeParameter('output', itemIndex, 'simplified'),
		() => splitList(ctx.getNodeParameter('fields', itemIndex, [])),
	);
}

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

/** Columns to select from the view: the chosen ones checked against the live columns, or all (or simplified). */
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
	return selection.fields;
}
