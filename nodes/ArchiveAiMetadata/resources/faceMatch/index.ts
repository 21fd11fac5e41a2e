import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const faceMatchOperations: ViewOperation[] = ['getAll', 'getByPid', 'count'];

export const faceMatchDescription: INodeProperties[] = [viewOperationProperty('face_matches', faceMatchOperations, 'getAll')];
