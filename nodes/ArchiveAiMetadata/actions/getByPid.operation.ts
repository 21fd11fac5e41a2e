import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executeGrouped } from '../../shared/n8n/executeGrouped';
import { listValue, viewKeyOf } from '../api/views';
import { requireInteger, requireText } from '../../shared/n8n/params';
import { whenNotFoundOption } from '../../shared/n8n/notFound';
import { fieldsFor } from '../api/documents';
import type { FieldSelection } from '../api/documents';
import { AiSession } from '../api/viewSource';
import type { ViewSource } from '../api/viewSource';
import {
	RESOURCES_WITH_PID,
	fileRows,
	lookupResults,
	outputProperties,
	optionsCollection,
	pagedReadOptions,
	readFieldSelection,
	readOptions,
	readRowsWhereIn,
	showFor,
	withColumn,
} from './common';
import type { ReadOptions, WhereIn } from './common';
import {
	ADVANCED_FILTER_NAME,
	buildWhere,
	pidLookupFilterProperties,
	readFilters,
} from './filters';

/** Cluster ids per match query when matches are found through their tasks' clusters. */
const CLUSTER_BATCH_SIZE = 1000;

// 500 PIDs keep a request small (a few KB of variables) and 1,000 input items at 2 batches: 7 requests with paging.
const DEFAULT_PID_BATCH_SIZE = 500;
const MAX_PID_BATCH_SIZE = 5000;

const show = showFor(RESOURCES_WITH_PID, ['getByPid']);

export const description: INodeProperties[] = [
	{
		displayName: 'PID',
		name: 'pid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. kdleipkyuj',
		description:
			'PID of the fragment, usually taken from the input item with an expression. Items with the same Filters, Output and Options are looked up together in batches.',
		displayOptions: show,
	},
	...pidLookupFilterProperties,
	...outputProperties(RESOURCES_WITH_PID, ['getByPid']),
	optionsCollection(show, [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PID_BATCH_SIZE },
			default: DEFAULT_PID_BATCH_SIZE,
			description:
				'How many distinct PIDs one query asks for (pid _in [...]). Lower it if the API refuses or times out on large queries.',
		},
		whenNotFoundOption('PID'),
		...pagedReadOptions,
	]),
];

/** What shapes an item's query besides its PID; items that agree on all of it are looked up together. */
interface PidLookup {
	options: ReadOptions;
	batchSize: number;
	/** The Filters collection, checked locally; turned into a condition once the view's live names are known. */
	filters: IDataObject;
	selection: FieldSelection;
}

function readPidLookup(ctx: IExecuteFunctions, itemIndex: number): PidLookup {
	const options = readOptions(ctx, itemIndex);
	const { batchSize } = ctx.getNodeParameter('options', itemIndex, {});
	return {
		options,
		batchSize: requireInteger(ctx, itemIndex, 'Batch Size', batchSize ?? DEFAULT_PID_BATCH_SIZE, {
			max: MAX_PID_BATCH_SIZE,
		}),
		filters: readFilters(ctx, itemIndex),
		selection: readFieldSelection(ctx, itemIndex),
	};
}

/** One group's look-up: its run's session, the settings its items share, and its first item (named in errors). */
interface GroupLookup {
	session: AiSession;
	lookup: PidLookup;
	itemIndex: number;
}

/** `readRowsWhereIn` with the group's requests in flight and page size. */
async function readWhereIn(
	{ session, lookup, itemIndex }: GroupLookup,
	source: ViewSource,
	query: Omit<WhereIn, 'concurrency' | 'pageSize'>,
): Promise<IDataObject[]> {
	return await readRowsWhereIn(session.ctx, source, itemIndex, {
		...query,
		concurrency: lookup.options.concurrency,
		pageSize: lookup.options.pageSize,
	});
}

