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
} from './common';
import type { WhereIn } from './common';
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
function readPidLookup(ctx: IExecuteFunctions, itemIndex: number) {
	const { batchSize } = ctx.getNodeParameter('options', itemIndex, {});
	return {
		options: readOptions(ctx, itemIndex),
		batchSize: requireInteger(ctx, itemIndex, 'Batch Size', batchSize ?? DEFAULT_PID_BATCH_SIZE, {
			max: MAX_PID_BATCH_SIZE,
		}),
		// Checked locally here; turned into a condition once the view's live names are known.
		filters: readFilters(ctx, itemIndex),
		selection: readFieldSelection(ctx, itemIndex),
	};
}

/**
 * Get by PID: the input items are grouped by their Filters, Output and Options; each group's PIDs are collected
 * (deduplicated), asked for with `pid _in [...]` in batches, each batch paged to the end, and the rows fanned out
 * to the items by PID, each paired to its item. @public
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
			const { options, batchSize, filters, selection } = parameters.lookup;
			const source = await session.openView(viewKey, options.maxRetries, itemIndex);
			const { view } = source;
			const fields = fieldsFor(this, itemIndex, selection, view);
			const pids = [...new Set(items.map((item) => item.parameters.pid))];
			const where = buildWhere(this, itemIndex, view, filters);
			const { concurrency, pageSize } = options;
			const read = async (from: ViewSource, query: Omit<WhereIn, 'concurrency' | 'pageSize'>) =>
				await readRowsWhereIn(this, from, itemIndex, { ...query, concurrency, pageSize });
			let rowsByPid: Map<string, IDataObject[]>;
			if (view.columns.includes('pid')) {
				const rows = await read(source, {
					column: 'pid',
					values: pids,
					batchSize,
					orderBy: [{ pid: 'asc' }],
					fields,
					filter: where,
					whereParameter: ADVANCED_FILTER_NAME,
				});
				rowsByPid = fileRows(rows, 'pid', fields, (pid) => [pid]);
			} else {
				// Match views carry no pid: their PIDs are those of the tasks whose `cluster_uuids` hold the
				// match's `cluster_uuid`. First the tasks of the PIDs, then the matches of their clusters.
				const taskViewKey = view.definition.clusterTaskView;
				if (!taskViewKey || !view.columns.includes('cluster_uuid')) {
					throw new NodeOperationError(
						this.getNode(),
						`${view.rootField} has no pid column and no cluster to find its PIDs through`,
						{ itemIndex },
					);
				}
				const taskSource = await session.openView(taskViewKey, options.maxRetries, itemIndex);
				const tasks = await read(taskSource, {
					column: 'pid',
					values: pids,
					batchSize,
					fields: ['pid', 'cluster_uuids'],
					whereParameter: 'PID',
				});
				const owners = new Map<string, Set<string>>();
				for (const task of tasks) {
					const pid = task.pid as string;
					// JSON array or Postgres array literal; anything else fails loudly instead of finding no matches.
					const clusters = listValue(taskSource.view, 'cluster_uuids', task.cluster_uuids) ?? [];
					for (const cluster of clusters) {
						const owned = owners.get(String(cluster)) ?? new Set<string>();
						owners.set(String(cluster), owned.add(String(pid)));
					}
				}
				const matches = await read(source, {
					column: 'cluster_uuid',
					values: [...owners.keys()],
					batchSize: CLUSTER_BATCH_SIZE,
					fields,
					filter: where,
					whereParameter: ADVANCED_FILTER_NAME,
				});
				// Each match says which PID it was found for.
				const pidsOf = (cluster: string) => owners.get(cluster) ?? [];
				rowsByPid = fileRows(matches, 'cluster_uuid', fields, pidsOf, 'pid');
			}
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
