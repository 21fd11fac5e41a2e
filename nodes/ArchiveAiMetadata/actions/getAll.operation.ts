import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { fieldsFor, orderByFor } from '../api/documents';
import { AiSession, readRows } from '../api/viewSource';
import { shapeRecord, viewKeyOf, type AiViewKey } from '../api/views';
import {
	ALL_VIEW_RESOURCES,
	outputProperties,
	optionsCollection,
	pagedReadOptions,
	showFor,
} from './common';
import { ADVANCED_FILTER_NAME, buildWhere, filterProperties } from './filters';
import { readGetManyParameters, SORT_DIRECTION_OPTIONS } from './parameters';

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

/** Get Many: filtered, sorted rows of a view; Return All pages through everything with bounded concurrency. */
async function executeGetMany(
	session: AiSession,
	viewKey: AiViewKey,
): Promise<INodeExecutionData[]> {
	const ctx: IExecuteFunctions = session.ctx;
	return await executePerItem(ctx, async (itemIndex) => {
		const { options, maxRows, filters, sort, selection } = readGetManyParameters(ctx, itemIndex);
		const source = await session.openView(viewKey, options.maxRetries, itemIndex);
		const { view } = source;
		const rows = await readRows(
			ctx,
			source,
			itemIndex,
			{
				where: buildWhere(ctx, itemIndex, view, filters),
				orderBy: orderByFor(ctx, itemIndex, sort, view),
				fields: fieldsFor(ctx, itemIndex, selection, view),
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
		const shaping = { keepRawJson: options.keepRawJson, inPlace: true };
		return rows.map((row) => shapeRecord(view, row, shaping));
	});
}

/** The operation's entry point: the router calls it by operation name (ROUTES, shared/n8n/router.ts). @public */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	return await executeGetMany(new AiSession(this), viewKeyOf(this, resource));
}
