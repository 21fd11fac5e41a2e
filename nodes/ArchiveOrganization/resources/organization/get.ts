import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getOperationProperties } from '../../helpers/descriptions';
import { runGet } from '../../helpers/operations';
import { RESOURCES } from '../../helpers/resources';

const resource = RESOURCES.organization;

export const description: INodeProperties[] = getOperationProperties(resource);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await runGet(this, resource, itemIndex);
}
