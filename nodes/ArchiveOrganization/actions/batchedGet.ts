import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { GraphqlClient } from '../../shared/graphql/client';
import { buildAliasedLookupQuery } from '../../shared/graphql/documents';
import type { AliasedLookup } from '../../shared/graphql/documents';
import { chunk, mapWithConcurrency } from '../../shared/concurrency';
import type { GroupResults, ReadItem } from '../../shared/n8n/executeGrouped';
import { markFound, NotFoundOutputs } from '../../shared/n8n/notFound';
import type { WhenNotFound } from '../../shared/n8n/notFound';
import {
	argumentTypeOf,
	assertFitsSchema,
	requireRootField,
	selectedFieldPaths,
} from '../api/query';
import type { RootField } from '../api/fieldPaths';
import type { LookupKey, OrgResource, OutputSettings } from '../api/resources';
import { openOrganizationApi, operationName } from '../api/session';
import { readGetSettings, readOutputSettings, readRequestSettings } from './parameters';
import type { RequestSettings } from './parameters';
import { presentRows, rowsOf, shapeRows } from './request';

/**
 * Keys per request. The Organization API (Apollo Server 4) takes one id or iri per root-field call, so a request
 * carries one alias per key, and the real service resolves each alias with a SPARQL query of its own, all at once.
 * 50 keeps one request to the scale of a single Get Many page (a few dozen rows, a few hundred KB at most with Raw
 * output) and the store's load at 50 x Max Concurrent Requests small keyed queries (200 at the default of 4),
 * while 500 distinct partners still take only 10 requests.
 */
export const KEYS_PER_REQUEST = 50;

/** What shapes the requests: items that agree on all of it share them. */
interface GetShape {
	request: RequestSettings;
	output: OutputSettings;
}

interface GetKey {
	lookupKey: LookupKey;
	lookupValue: string;
}

/** One item's Get: the shape its group shares, and the key it asks for. */
interface GetRequest {
	/** Items with the same shapeId are answered by the same requests. */
	shapeId: string;
	shape: GetShape;
	/** Items with the same keyId in one group share one answer. */
	keyId: string;
	key: GetKey;
	whenNotFound: WhenNotFound;
}

/** The answer for one distinct key: its rows, or the error that belongs to that key only. */
type KeyAnswer = { value: unknown } | { error: unknown };

function shapeIdOf({ request, output }: GetShape): string {
	return JSON.stringify([
		request.method,
		request.maxRetries,
		request.concurrency,
		output.output,
		output.customFields,
		output.flatten,
	]);
}

/** One item's Get, read and checked as before (every parameter error fires before any request). */
export function readGetRequest(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	itemIndex: number,
): GetRequest {
	const request = readRequestSettings(ctx, itemIndex);
	const output = readOutputSettings(ctx, itemIndex, resource);
	const { lookupKey, lookupValue, whenNotFound } = readGetSettings(ctx, itemIndex, resource);
	const shape = { request, output };
	return {
		shapeId: shapeIdOf(shape),
		shape,
		keyId: `${lookupKey}:${lookupValue}`,
		key: { lookupKey, lookupValue },
		whenNotFound,
	};
}

interface BatchQuery {
	ctx: IExecuteFunctions;
	schema: GraphQLSchema;
	root: RootField;
	resource: OrgResource;
	fields: string[];
	itemIndex: number;
}

/** `k0: <rootField>(id: $k0, offset: 0) { ... } k1: ...`, checked against the schema before it is sent. */
function aliasedDocument(
	query: BatchQuery,
	keys: Array<{ keyId: string; key: GetKey }>,
): DocumentNode {
	const { ctx, schema, root, resource, itemIndex } = query;
	const lookups: AliasedLookup[] = keys.map(({ key }, index) => ({
		alias: `k${index}`,
		argument: {
			name: key.lookupKey,
			type: argumentTypeOf(ctx, root, resource, key.lookupKey, itemIndex),
		},
	}));
	const document = buildAliasedLookupQuery({
		operationName: operationName('Get', resource),
		rootField: resource.rootField,
		lookups,
		// Results are only ordered with an offset: sent on every call, as for a single Get.
		constantArguments: { offset: 0 },
		fields: query.fields,
	});
	assertFitsSchema(ctx, schema, document, resource, itemIndex);
	return document;
}

