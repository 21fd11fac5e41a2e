import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getManyOperationProperties } from '../../helpers/descriptions';
import { runGetMany } from '../../helpers/operations';
import { RESOURCES } from '../../helpers/resources';

const resource = RESOURCES.school;

export const description: INodeProperties[] = getManyOperationProperties(resource);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await runGetMany(this, resource, itemIndex);
}
