import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/n8n/descriptions';
import type { ActionRoutes } from '../../shared/n8n/router';
import type { AiViewKey } from '../api/views';
import * as count from './count.operation';
import * as customQuery from './customQuery.operation';
import * as downloadFiles from './downloadFiles.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getByPid from './getByPid.operation';
import { viewOperationProperty } from './operations';
import type { ViewOperation } from './operations';

export const ROUTES: ActionRoutes = {
	actions: { count, downloadFiles, execute: customQuery, get, getAll, getByPid },
};

/** The operations each view offers; Get Many is every view's default. */
const VIEW_OPERATIONS: Record<AiViewKey, ViewOperation[]> = {
	face_tasks: ['get', 'getAll', 'getByPid', 'count'],
	image_tasks: ['get', 'getAll', 'getByPid', 'count'],
	face_matches: ['getAll', 'getByPid', 'count'],
	image_matches: ['getAll', 'getByPid', 'count'],
	refset_persons: ['get', 'getAll', 'count'],
	speech_tasks: ['get', 'getAll', 'getByPid', 'count', 'downloadFiles'],
	ner_tasks: ['get', 'getAll', 'getByPid', 'count', 'downloadFiles'],
};

const customQueryOperation = operationSelector(
	{ resource: ['customQuery'] },
	[
		{
			name: 'Execute',
			value: 'execute',
			action: 'Run a custom query',
			description:
				'Run any read-only GraphQL query with variables against the AI metadata API, for needs the other operations do not cover',
		},
	],
	'execute',
);

/** One operation selector per resource. */
export const operationProperties: INodeProperties[] = [
	...(Object.keys(VIEW_OPERATIONS) as AiViewKey[]).map((key) =>
		viewOperationProperty(key, VIEW_OPERATIONS[key], 'getAll'),
	),
	customQueryOperation,
];

/** Every operation's parameters, each shown for the resources and operation it belongs to. */
export const operationParameters: INodeProperties[] = [
	...customQuery.description,
	...get.description,
	...getAll.description,
	...getByPid.description,
	...count.description,
	...downloadFiles.description,
];
