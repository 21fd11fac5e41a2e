import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const speechTaskOperations: ViewOperation[] = ['get', 'getAll', 'getByPid', 'count', 'downloadFiles'];

export const speechTaskDescription: INodeProperties[] = [viewOperationProperty('speech_tasks', speechTaskOperations, 'getAll')];
