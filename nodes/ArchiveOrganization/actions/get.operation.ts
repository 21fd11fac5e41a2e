import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeGrouped } from '../../shared/n8n/executeGrouped';
import { RESOURCES, resourceNamed } from '../api/resources';
import { getGroup, readGetRequest } from './batchedGet';
import { getOperationProperties } from './descriptions';

export const description: INodeProperties[] =
	Object.values(RESOURCES).flatMap(getOperationProperties);

/**
 * Get: the entity with each item's id or iri. Items with the same request settings share requests: their distinct
 * keys go out in aliased batches (see batchedGet.ts), and each item gets its own row back. Nothing found is an error
 * naming the resource and key, or no output item when "Return Empty Result When Not Found" is on.
 */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const orgResource = resourceNamed(this, resource);
	return await executeGrouped(this, {
		read: (itemIndex) => readGetRequest(this, orgResource, itemIndex),
		groupKey: (request) => request.shapeId,
		run: async (items) => await getGroup(this, orgResource, items),
	});
}