/**
 * Get by PID: the input items are grouped by their Filters, Output and Options; each group's PIDs are collected
 * (deduplicated), asked for with `pid _in [...]` in batches, each batch paged to the end, and the rows fanned out
 * to the items by PID, each paired to its item.
 * The router calls it by operation name (ROUTES, shared/n8n/router.ts). @public
 */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const session = new AiSession(this);
	const viewKey = viewKeyOf(this, resource);
	return await executeGrouped(this, {
		read: (itemIndex) => ({
			lookup: readPidLookup(this, itemIndex),
			pid: requireText(this, itemIndex, 'PID', this.getNodeParameter('pid', itemIndex, '')),
		}),
		groupKey: ({ lookup }) => JSON.stringify(lookup),
		run: async (items) => {
			const [{ itemIndex, parameters }] = items;
			const group: GroupLookup = { session, lookup: parameters.lookup, itemIndex };
			const source = await session.openView(viewKey, group.lookup.options.maxRetries, itemIndex);
			const { view } = source;
			const fields = fieldsFor(this, itemIndex, group.lookup.selection, view);
			const pids = [...new Set(items.map((item) => item.parameters.pid))];
			const where = buildWhere(this, itemIndex, view, group.lookup.filters);
			const rowsByPid = view.columns.includes('pid')
				? fileRows(
						await readWhereIn(group, source, {
							column: 'pid',
							values: pids,
							batchSize: group.lookup.batchSize,
							orderBy: [{ pid: 'asc' }],
							fields: withColumn(fields, 'pid'),
							filter: where,
							whereParameter: ADVANCED_FILTER_NAME,
						}),
						'pid',
						fields,
						(pid) => [pid],
					)
				: await rowsThroughClusters(group, source, pids, fields, where);
			const found = items.map(({ itemIndex, parameters: { lookup, pid } }) => ({
				itemIndex,
				options: lookup.options,
				value: pid,
				rows: rowsByPid.get(pid) ?? [],
			}));
			return lookupResults(this, view, 'pid', found);
		},
	});
}

/**
 * Match views carry no pid: their PIDs are those of the tasks whose `cluster_uuids` hold the match's
 * `cluster_uuid`. First the tasks of the PIDs (batched), then the matches of their clusters (batched).
 */
async function rowsThroughClusters(
	group: GroupLookup,
	source: ViewSource,
	pids: string[],
	fields: string[],
	where: IDataObject,
): Promise<Map<string, IDataObject[]>> {
	const { session, itemIndex } = group;
	const { view } = source;
	const taskViewKey = view.definition.clusterTaskView;
	if (!taskViewKey || !view.columns.includes('cluster_uuid')) {
		throw new NodeOperationError(
			session.ctx.getNode(),
			`${view.rootField} has no pid column and no cluster to find its PIDs through`,
			{ itemIndex },
		);
	}
	const taskSource = await session.openView(
		taskViewKey,
		group.lookup.options.maxRetries,
		itemIndex,
	);
	const taskView = taskSource.view;
	const pidsByCluster = new Map<string, Set<string>>();
	const tasks = await readWhereIn(group, taskSource, {
		column: 'pid',
		values: pids,
		batchSize: group.lookup.batchSize,
		fields: ['pid', 'cluster_uuids'],
		whereParameter: 'PID',
	});
	for (const task of tasks) {
		const pid = task.pid as string;
		// JSON array or Postgres array literal; anything else fails loudly instead of finding no matches.
		const clusters = listValue(taskView, 'cluster_uuids', task.cluster_uuids) ?? [];
		for (const cluster of clusters) {
			const owners = pidsByCluster.get(String(cluster)) ?? new Set<string>();
			owners.add(String(pid));
			pidsByCluster.set(String(cluster), owners);
		}
	}
	const matches = await readWhereIn(group, source, {
		column: 'cluster_uuid',
		values: [...pidsByCluster.keys()],
		batchSize: CLUSTER_BATCH_SIZE,
		fields: withColumn(fields, 'cluster_uuid'),
		filter: where,
		whereParameter: ADVANCED_FILTER_NAME,
	});
	// A match has no pid column: each row says which PID it was found for.
	return fileRows(
		matches,
		'cluster_uuid',
		fields,
		(cluster) => pidsByCluster.get(cluster) ?? [],
		'pid',
	);
}
