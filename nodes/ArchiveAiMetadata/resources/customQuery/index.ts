import type { INodeProperties } from 'n8n-workflow';

import { customQueryProperties } from './execute';

export const customQueryDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customQuery'] } },
		options: [
			{
				name: 'Execute',
				value: 'execute',
				action: 'Run a custom query',
				description:
					'Run any read-only GraphQL query with variables against the AI metadata API, for needs the other operations do not cover',
			},
		],
		default: 'execute',
	},
	...customQueryProperties,
];
