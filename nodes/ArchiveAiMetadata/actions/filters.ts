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
import type { AiViewDefinition, ResolvedView } from '../api/views';
import { resourcesWhere, showFor } from './common';

/**
 * The Filters collection: each filter's field in the editor and its Hasura condition, defined together. Column
 * names are checked against the view's live columns, so a wrong name is reported with its filter before anything
 * is sent.
 */

type Condition = IDataObject;

interface Filter {
	/** The field in the Filters collection; its `name` is the key the collection's value holds. */
	property: INodeProperties;
	/** The column the filter applies to (the time filters follow the view's time column). */
	column: (view: ResolvedView) => string;
	/** The condition on that column, or undefined when the value asks for nothing (empty text, empty list). */
	toCondition: (ctx: ParameterContext, itemIndex: number, value: unknown) => Condition | undefined;
}

const inList = (value: unknown): Condition | undefined => {
	const values = splitList(value);
	return values.length > 0 ? { _in: values } : undefined;
};

/** "Contains this text": the text matched literally anywhere, case-insensitively. */
const containsText = (value: unknown): Condition | undefined => {
	const text = textOf(value ?? '').trim();
	return text === '' ? undefined : { _ilike: `%${escapeLikePattern(text)}%` };
};

const column = (name: string) => () => name;

/** "One of these values" on a column, given as comma-separated text. */
function inListFilter(
	name: string,
	displayName: string,
	columnName: string,
	description: string,
): Filter {
	return {
		property: textParameter(name, displayName, description),
		column: column(columnName),
		toCondition: (_ctx, _itemIndex, value) => inList(value),
	};
}

/** "One of these identifiers" on an id column users hold (comma-separated, exact values). */
function idList(name: string, displayName: string, columnName: string): Filter {
	const description = `Only rows whose ${columnName} is one of these values (exact, comma-separated)`;
	return inListFilter(name, displayName, columnName, description);
}

function textContains(name: string, displayName: string, columnName: string, rows: string): Filter {
	return {
		property: textParameter(
			name,
			displayName,
			`Only ${rows} whose ${columnName} contains this text (case-insensitive)`,
		),
		column: column(columnName),
		toCondition: (_ctx, _itemIndex, value) => containsText(value),
	};
}

function timeBound(name: 'timeFrom' | 'timeTo', timeColumn: string): Filter {
	const from = name === 'timeFrom';
	const displayName = from ? 'Time From' : 'Time To';
	return {
		property: {
			displayName,
			name,
			type: 'dateTime',
			default: '',
			description: `Only rows whose ${timeColumn} is ${from ? 'at or after' : 'before'} this moment (without a zone: in the workflow's timezone)`,
		},
		column: (view) => view.timeColumn,
		toCondition: (ctx, itemIndex, value) => {
			const time = readDateTime(ctx, itemIndex, displayName, value);
			if (time === undefined) return undefined;
			return from ? { _gte: time } : { _lt: time };
		},
	};
}

