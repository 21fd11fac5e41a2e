import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { parameterError, requireInteger } from '../../shared/n8n/params';
import { fieldsFor, orderByFor } from '../api/documents';
import type { SortRule } from '../api/documents';
import { AiSession, readRows } from '../api/viewSource';
import { shapeRecord, viewKeyOf } from '../api/views';
import {
	ALL_VIEW_RESOURCES,
	outputProperties,
	optionsCollection,
	pagedReadOptions,
	readFieldSelection,
	readOptions,
	showFor,
} from './common';
import { ADVANCED_FILTER_NAME, buildWhere, filterProperties, readFilters } from './filters';

/** Hasura's order_by values, named as the Direction list shows them (Hasura puts nulls last ascending, first descending). */
const SORT_DIRECTION_OPTIONS = [
	{ name: 'Ascending', value: 'asc' },
	{ name: 'Descending', value: 'desc' },
	{ name: 'Ascending (Nulls First)', value: 'asc_nulls_first' },
	{ name: 'Ascending (Nulls Last)', value: 'asc_nulls_last' },
	{ name: 'Descending (Nulls First)', value: 'desc_nulls_first' },
	{ name: 'Descending (Nulls Last)', value: 'desc_nulls_last' },
];
const SORT_DIRECTIONS = SORT_DIRECTION_OPTIONS.map((option) => option.value);

const show = showFor(ALL_VIEW_RESOURCES, ['getAll']);

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: show,
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: {
			show: { resource: ALL_VIEW_RESOURCES, operation: ['getAll'], returnAll: [false] },
		},
	},
	...filterProperties,
	...outputProperties(ALL_VIEW_RESOURCES, ['getAll']),
	optionsCollection(show, pagedReadOptions),
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Sort Rule',
		default: {},
		description:
			"Order of the rows; the view's unique key is always added last so paging is stable",
		displayOptions: show,
		options: [
			{
				displayName: 'Rule',
				name: 'rules',
				values: [
					{
						displayName: 'Column Name or ID',
						name: 'column',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['resource'] },
						default: '',
						description:
							'Column to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: SORT_DIRECTION_OPTIONS,
						default: 'asc',
					},
				],
			},
		],
	},
];

function readSort(ctx: IExecuteFunctions, itemIndex: number): SortRule[] {
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

/**
 * Get Many: filtered, sorted rows of a view; Return All pages through everything with bounded concurrency.
 * @public
 */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const session = new AiSession(this);
	const viewKey = viewKeyOf(this, resource);
	return await executePerItem(this, async (itemIndex) => {
		const options = readOptions(this, itemIndex);
		const maxRows = this.getNodeParameter('returnAll', itemIndex, false)
			? undefined
			: requireInteger(this, itemIndex, 'Limit', this.getNodeParameter('limit', itemIndex, 50));
		const filters = readFilters(this, itemIndex);
		const sort = readSort(this, itemIndex);
		const selection = readFieldSelection(this, itemIndex);
		const source = await session.openView(viewKey, options.maxRetries, itemIndex);
		const { view } = source;
		const rows = await readRows(
			this,
			source,
			itemIndex,
			{
				where: buildWhere(this, itemIndex, view, filters),
				orderBy: orderByFor(this, itemIndex, sort, view),
				fields: fieldsFor(this, itemIndex, selection, view),
				pageSize: options.pageSize,
				concurrency: options.concurrency,
				maxRows,
			},
			{
				selection: 'Field Names or IDs',
				variables: {
					where: ADVANCED_FILTER_NAME,
					order_by: 'Sort',
					limit: 'Limit',
					offset: 'Limit',
				},
			},
		);
		// Each row was parsed for this item alone.
		return rows.map((row) => shapeRecord(view, row, { ...options, inPlace: true }));
	});
}
