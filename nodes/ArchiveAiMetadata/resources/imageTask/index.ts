import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const imageTaskOperations: ViewOperation[] = ['get', 'getAll', 'getByPid', 'count'];

export const imageTaskDescription: INodeProperties[] = [viewOperationProperty('image_tasks', imageTaskOperations, 'getAll')];