/** One batch of keys and its document. */
interface Batch {
	keys: Array<{ keyId: string; key: GetKey }>;
	document: DocumentNode;
}

/** One request for a batch of keys; a failure of the whole request is the answer of each of its keys. */
async function fetchBatch(
	client: GraphqlClient,
	query: BatchQuery,
	{ keys, document }: Batch,
): Promise<Array<[string, KeyAnswer]>> {
	const variables = Object.fromEntries(
		keys.map(({ key }, index) => [`k${index}`, key.lookupValue]),
	);
	try {
		const { data, fieldErrors } = await client.requestPerRootField(
			{ document, variables },
			query.itemIndex,
		);
		return keys.map(({ keyId }, index): [string, KeyAnswer] => {
			const fieldError = fieldErrors.get(`k${index}`);
			return [keyId, fieldError ? { error: fieldError } : { value: rowsOf(data, `k${index}`) }];
		});
	} catch (error) {
		return keys.map(({ keyId }): [string, KeyAnswer] => [keyId, { error }]);
	}
}

/** The distinct keys of one group, KEYS_PER_REQUEST per request, Max Concurrent Requests of them in flight. */
async function fetchKeys(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	shape: GetShape,
	keys: Array<{ keyId: string; key: GetKey }>,
	itemIndex: number,
): Promise<Map<string, KeyAnswer>> {
	const { client, schema } = await openOrganizationApi(ctx, shape.request, itemIndex);
	const root = requireRootField(ctx, schema, resource, itemIndex);
	const fields = selectedFieldPaths(ctx, root, resource, shape.output, itemIndex);
	const query: BatchQuery = { ctx, schema, root, resource, fields, itemIndex };
	// Each document is built (and checked) once, before any is sent: a document the schema refuses fails the whole
	// group, unsent.
	const batches = chunk(keys, KEYS_PER_REQUEST).map(
		(batch): Batch => ({ keys: batch, document: aliasedDocument(query, batch) }),
	);
	const answers = await mapWithConcurrency(
		batches,
		shape.request.concurrency,
		async (batch) => await fetchBatch(client, query, batch),
	);
	return new Map(answers.flat());
}

/**
 * The item's rows from its key's answer. The API answers `[null]` for an unknown iri and `[]` for an unknown id:
 * no row is "not found", an error naming the resource and key unless the item asks for no item instead.
 */
function presentGetRows(
	resource: OrgResource,
	request: GetRequest,
	value: unknown,
	itemIndex: number,
	notFound: NotFoundOutputs,
): IDataObject[] | Error {
	const rows = presentRows(Array.isArray(value) ? value : []);
	if (rows.length > 0)
		return shapeRows(rows, request.shape.output).map((row) => markFound(row, request.whenNotFound));
	const lookup = {
		noun: resource.singular,
		key: request.key.lookupKey,
		value: request.key.lookupValue,
	};
	return notFound.of(request.whenNotFound, lookup, itemIndex);
}

/** Get for one group of items that share a shape: its distinct keys fetched in aliased batches, each item its rows. */
export async function getGroup(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	items: Array<ReadItem<GetRequest>>,
): Promise<GroupResults> {
	const first = items[0];
	const keys = new Map<string, GetKey>();
	for (const { parameters } of items) keys.set(parameters.keyId, parameters.key);
	const answers = await fetchKeys(
		ctx,
		resource,
		first.parameters.shape,
		[...keys].map(([keyId, key]) => ({ keyId, key })),
		first.itemIndex,
	);
	const results: GroupResults = new Map();
	const notFound = new NotFoundOutputs(ctx);
	for (const { itemIndex, parameters } of items) {
		const answer = answers.get(parameters.keyId);
		try {
			if (answer === undefined) throw new Error(`internal: no answer for key ${parameters.keyId}`);
			if ('error' in answer) throw answer.error;
			results.set(
				itemIndex,
				presentGetRows(resource, parameters, answer.value, itemIndex, notFound),
			);
		} catch (error) {
			results.set(itemIndex, error as Error);
		}
	}
	notFound.hint();
	return results;
}
