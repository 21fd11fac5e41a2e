import type { INodeProperties } from 'n8n-workflow';

import type { OperationHandlers } from '../types';
import * as get from './get';
import * as getMany from './getMany';

export const contentPartnerDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contentPartner'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a content partner',
				description: 'Get one content partner (an organization that archives content) by its ID (OR-...) or IRI',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many content partners',
				description: 'List content partners ordered by IRI, all of them or up to a limit',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];

export const contentPartnerOperations: OperationHandlers = {
	get: get.execute,
	getMany: getMany.execute,
};
