import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { RESOURCES, resourceNamed } from '../api/resources';
import type { OrgResource } from '../api/resources';
import { getOperationProperties } from './descriptions';
import { readGetSettings, readOutputSettings, readRequestSettings } from './parameters';
import { prepareQuery, presentRows, rowsOf, shapeRows } from './request';

export const description: INodeProperties[] =
	Object.values(RESOURCES).flatMap(getOperationProperties);

/**
 * Get: the entity with this id or iri. `offset` is sent as on every call (results are only ordered with it).
 * Nothing found is an error naming the resource and key, or no output item when "Return Empty Result When Not
 * Found" is on.
 */
export async function getOne(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = readRequestSettings(ctx, itemIndex);
	const output = readOutputSettings(ctx, itemIndex, resource);
	const lookup = readGetSettings(ctx, itemIndex, resource);

	const { client, document } = await prepareQuery(ctx, resource, itemIndex, request, output, {
		prefix: 'Get',
		argumentNames: [lookup.lookupKey, 'offset'],
	});
	const data = await client.request<IDataObject>(
		{ document, variables: { [lookup.lookupKey]: lookup.lookupValue, offset: 0 } },
		itemIndex,
	);
	const rows = presentRows(rowsOf(data, resource.rootField));
	if (rows.length === 0 && !lookup.emptyWhenNotFound) {
		throw new NodeOperationError(
			ctx.getNode(),
			`No ${resource.singular} found with ${lookup.lookupKey} "${lookup.lookupValue}"`,
			{
				itemIndex,
				description:
					'The Organization API knows no entity with this key. Turn on "Return Empty Result When Not Found" to get no item instead of an error.',
			},
		);
	}
	return shapeRows(rows, output);
}

export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const orgResource = resourceNamed(this, resource);
	return await executePerItem(
		this,
		async (itemIndex) => await getOne(this, orgResource, itemIndex),
	);
}
