import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const faceTaskOperations: ViewOperation[] = ['get', 'getAll', 'getByPid', 'count'];

export const faceTaskDescription: INodeProperties[] = [viewOperationProperty('face_tasks', faceTaskOperations, 'getAll')];
