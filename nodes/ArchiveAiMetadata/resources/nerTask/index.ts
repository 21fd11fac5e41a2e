import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const nerTaskOperations: ViewOperation[] = ['get', 'getAll', 'getByPid', 'count', 'downloadFiles'];

export const nerTaskDescription: INodeProperties[] = [viewOperationProperty('ner_tasks', nerTaskOperations, 'getAll')];
