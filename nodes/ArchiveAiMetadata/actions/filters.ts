import type { INodeProperties } from 'n8n-workflow';

import { ID_LIST_FILTER_COLUMNS } from '../api/query';
import type { AiViewDefinition } from '../api/views';
import { resourcesWhere, showFor } from './common';

/** The `filters` collection, one variant per kind of view (only the filters that view's columns support). */

const status: INodeProperties = {
	displayName: 'Status Names or IDs',
	name: 'status',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getFilterStatuses', loadOptionsDependsOn: ['resource'] },
	default: [],
	description:
		'Only rows with one of these statuses. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const contentPartner: INodeProperties = {
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
};

const pid: INodeProperties = {
	displayName: 'PID',
	name: 'pid',
	type: 'string',
	default: '',
	description: 'Only rows of these PIDs (comma-separated)',
};

/** An "any of these ids" filter on one identifier column. */
function idList(parameter: keyof typeof ID_LIST_FILTER_COLUMNS): INodeProperties {
	const { displayName, column } = ID_LIST_FILTER_COLUMNS[parameter];
	return {
		displayName,
		name: parameter,
		type: 'string',
		default: '',
		description: `Only rows whose ${column} is one of these values (exact, comma-separated)`,
	};
}

const title: INodeProperties = {
	displayName: 'Title Contains',
	name: 'title',
	type: 'string',
	default: '',
	description: 'Only rows whose title contains this text (case-insensitive)',
};

function timeRange(column: string): INodeProperties[] {
	return [
		{
			displayName: 'Time From',
			name: 'timeFrom',
			type: 'dateTime',
			default: '',
			description: `Only rows whose ${column} is at or after this moment (without a zone: in the workflow's timezone)`,
		},
		{
			displayName: 'Time To',
			name: 'timeTo',
			type: 'dateTime',
			default: '',
			description: `Only rows whose ${column} is before this moment (without a zone: in the workflow's timezone)`,
		},
	];
}

const advancedFilter: INodeProperties = {
	displayName: 'Advanced Filter (JSON)',
	name: 'where',
	type: 'json',
	default: '{}',
	description:
		'Any Hasura "where" expression, combined with the other filters by AND. Supports _and, _or, _not and all comparison operators, e.g. {"n_faces": {"_gte": 3}}.',
};

const matchFilters: INodeProperties[] = [
	{
		displayName: 'Cluster UUID',
		name: 'clusterUuid',
		type: 'string',
		default: '',
		description: 'Only matches of these clusters (comma-separated)',
	},
	{
		displayName: 'Min Match Score',
		name: 'minMatchScore',
		type: 'number',
		typeOptions: { numberPrecision: 4 },
		default: 0,
		description: 'Only matches with at least this match_score',
	},
	{
		displayName: 'Person Name Contains',
		name: 'personName',
		type: 'string',
		default: '',
		description: 'Only matches whose refset_person_name contains this text (case-insensitive)',
	},
	{
		displayName: 'Reference-Set Person ID',
		name: 'refsetPersonId',
		type: 'string',
		default: '',
		description: 'Only matches of these reference-set persons (refset_person_id, comma-separated)',
	},
];

const label: INodeProperties = {
	displayName: 'Label Contains',
	name: 'label',
	type: 'string',
	default: '',
	description: 'Only persons whose label contains this text (case-insensitive)',
};

const byName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

function filtersCollection(
	resources: string[],
	operations: string[],
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor(resources, operations),
		options: [...options].sort(byName),
	};
}

type ViewKind = AiViewDefinition['kind'];

/** The friendly filters each kind of view supports (only filters on columns the documented schema gives that view). */
const FILTERS_BY_KIND: Record<ViewKind, INodeProperties[]> = {
	detectionTask: [
		status,
		contentPartner,
		pid,
		title,
		idList('externalId'),
		idList('mainLocalId'),
		idList('mediaObjectId'),
		idList('taskIds'),
		...timeRange('processed_time'),
		advancedFilter,
	],
	speechTask: [
		status,
		contentPartner,
		pid,
		title,
		idList('externalId'),
		idList('fragmentId'),
		idList('mainLocalId'),
		idList('mediaObjectId'),
		idList('taskIds'),
		...timeRange('processed_time'),
		advancedFilter,
	],
	nerTask: [
		status,
		contentPartner,
		pid,
		idList('fragmentId'),
		idList('taskIds'),
		...timeRange('processed_time'),
		advancedFilter,
	],
	match: [
		contentPartner,
		...matchFilters,
		idList('refsetPersonWikiId'),
		...timeRange('matched_time'),
		advancedFilter,
	],
	refsetPerson: [status, label, ...timeRange('modified_at'), advancedFilter],
};

const KINDS = Object.keys(FILTERS_BY_KIND) as ViewKind[];

/** Get Many and Count: every filter of the view. */
export const filterProperties: INodeProperties[] = KINDS.map((kind) =>
	filtersCollection(
		resourcesWhere((view) => view.kind === kind),
		['getAll', 'count'],
		FILTERS_BY_KIND[kind],
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
			FILTERS_BY_KIND[kind].filter((filter) => filter !== pid),
		),
	);
