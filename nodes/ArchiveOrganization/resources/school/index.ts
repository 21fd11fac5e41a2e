import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandlers } from '../types';
import * as get from './get';
import * as getMany from './getMany';

export const schoolDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['school'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a school',
				description: 'Get one school (educational partner) by its school ID or IRI',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many schools',
				description: 'List schools and educational organizations of the sector Onderwijs, ordered by IRI',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];

export const schoolOperations: OperationHandlers = {
	get: get.execute,
	getMany: getMany.execute,
};
