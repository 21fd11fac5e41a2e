import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fetchAllByOffset } from '../../shared/graphql/pagination';
import { executePerItem } from '../../shared/n8n/executePerItem';
import { RESOURCES, resourceNamed } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { optionsCollection, outputProperties, showFor } from './common';
import { checkEnumFilters, filterProperties } from './filters';
import { readGetManySettings, readOutputSettings, readRequestSettings } from './parameters';
import { prepareQuery, presentRows, rowsOf, shapeRows } from './request';

function getAllProperties(resource: OrgResource): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions: showFor(resource, 'getAll'),
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: showFor(resource, 'getAll', { returnAll: [false] }),
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
		},
		...filterProperties(resource),
		...outputProperties(resource, 'getAll'),
		optionsCollection(resource, 'getAll'),
	];
}

export const description: INodeProperties[] = Object.values(RESOURCES).flatMap(getAllProperties);

/**
 * Get Many: pages with `offset` (always sent, so the order is stable) and `limit`, several pages in flight,
 * through the server's 500-row cap, until an empty page (Return All) or the limit.
 */
async function getMany(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = readRequestSettings(ctx, itemIndex);
	const output = readOutputSettings(ctx, itemIndex, resource);
	const query = readGetManySettings(ctx, itemIndex, resource);

	const { client, document } = await prepareQuery(ctx, resource, itemIndex, request, output, {
		argumentNames: [...Object.keys(query.filters), 'offset', 'limit'],
		checkSchema: (schema) => checkEnumFilters(ctx, schema, resource, query.filters, itemIndex),
	});
	const rows = await fetchAllByOffset<unknown>(
		async (offset, limit) => {
			const data = await client.request<IDataObject>(
				{ document, variables: { ...query.filters, offset, limit } },
				itemIndex,
			);
			return rowsOf(data, resource.rootField);
		},
		{ pageSize: request.pageSize, concurrency: request.concurrency, maxRows: query.maxRows },
	);
	return shapeRows(presentRows(rows), output);
}

/** The operation's entry point: the router calls it by operation name (ROUTES, shared/n8n/router.ts). @public */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const orgResource = resourceNamed(this, resource);
	return await executePerItem(
		this,
		async (itemIndex) => await getMany(this, orgResource, itemIndex),
	);
}
