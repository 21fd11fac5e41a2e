import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	isUuid,
	parameterError,
	parseJsonObject,
	readDateTime,
	splitList,
	textOf,
} from '../../shared/n8n/params';
import type { ParameterContext } from '../../shared/n8n/params';
import { textParameter } from '../../shared/n8n/descriptions';
import { combineConditions, escapeLikePattern } from '../api/documents';
import { AI_VIEW_KEYS, AI_VIEWS } from '../api/views';
import type { AiViewDefinition, ResolvedView } from '../api/views';
import { showFor } from './common';

type Condition = IDataObject;

interface Filter {
	/** The field in the Filters collection; its `name` is the key the collection's value holds. */
	property: INodeProperties;
	/** The documented column the filter applies to; a view offers the filters on its documented columns. */
	column: string;
	/** Time filters follow the live view's time column. */
	time?: true;
	/** The condition on that column, or undefined when the value asks for nothing (empty text, empty list). */
	toCondition: (ctx: ParameterContext, itemIndex: number, value: unknown) => Condition | undefined;
}

const inList = (value: unknown): Condition | undefined => {
	const values = splitList(value);
	return values.length > 0 ? { _in: values } : undefined;
};

function inListFilter(
	name: string,
	displayName: string,
	column: string,
	description = `Only rows whose ${column} is one of these values (exact, comma-separated)`,
): Filter {
	return {
		property: textParameter(name, displayName, description),
		column,
		toCondition: (_ctx, _itemIndex, value) => inList(value),
	};
}

function textContains(name: string, displayName: string, column: string, rows: string): Filter {
	return {
		property: textParameter(
			name,
			displayName,
			`Only ${rows} whose ${column} contains this text (case-insensitive)`,
		),
		column,
		toCondition: (_ctx, _itemIndex, value) => {
			const text = textOf(value ?? '').trim();
			return text === '' ? undefined : { _ilike: `%${escapeLikePattern(text)}%` };
		},
	};
}

/** Time From and Time To of a view whose time column is `column` (the label names it). */
function timeBounds(column: string): Filter[] {
	return (['timeFrom', 'timeTo'] as const).map((name) => {
		const from = name === 'timeFrom';
		const displayName = from ? 'Time From' : 'Time To';
		return {
			property: {
				displayName,
				name,
				type: 'dateTime',
				default: '',
				description: `Only rows whose ${column} is ${from ? 'at or after' : 'before'} this moment (without a zone: in the workflow's timezone)`,
			},
			column,
			time: true,
			toCondition: (ctx, itemIndex, value) => {
				const time = readDateTime(ctx, itemIndex, displayName, value);
				if (time === undefined) return undefined;
				return from ? { _gte: time } : { _lt: time };
			},
		};
	});
}

