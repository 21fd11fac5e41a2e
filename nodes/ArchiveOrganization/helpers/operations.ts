import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fetchAllByOffset } from '../../shared/graphql/pagination';
import { GraphqlClient } from '../../shared/graphql/client';
import { flattenOrganization } from './flatten';
import {
	readGetManySettings,
	readGetSettings,
	readOutputSettings,
	readRequestSettings,
} from './parameters';
import type { OutputSettings, RequestSettings } from './parameters';
import { buildDocument, checkEnumFilters, requireRootField, selectedFieldPaths } from './query';
import { ORGANIZATION_SERVICE } from './resources';
import type { OrgResource } from './resources';
import { schemaForExecution } from './schema';

/** Retries back off from here (doubling, with jitter); a server's Retry-After wins. */
const RETRY_BASE_DELAY_MS = 500;

async function createClient(ctx: IExecuteFunctions, request: RequestSettings): Promise<GraphqlClient> {
	return await GraphqlClient.create(ctx, ORGANIZATION_SERVICE, {
		method: request.method,
		retry: { maxRetries: request.maxRetries, baseDelayMs: RETRY_BASE_DELAY_MS },
	});
}

function operationName(prefix: string, resource: OrgResource, plural: boolean): string {
	const base = resource.name.charAt(0).toUpperCase() + resource.name.slice(1);
	return `${prefix}${base}${plural ? 's' : ''}`;
}

/** The API answers `[null]` for an unknown iri: entries that are not objects are no results. */
function presentRows(rows: unknown[]): IDataObject[] {
	return rows.filter((row): row is IDataObject => typeof row === 'object' && row !== null);
}

function shapeRows(rows: IDataObject[], output: OutputSettings): IDataObject[] {
	return output.flatten ? rows.map(flattenOrganization) : rows;
}

function rowsOf(data: IDataObject, rootField: string): unknown[] {
	const rows = data[rootField];
	return Array.isArray(rows) ? rows : [];
}

/**
 * Get: the entity with this id or iri. `offset` is sent as on every call (results are only ordered with it).
 * Nothing found is an error naming the resource and key, or no output item when "Return Empty Result When Not
 * Found" is on.
 */
export async function runGet(ctx: IExecuteFunctions, resource: OrgResource, itemIndex: number): Promise<IDataObject[]> {
	const request = readRequestSettings(ctx, itemIndex);
	const output = readOutputSettings(ctx, itemIndex, resource);
	const lookup = readGetSettings(ctx, itemIndex, resource);

	const client = await createClient(ctx, request);
	const schema = await schemaForExecution(ctx, client, itemIndex);
	const root = requireRootField(ctx, schema, resource, itemIndex);
	const fields = selectedFieldPaths(ctx, root, resource, output, itemIndex);
	const document = buildDocument(
		ctx,
		schema,
		root,
		resource,
		operationName('Get', resource, false),
		[lookup.lookupKey, 'offset'],
		fields,
		itemIndex,
	);
	const data = await client.request<IDataObject>(
		{ document, variables: { [lookup.lookupKey]: lookup.lookupValue, offset: 0 } },
		itemIndex,
	);
	const rows = presentRows(rowsOf(data, resource.rootField));
	if (rows.length === 0 && !lookup.emptyWhenNotFound) {
		throw new NodeOperationError(
			ctx.getNode(),
			`No ${resource.singular} found with ${lookup.lookupKey} "${lookup.lookupValue}"`,
			{
				itemIndex,
				description:
					'The Organization API knows no entity with this key. Turn on "Return Empty Result When Not Found" to get no item instead of an error.',
			},
		);
	}
	return shapeRows(rows, output);
}

/**
 * Get Many: pages with `offset` (always sent, so the order is stable) and `limit`, several pages in flight,
 * through the server's 500-row cap, until an empty page (Return All) or the limit.
 */
export async function runGetMany(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = readRequestSettings(ctx, itemIndex);
	const output = readOutputSettings(ctx, itemIndex, resource);
	const query = readGetManySettings(ctx, itemIndex, resource);

	const client = await createClient(ctx, request);
	const schema = await schemaForExecution(ctx, client, itemIndex);
	const root = requireRootField(ctx, schema, resource, itemIndex);
	checkEnumFilters(ctx, schema, resource, query.filters, itemIndex);
	const fields = selectedFieldPaths(ctx, root, resource, output, itemIndex);
	const document = buildDocument(
		ctx,
		schema,
		root,
		resource,
		operationName('GetMany', resource, true),
		[...Object.keys(query.filters), 'offset', 'limit'],
		fields,
		itemIndex,
	);
	const rows = await fetchAllByOffset<unknown>(
		async (offset, limit) => {
			const data = await client.request<IDataObject>(
				{ document, variables: { ...query.filters, offset, limit } },
				itemIndex,
			);
			return rowsOf(data, resource.rootField);
		},
		{ pageSize: request.pageSize, concurrency: request.concurrency, maxRows: query.maxRows },
	);
	return shapeRows(presentRows(rows), output);
}