/** Every friendly filter, in the order their conditions are combined. */
const FILTERS = {
	status: {
		property: {
			displayName: 'Status Names or IDs',
			name: 'status',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getFilterStatuses', loadOptionsDependsOn: ['resource'] },
			default: [],
			description:
				'Only rows with one of these statuses. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		column: column('status'),
		toCondition: (_ctx, _itemIndex, value) => inList(value),
	},
	contentPartner: {
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
		column: column('cp'),
		toCondition: (_ctx, _itemIndex, value) => inList(value),
	},
	pid: inListFilter('pid', 'PID', 'pid', 'Only rows of these PIDs (comma-separated)'),
	// The label names the view's own time column; the condition follows the live one.
	timeFromProcessed: timeBound('timeFrom', 'processed_time'),
	timeToProcessed: timeBound('timeTo', 'processed_time'),
	timeFromMatched: timeBound('timeFrom', 'matched_time'),
	timeToMatched: timeBound('timeTo', 'matched_time'),
	timeFromModified: timeBound('timeFrom', 'modified_at'),
	timeToModified: timeBound('timeTo', 'modified_at'),
	minMatchScore: {
		property: {
			displayName: 'Min Match Score',
			name: 'minMatchScore',
			type: 'number',
			typeOptions: { numberPrecision: 4 },
			default: 0,
			description: 'Only matches with at least this match_score',
		},
		column: column('match_score'),
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
	personName: textContains('personName', 'Person Name Contains', 'refset_person_name', 'matches'),
	clusterUuid: inListFilter(
		'clusterUuid',
		'Cluster UUID',
		'cluster_uuid',
		'Only matches of these clusters (comma-separated)',
	),
	refsetPersonId: inListFilter(
		'refsetPersonId',
		'Reference-Set Person ID',
		'refset_person_id',
		'Only matches of these reference-set persons (refset_person_id, comma-separated)',
	),
	externalId: idList('externalId', 'External ID', 'external_id'),
	fragmentId: idList('fragmentId', 'Fragment ID', 'fragment_id'),
	mainLocalId: idList('mainLocalId', 'Main Local ID', 'main_local_id'),
	mediaObjectId: idList('mediaObjectId', 'Media Object ID', 'media_object_id'),
	refsetPersonWikiId: idList(
		'refsetPersonWikiId',
		'Reference-Set Person Wiki ID',
		'refset_person_wiki_id',
	),
	taskIds: idList('taskIds', 'Task IDs', 'task_id'),
	label: textContains('label', 'Label Contains', 'label', 'persons'),
	title: textContains('title', 'Title Contains', 'title', 'rows'),
} satisfies Record<string, Filter>;

type FilterKey = keyof typeof FILTERS;

export const ADVANCED_FILTER_NAME = 'Advanced Filter (JSON)';

/** An Advanced Filter example that works on each kind of view: it names one of that view's own columns. */
const ADVANCED_FILTER_EXAMPLES: Record<AiViewDefinition['kind'], string> = {
	detectionTask: '{"n_faces": {"_gte": 3}}',
	match: '{"match_score": {"_gte": 0.9}}',
	refsetPerson: '{"label": {"_ilike": "%van%"}}',
	speechTask: '{"_not": {"error": {"_is_null": false}}}',
	nerTask: '{"_not": {"error": {"_is_null": false}}}',
};

function advancedFilter(kind: AiViewDefinition['kind']): INodeProperties {
	return {
		displayName: ADVANCED_FILTER_NAME,
		name: 'where',
		type: 'json',
		default: '{}',
		description: `Any Hasura "where" expression, combined with the other filters by AND. Supports _and, _or, _not and all comparison operators, e.g. ${ADVANCED_FILTER_EXAMPLES[kind]}.`,
	};
}

type ViewKind = AiViewDefinition['kind'];

/** The filters each kind of view offers: only filters on columns the documented schema gives that view. */
const FILTERS_BY_KIND: Record<ViewKind, FilterKey[]> = {
	detectionTask: [
		'status',
		'contentPartner',
		'pid',
		'title',
		'externalId',
		'mainLocalId',
		'mediaObjectId',
		'taskIds',
		'timeFromProcessed',
		'timeToProcessed',
	],
	speechTask: [
		'status',
		'contentPartner',
		'pid',
		'title',
		'externalId',
		'fragmentId',
		'mainLocalId',
		'mediaObjectId',
		'taskIds',
		'timeFromProcessed',
		'timeToProcessed',
	],
	nerTask: [
		'status',
		'contentPartner',
		'pid',
		'fragmentId',
		'taskIds',
		'timeFromProcessed',
		'timeToProcessed',
	],
	match: [
		'contentPartner',
		'clusterUuid',
		'minMatchScore',
		'personName',
		'refsetPersonId',
		'refsetPersonWikiId',
		'timeFromMatched',
		'timeToMatched',
	],
	refsetPerson: ['status', 'label', 'timeFromModified', 'timeToModified'],
};

/** Each filter once, by the name the collection's value uses (the time filters share theirs across views). */
const FILTERS_BY_NAME = new Map<string, Filter>(
	Object.values(FILTERS as Record<string, Filter>).map((filter) => [filter.property.name, filter]),
);

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

function filtersCollection(
	resources: string[],
	operations: string[],
	kind: ViewKind,
	keys: FilterKey[] = FILTERS_BY_KIND[kind],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor(resources, operations),
		options: [...keys.map((key) => FILTERS[key].property), advancedFilter(kind)].sort(byName),
	};
}

const KINDS = Object.keys(FILTERS_BY_KIND) as ViewKind[];

/** Get Many and Count: every filter of the view. */
export const filterProperties: INodeProperties[] = KINDS.map((kind) =>
	filtersCollection(
		resourcesWhere((view) => view.kind === kind),
		['getAll', 'count'],
		kind,
	),
);

/** Get by PID: the same filters minus PID (the input items' PIDs are the batch), ANDed with each batch query. */
export const pidLookupFilterProperties: INodeProperties[] = KINDS.map((kind) => ({
	kind,
	resources: resourcesWhere((view) => view.kind === kind && view.pidLookup),
}))
	.filter(({ resources }) => resources.length > 0)
	.map(({ kind, resources }) =>
		filtersCollection(
			resources,
			['getByPid'],
			kind,
			FILTERS_BY_KIND[kind].filter((key) => key !== 'pid'),
		),
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
		const columnName = filter.column(view);
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
		assertUuids(ctx, itemIndex, view, parameter, columnName, condition);
		conditions.push({ [columnName]: condition });
	}
	conditions.push(parseJsonObject(ctx, itemIndex, ADVANCED_FILTER_NAME, filters.where));
	return combineConditions(conditions);
}

/** A list filter on a uuid column (task_id) only takes UUIDs: said before the request, naming the filter. */
function assertUuids(
	ctx: ParameterContext,
	itemIndex: number,
	view: ResolvedView,
	parameter: string,
	columnName: string,
	condition: Condition,
): void {
	if (view.columnTypes[columnName] !== 'uuid' || !Array.isArray(condition._in)) return;
	const invalid = (condition._in as string[]).filter((value) => !isUuid(value));
	if (invalid.length > 0)
		throw parameterError(
			ctx,
			itemIndex,
			parameter,
			`must be UUIDs, got ${invalid.map((value) => JSON.stringify(value)).join(', ')}`,
		);
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
