import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandlers } from '../types';
import * as get from './get';
import * as getMany from './getMany';

export const personDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['person'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a person',
				description: 'Get one person (staff member or account manager) by IRI',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many persons',
				description: 'List persons, all of them or filtered by given and family name, ordered by IRI',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];

export const personOperations: OperationHandlers = {
	get: get.execute,
	getMany: getMany.execute,
};
