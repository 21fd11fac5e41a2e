import { NodeOperationError } from 'n8n-workflow';
import type { INodeExecutionData, INodeProperties, IExecuteFunctions } from 'n8n-workflow';

import { executePerItem } from '../../shared/n8n/executePerItem';
import { assertValidAgainstSchema, withParameterNamed, buildViewQuery } from '../api/documents';
import { withDocumentedNamesHint } from '../api/client';
import { viewKeyOf } from '../api/views';
import {
	ALL_VIEW_RESOURCES,
	optionsCollection,
	readOptions,
	retriesOption,
	showFor,
} from './common';
import { ADVANCED_FILTER_NAME, buildWhere, readFilters } from './filters';
import { AiSession } from '../api/viewSource';

export const description: INodeProperties[] = [
	optionsCollection(showFor(ALL_VIEW_RESOURCES, ['count']), [retriesOption]),
];

type AggregateData = Record<string, { aggregate?: { count?: number } }>;

/**
 * Count: `<view>_aggregate(where) { aggregate { count } }`, where the account may aggregate.
 * @public
 */
export async function execute(
	this: IExecuteFunctions,
	resource: string,
): Promise<INodeExecutionData[]> {
	const session = new AiSession(this);
	const viewKey = viewKeyOf(this, resource);
	return await executePerItem(this, async (itemIndex) => {
		const { maxRetries } = readOptions(this, itemIndex);
		const filters = readFilters(this, itemIndex);
		const connection = await session.openView(viewKey, maxRetries, itemIndex);
		const { view } = connection;
		const aggregateField = view.aggregateField;
		if (!aggregateField) {
			throw new NodeOperationError(
				this.getNode(),
				`Counting is not available: the API does not expose ${view.rootField}_aggregate for this account`,
				{ itemIndex, description: 'Use Get Many with Return All and count the items instead.' },
			);
		}
		const where = buildWhere(this, itemIndex, view, filters);
		const document = buildViewQuery(view, {
			operationName: 'CountRows',
			rootField: aggregateField,
			arguments: ['where'],
			fields: ['aggregate.count'],
		});
		const names = { selection: 'Filters', variables: { where: ADVANCED_FILTER_NAME } };
		if (connection.schema)
			assertValidAgainstSchema(this, itemIndex, connection.schema, document, { where }, names);
		const data = await connection.client
			.request<AggregateData>({ document, variables: { where } }, itemIndex)
			.catch((error: unknown) => {
				throw withDocumentedNamesHint(withParameterNamed(error, names), view);
			});
		const count = data[aggregateField]?.aggregate?.count;
		return [{ view: view.rootField, count: typeof count === 'number' ? count : null }];
	});
}