/** Every friendly filter, in the order their conditions are combined. */
const FILTERS: Filter[] = [
	{
		property: {
			displayName: 'Status Names or IDs',
			name: 'status',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getFilterStatuses', loadOptionsDependsOn: ['resource'] },
			default: [],
			description:
				'Only rows with one of these statuses. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		column: 'status',
		toCondition: (_ctx, _itemIndex, value) => inList(value),
	},
	{
		property: {
			displayName: 'Content Partner Names or IDs',
			name: 'contentPartner',
			type: 'multiOptions',
			typeOptions: {
				loadOptionsMethod: 'getFilterContentPartners',
				loadOptionsDependsOn: ['resource'],
			},
			default: [],
			description:
				'Only rows of these content partners (cp, e.g. OR-abc1234). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		column: 'cp',
		toCondition: (_ctx, _itemIndex, value) => inList(value),
	},
	inListFilter('pid', 'PID', 'pid', 'Only rows of these PIDs (comma-separated)'),
	...timeBounds('processed_time'),
	...timeBounds('matched_time'),
	...timeBounds('modified_at'),
	{
		property: {
			displayName: 'Min Match Score',
			name: 'minMatchScore',
			type: 'number',
			typeOptions: { numberPrecision: 4 },
			default: 0,
			description: 'Only matches with at least this match_score',
		},
		column: 'match_score',
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
	textContains('personName', 'Person Name Contains', 'refset_person_name', 'matches'),
	inListFilter(
		'clusterUuid',
		'Cluster UUID',
		'cluster_uuid',
		'Only matches of these clusters (comma-separated)',
	),
	inListFilter(
		'refsetPersonId',
		'Reference-Set Person ID',
		'refset_person_id',
		'Only matches of these reference-set persons (refset_person_id, comma-separated)',
	),
	inListFilter('externalId', 'External ID', 'external_id'),
	inListFilter('fragmentId', 'Fragment ID', 'fragment_id'),
	inListFilter('mainLocalId', 'Main Local ID', 'main_local_id'),
	inListFilter('mediaObjectId', 'Media Object ID', 'media_object_id'),
	inListFilter('refsetPersonWikiId', 'Reference-Set Person Wiki ID', 'refset_person_wiki_id'),
	inListFilter('taskIds', 'Task IDs', 'task_id'),
	textContains('label', 'Label Contains', 'label', 'persons'),
	textContains('title', 'Title Contains', 'title', 'rows'),
];

export const ADVANCED_FILTER_NAME = 'Advanced Filter (JSON)';

type ViewKind = AiViewDefinition['kind'];

/** An Advanced Filter example that works on each kind of view: it names one of that view's own columns. */
const ADVANCED_FILTER_EXAMPLES: Record<ViewKind, string> = {
	detectionTask: '{"n_faces": {"_gte": 3}}',
	match: '{"match_score": {"_gte": 0.9}}',
	refsetPerson: '{"label": {"_ilike": "%van%"}}',
	speechTask: '{"_not": {"error": {"_is_null": false}}}',
	nerTask: '{"_not": {"error": {"_is_null": false}}}',
};

/** Each filter once, by the name the collection's value uses (the time filters share theirs across views). */
const FILTERS_BY_NAME = new Map(FILTERS.map((filter) => [filter.property.name, filter]));

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

/** One Filters collection per kind of view, for those of its views that `include`. */
function filterCollections(
	operations: string[],
	include: (view: AiViewDefinition) => boolean,
	exclude?: string,
): INodeProperties[] {
	return (Object.keys(ADVANCED_FILTER_EXAMPLES) as ViewKind[]).flatMap(
		(kind): INodeProperties[] => {
			const views = AI_VIEW_KEYS.map((key) => AI_VIEWS[key]).filter(
				(view) => view.kind === kind && include(view),
			);
			if (views.length === 0) return [];
			const filters = FILTERS.filter(
				(filter) =>
					views[0].documentedColumns.includes(filter.column) && filter.property.name !== exclude,
			);
			const where: INodeProperties = {
				displayName: ADVANCED_FILTER_NAME,
				name: 'where',
				type: 'json',
				default: '{}',
				description: `Any Hasura "where" expression, combined with the other filters by AND. Supports _and, _or, _not and all comparison operators, e.g. ${ADVANCED_FILTER_EXAMPLES[kind]}.`,
			};
			const resources = views.map((view) => view.resource);
			return [
				{
					displayName: 'Filters',
					name: 'filters',
					type: 'collection',
					placeholder: 'Add Filter',
					default: {},
					displayOptions: showFor(resources, operations),
					options: [...filters.map((filter) => filter.property), where].sort(byName),
				},
			];
		},
	);
}

export const filterProperties = filterCollections(['getAll', 'count'], () => true);

/** Get by PID: the same filters minus PID (the input items' PIDs are the batch), ANDed with each batch query. */
export const pidLookupFilterProperties = filterCollections(
	['getByPid'],
	(view) => view.pidLookup,
	'pid',
);

/** `where` from the Filters collection: the friendly filters and the advanced Hasura filter, combined with AND. */
export function buildWhere(
	ctx: ParameterContext,
	itemIndex: number,
	view: ResolvedView,
	filters: IDataObject,
): Condition {
	const conditions: Condition[] = [];
	for (const [name, filter] of FILTERS_BY_NAME) {
		if (!(name in filters)) continue;
		const condition = filter.toCondition(ctx, itemIndex, filters[name]);
		if (!condition) continue;
		const columnName = filter.time ? view.timeColumn : filter.column;
		const parameter = filter.property.displayName;
		// Without a live schema (no introspection) the server judges the names.
		if (view.live && !view.columns.includes(columnName)) {
			throw parameterError(
				ctx,
				itemIndex,
				parameter,
				`cannot be used here: ${view.rootField} has no column "${columnName}"`,
			);
		}
		// A list filter on a uuid column (task_id) only takes UUIDs: said before the request.
		const invalid = Array.isArray(condition._in)
			? (condition._in as string[]).filter((value) => !isUuid(value))
			: [];
		if (view.columnTypes[columnName] === 'uuid' && invalid.length > 0) {
			throw parameterError(
				ctx,
				itemIndex,
				parameter,
				`must be UUIDs, got ${invalid.map((value) => JSON.stringify(value)).join(', ')}`,
			);
		}
		conditions.push({ [columnName]: condition });
	}
	conditions.push(parseJsonObject(ctx, itemIndex, ADVANCED_FILTER_NAME, filters.where));
	return combineConditions(conditions);
}

/** The Filters collection, with the checks that need no schema (JSON syntax, numbers, dates) run before any request. */
export function readFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {});
	for (const [name, filter] of FILTERS_BY_NAME) {
		if (name in filters) filter.toCondition(ctx, itemIndex, filters[name]);
	}
	parseJsonObject(ctx, itemIndex, ADVANCED_FILTER_NAME, filters.where);
	return filters;
}
