import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executeGrouped } from '../../shared/n8n/executeGrouped';
import type { GroupResults } from '../../shared/n8n/executeGrouped';
import { chunk, mapWithConcurrency } from '../../shared/concurrency';
import { listValue, shapeRecord, stableOrderBy, viewKeyOf } from '../api/views';
import type { AiViewKey, ResolvedView } from '../api/views';
import { requireText } from '../../shared/n8n/params';
import { markFound, NotFoundOutputs, whenNotFoundOption } from '../../shared/n8n/notFound';
import { nounOf } from '../../shared/n8n/english';
import { combineConditions, fieldsFor } from '../api/documents';
import { AiSession, readRows } from '../api/viewSource';
import type { ReadRequest, ViewSource } from '../api/viewSource';
import {
	RESOURCES_WITH_PID,
	outputProperties,
	optionsCollection,
	pagedReadOptions,
	showFor,
} from './common';
import { ADVANCED_FILTER_NAME, buildWhere, pidLookupFilterProperties } from './filters';
import { DEFAULT_PID_BATCH_SIZE, MAX_PID_BATCH_SIZE, readPidLookupParameters } from './parameters';
import type { PidLookupParameters } from './parameters';

/** Cluster ids per match query when matches are found through their tasks' clusters. */
const CLUSTER_BATCH_SIZE = 1000;

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

interface PidLookup extends PidLookupParameters {
	pid: string;
}

/** Items with the same Filters, Output and Options are looked up together (the PID is what differs). */
function lookupKeyOf(lookup: PidLookup): string {
	const shared: Partial<PidLookup> = { ...lookup };
	delete shared.pid;
	return JSON.stringify(shared);
}

/**
 * Get by PID: the input items are grouped by their Filters, Output and Options; each group's PIDs are collected
 * (deduplicated), asked for with `pid _in [...]` in batches, each batch paged to the end, and the rows fanned out
 * to the items by PID, each paired to its item.
 */
async function executeGetByPid(
	session: AiSession,
	viewKey: AiViewKey,
): Promise<INodeExecutionData[]> {
	const ctx = session.ctx;
	return await executeGrouped(ctx, {
		read: (itemIndex): PidLookup => ({
			...readPidLookupParameters(ctx, itemIndex),
			pid: requireText(ctx, itemIndex, 'PID', ctx.getNodeParameter('pid', itemIndex, '')),
		}),
		groupKey: lookupKeyOf,
		run: async (items) => {
			const settings = items[0].parameters;
			const pids = [...new Set(items.map((item) => item.parameters.pid))];
			const { view, rowsByPid } = await lookUpPids(
				session,
				viewKey,
				pids,
				settings,
				items[0].itemIndex,
			);
			const results: GroupResults = new Map();
			const notFound = new NotFoundOutputs(ctx);
			for (const { itemIndex, parameters } of items) {
				const rows = rowsByPid.get(parameters.pid) ?? [];
				const { whenNotFound } = parameters;
				if (rows.length > 0) {
					results.set(
						itemIndex,
						rows.map((row) => markFound(shapeRecord(view, row, parameters), whenNotFound)),
					);
					continue;
				}
				const lookup = {
					noun: nounOf(view.definition.displayName),
					key: 'pid',
					value: parameters.pid,
				};
				results.set(itemIndex, notFound.of(whenNotFound, lookup, itemIndex));
			}
			notFound.hint();
			return results;
		},
	});
}

async function lookUpPids(
	session: AiSession,
	viewKey: AiViewKey,
	pids: string[],
	settings: PidLookupParameters,
	itemIndex: number,
): Promise<{ view: ResolvedView; rowsByPid: Map<string, IDataObject[]> }> {
	const source = await session.openView(viewKey, settings.maxRetries, itemIndex);
	const { view } = source;
	const fields = fieldsFor(session.ctx, itemIndex, settings.selection, view);
	if (pids.length === 0) return { view, rowsByPid: new Map() };
	const where = buildWhere(session.ctx, itemIndex, view, settings.filters);
	const lookup: GroupLookup = { session, settings, itemIndex };
	const rowsByPid = view.columns.includes('pid')
		? await rowsByDirectPid(lookup, source, pids, fields, where)
		: await rowsThroughClusters(lookup, source, pids, fields, where);
	return { view, rowsByPid };
}

/** One group's look-up: its run's session, the settings its items share, and its first item (named in errors). */
interface GroupLookup {
	session: AiSession;
	settings: PidLookupParameters;
	itemIndex: number;
}

