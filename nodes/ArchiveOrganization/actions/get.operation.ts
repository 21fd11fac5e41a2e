import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeGroupedLookups } from '../../shared/n8n/groupedLookups';
import { RESOURCES, resourceNamed } from '../api/resources';
import { batchedGet } from './batchedGet';
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
	return await executeGroupedLookups(this, batchedGet(this, resourceNamed(this, resource)));
}
