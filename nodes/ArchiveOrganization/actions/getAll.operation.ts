import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { buildRootFieldQuery } from '../../shared/graphql/documents';
import { fetchAllByOffset } from '../../shared/graphql/pagination';
import { showFor } from '../../shared/n8n/descriptions';
import { executePerItem } from '../../shared/n8n/executePerItem';
import { argumentTypeOf, checked, openQuery, presentRows, rowsOf, shapeRows } from '../api/query';
import { RESOURCES, resourceNamed } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { operationName } from '../api/session';
import { optionsCollection, outputProperties } from './common';
import { checkEnumFilters, filterProperties } from './filters';
import { readGetManyParameters } from './parameters';

export const description: INodeProperties[] = Object.values(RESOURCES).flatMap((resource) => [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		displayOptions: showFor([resource.name], ['getAll']),
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: showFor([resource.name], ['getAll'], { returnAll: [false] }),
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
	...filterProperties(resource),
	...outputProperties(resource, 'getAll'),
	optionsCollection(resource, 'getAll'),
]);

/**
 * Get Many: pages with `offset` (always sent, so the order is stable) and `limit`, several pages in flight,
 * through the server's 500-row cap, until an empty page (Return All) or the limit.
 */
async function getMany(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	itemIndex: number,
): Promise<IDataObject[]> {
	const parameters = readGetManyParameters(ctx, itemIndex, resource);
	const { request, filters } = parameters;
	const query = await openQuery(ctx, resource, parameters, itemIndex, (schema) =>
		checkEnumFilters(ctx, schema, resource, filters, itemIndex),
	);
	const argumentNames = [...Object.keys(filters), 'offset', 'limit'];
	const document = checked(
		query,
		buildRootFieldQuery({
			operationName: operationName('GetMany', resource),
			rootField: resource.rootField,
			arguments: argumentNames.map((name) => ({ name, type: argumentTypeOf(query, name) })),
			fields: query.fields,
		}),
	);
	const rows = await fetchAllByOffset<unknown>(
		async (offset, limit) => {
			const variables = { ...filters, offset, limit };
			const data = await query.client.request<IDataObject>({ document, variables }, itemIndex);
			return rowsOf(data, resource.rootField);
		},
		{ pageSize: request.pageSize, concurrency: request.concurrency, maxRows: parameters.maxRows },
	);
	return shapeRows(presentRows(rows), parameters.output);
}

/** Get Many's entry point. @public */
export async function execute(this: IExecuteFunctions, resource: string) {
	const orgResource = resourceNamed(this, resource);
	return await executePerItem(
		this,
		async (itemIndex) => await getMany(this, orgResource, itemIndex),
	);
}
