import type { GraphQLSchema } from 'graphql';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fetchAllByOffset } from '../../shared/graphql/pagination';
import type { GraphqlClient } from '../../shared/graphql/client';
import { assertValidAgainstSchema, buildViewQuery } from './documents';
import { withDocumentedNamesHint } from './introspection';
import type { ParameterNames } from './documents';
import { stableOrderBy } from './views';
import type { ResolvedView } from './views';

export interface ReadRequest {
	view: ResolvedView;
	where: IDataObject;
	/** The user's order; the view's unique key is appended so paging is stable. */
	orderBy: Array<Record<string, string>>;
	fields: string[];
	pageSize: number;
	concurrency: number;
	/** Limit mode; undefined = every row. */
	maxRows?: number;
}

/**
 * Reads rows of one view with limit/offset pages in a total order (user's sort + unique key), checked against the
 * live schema first when there is one. Pages run concurrently up to `concurrency` and come back in offset order.
 */
export async function readRows(
	ctx: IExecuteFunctions,
	client: GraphqlClient,
	schema: GraphQLSchema | undefined,
	itemIndex: number,
	request: ReadRequest,
	names: ParameterNames,
): Promise<IDataObject[]> {
	const { view } = request;
	const document = buildViewQuery(view, {
		operationName: 'ReadRows',
		rootField: view.rootField,
		arguments: ['where', 'order_by', 'limit', 'offset'],
		fields: request.fields,
	});
	const orderBy = stableOrderBy(view, request.orderBy);
	const pageSize =
		request.maxRows === undefined ? request.pageSize : Math.min(request.pageSize, request.maxRows);
	const variablesFor = (offset: number, limit: number): IDataObject => ({
		where: request.where,
		order_by: orderBy,
		limit,
		offset,
	});
	if (schema)
		assertValidAgainstSchema(ctx, itemIndex, schema, document, variablesFor(0, pageSize), names);
	try {
		return await readPages();
	} catch (error) {
		throw withDocumentedNamesHint(error, view);
	}

	async function readPages(): Promise<IDataObject[]> {
		return await fetchAllByOffset(
			async (offset, limit, signal) => {
				// The signal cancels pages sent ahead that turn out not to be needed (the data ended earlier).
				const data = await client.request<Record<string, IDataObject[]>>(
					{ document, variables: variablesFor(offset, limit) },
					itemIndex,
					signal,
				);
				return data[view.rootField] ?? [];
			},
			{ pageSize, concurrency: request.concurrency, maxRows: request.maxRows },
		);
	}
}
