import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const refsetPersonOperations: ViewOperation[] = ['get', 'getAll', 'count'];

export const refsetPersonDescription: INodeProperties[] = [viewOperationProperty('refset_persons', refsetPersonOperations, 'getAll')];