/** Views with a pid column: the rows of the PIDs, each filed under its own PID. */
async function rowsByDirectPid(
	lookup: GroupLookup,
	source: ViewSource,
	pids: string[],
	fields: string[],
	where: IDataObject,
): Promise<Map<string, IDataObject[]>> {
	const { settings } = lookup;
	const rows = await readRowsWhereIn(lookup, {
		source,
		column: 'pid',
		values: pids,
		batchSize: settings.batchSize,
		orderBy: [{ pid: 'asc' }],
		fields: withColumn(fields, 'pid'),
		filter: where,
	});
	return groupByPid(rows, 'pid', fields, (pid) => [pid]);
}

/**
 * Match views carry no pid: their PIDs are those of the tasks whose `cluster_uuids` hold the match's
 * `cluster_uuid`. First the tasks of the PIDs (batched), then the matches of their clusters (batched).
 */
async function rowsThroughClusters(
	lookup: GroupLookup,
	source: ViewSource,
	pids: string[],
	fields: string[],
	where: IDataObject,
): Promise<Map<string, IDataObject[]>> {
	const { session, settings, itemIndex } = lookup;
	const { view } = source;
	const taskViewKey = view.definition.clusterTaskView;
	if (!taskViewKey || !view.columns.includes('cluster_uuid')) {
		throw new NodeOperationError(
			session.ctx.getNode(),
			`${view.rootField} has no pid column and no cluster to find its PIDs through`,
			{ itemIndex },
		);
	}
	const taskSource = await session.openView(taskViewKey, settings.maxRetries, itemIndex);
	const taskView = taskSource.view;
	const pidsByCluster = new Map<string, Set<string>>();
	const tasks = await readRowsWhereIn(lookup, {
		source: taskSource,
		column: 'pid',
		values: pids,
		batchSize: settings.batchSize,
		orderBy: [],
		fields: ['pid', 'cluster_uuids'],
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
	const matches = await readRowsWhereIn(lookup, {
		source,
		column: 'cluster_uuid',
		values: [...pidsByCluster.keys()],
		batchSize: CLUSTER_BATCH_SIZE,
		orderBy: [],
		fields: withColumn(fields, 'cluster_uuid'),
		filter: where,
	});
	// A match has no pid column: each row says which PID it was found for.
	return groupByPid(
		matches,
		'cluster_uuid',
		fields,
		(cluster) => pidsByCluster.get(cluster) ?? [],
		'pid',
	);
}

interface WhereInQuery extends Pick<ReadRequest, 'fields'> {
	source: ViewSource;
	/** The order of the rows; the view's unique key is added. */
	orderBy: Array<Record<string, string>>;
	column: string;
	values: string[];
	batchSize: number;
	/** The user's Filters, ANDed with each batch; none for the task look-up behind matches. */
	filter?: IDataObject;
}

/** Rows whose `column` is one of `values`: one `_in` query per batch of values (batches in parallel, pages in order). */
async function readRowsWhereIn(
	{ session, settings, itemIndex }: GroupLookup,
	query: WhereInQuery,
): Promise<IDataObject[]> {
	const batches = await mapWithConcurrency(
		chunk(query.values, query.batchSize),
		settings.concurrency,
		async (batch) =>
			await readRows(
				session.ctx,
				query.source,
				itemIndex,
				{
					where: combineConditions([{ [query.column]: { _in: batch } }, query.filter ?? {}]),
					orderBy: stableOrderBy(query.source.view, query.orderBy),
					fields: query.fields,
					pageSize: settings.pageSize,
					// Pages inside a batch run one after the other: a batch usually fits in one page, and a page
					// sent ahead would mostly come back empty.
					concurrency: 1,
				},
				{
					selection: 'Field Names or IDs',
					variables: { where: query.filter ? ADVANCED_FILTER_NAME : 'PID' },
				},
			),
	);
	return batches.flat();
}

/** The selection plus the column the rows are grouped by. */
function withColumn(fields: string[], column: string): string[] {
	return fields.includes(column) ? fields : [...fields, column];
}

/**
 * Files each row under the PIDs its `keyColumn` stands for; the key column is dropped from the row unless the
 * user selected it. With `pidField`, each filed copy also carries the PID it was found for.
 */
function groupByPid(
	rows: IDataObject[],
	keyColumn: string,
	fields: string[],
	pidsOf: (key: string) => Iterable<string>,
	pidField?: string,
): Map<string, IDataObject[]> {
	const rowsByPid = new Map<string, IDataObject[]>();
	for (const found of rows) {
		const row = { ...found };
		if (!fields.includes(keyColumn)) delete row[keyColumn];
		const key = found[keyColumn] as string;
		for (const pid of pidsOf(String(key))) {
			const list = rowsByPid.get(pid) ?? [];
			list.push(pidField ? { ...row, [pidField]: pid } : row);
			rowsByPid.set(pid, list);
		}
	}
	return rowsByPid;
}

/** The operation's entry point: the router calls it by operation name (ROUTES, shared/n8n/router.ts). @public */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	return await executeGetByPid(new AiSession(this), viewKeyOf(this, resource));
}
