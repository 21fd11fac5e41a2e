import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandlers } from '../types';
import * as get from './get';
import * as getMany from './getMany';

export const organizationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['organization'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a organization',
				description: 'Get one organization of any kind by its ID (OR-...) or IRI',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many organizations',
				description: 'Search organizations of any kind by label, type or sector, ordered by IRI',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];

export const organizationOperations: OperationHandlers = {
	get: get.execute,
	getMany: getMany.execute,
};
