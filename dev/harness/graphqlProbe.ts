import { parse } from 'graphql';
import { NodeConnectionTypes } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { fetchAllByOffset } from '../../nodes/shared/graphql/pagination';
import { GraphqlClient } from '../../nodes/shared/graphql/client';
import type { GraphqlService } from '../../nodes/shared/graphql/client';

/**
 * A minimal node that sends the GraphQL query in its parameters through the package's shared transport, so the
 * credential types, the token flow and the transport can be tested inside real n8n-core before any product node.
 * With `pageField` set it pages that root field with fetchAllByOffset (`$limit`/`$offset` variables).
 */
export function graphqlProbe(service: GraphqlService): INodeType {
	return {
		description: {
			displayName: 'GraphQL Probe',
			name: 'graphqlProbe',
			group: ['transform'],
			version: 1,
			description: 'Test node',
			defaults: { name: 'GraphQL Probe' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: service.credentialType, required: true }],
			properties: [
				{ displayName: 'Query', name: 'query', type: 'string', default: '' },
				{ displayName: 'Method', name: 'method', type: 'string', default: 'POST' },
				{ displayName: 'Page Field', name: 'pageField', type: 'string', default: '' },
				{ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 100 },
				{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 4 },
				{ displayName: 'Max Retries', name: 'maxRetries', type: 'number', default: 5 },
			],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const out: INodeExecutionData[] = [];
			for (let i = 0; i < this.getInputData().length; i++) {
				const client = await GraphqlClient.create(this, service, {
					method: this.getNodeParameter('method', i) as 'POST' | 'GET',
					retry: {
						maxRetries: this.getNodeParameter('maxRetries', i) as number,
						baseDelayMs: 20,
						maxDelayMs: 2000,
					},
				});
				const document = parse(this.getNodeParameter('query', i) as string);
				const pageField = this.getNodeParameter('pageField', i) as string;
				if (pageField) {
					const rows = await fetchAllByOffset(
						async (offset, limit, signal) =>
							(
								await client.request<IDataObject>(
									{ document, variables: { offset, limit } },
									i,
									signal,
								)
							)[pageField] as IDataObject[],
						{
							pageSize: this.getNodeParameter('pageSize', i) as number,
							concurrency: this.getNodeParameter('concurrency', i) as number,
						},
					);
					out.push({ json: { rows }, pairedItem: { item: i } });
				} else {
					out.push({
						json: { data: await client.request({ document }, i) },
						pairedItem: { item: i },
					});
				}
			}
			return [out];
		},
	};
}
