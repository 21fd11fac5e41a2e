import type { INodeProperties } from 'n8n-workflow';

import { viewOperationProperty } from '../views/operations';
import type { ViewOperation } from '../views/operations';

export const imageMatchOperations: ViewOperation[] = ['getAll', 'getByPid', 'count'];

export const imageMatchDescription: INodeProperties[] = [viewOperationProperty('image_matches', imageMatchOperations, 'getAll')];
