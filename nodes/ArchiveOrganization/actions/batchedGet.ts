import type { DocumentNode } from 'graphql';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildAliasedLookupQuery } from '../../shared/graphql/documents';
import type { AliasedLookup } from '../../shared/graphql/documents';
import { chunk, mapWithConcurrency } from '../../shared/concurrency';
import type { GroupResults, ReadItem } from '../../shared/n8n/executeGrouped';
import { markFound, NotFoundOutputs } from '../../shared/n8n/notFound';
import { argumentTypeOf, checked, openQuery, presentRows, rowsOf, shapeRows } from '../api/query';
import type { OrgQuery } from '../api/query';
import type { OrgResource, Settings } from '../api/resources';
import { operationName } from '../api/session';
import type { GetParameters, Lookup } from './parameters';

/**
 * Keys per request. The Organization API (Apollo Server 4) takes one id or iri per root-field call, so a request
 * carries one alias per key, and the real service resolves each alias with a SPARQL query of its own, all at once.
 * 50 keeps one request to the scale of a single Get Many page and the store's load at 50 x Max Concurrent Requests
 * small keyed queries (200 at the default of 4), while 500 distinct partners still take only 10 requests.
 */
export const KEYS_PER_REQUEST = 50;

/** Items that agree on this share requests. */
export function shapeOf({ request, output }: Settings): string {
	return JSON.stringify([
		request.method,
		request.maxRetries,
		request.concurrency,
		output.output,
		output.customFields,
		output.flatten,
	]);
}

/** Items with the same key share one answer. */
const keyOf = (lookup: Lookup) => `${lookup.lookupKey}:${lookup.lookupValue}`;

/** The answer for one distinct key: its rows, or the error that belongs to that key only. */
type KeyAnswer = { rows: IDataObject[] } | { error: unknown };

/** `k0: <rootField>(id: $k0, offset: 0) { ... } k1: ...`, checked against the schema before it is sent. */
function aliasedDocument(query: OrgQuery, keys: Lookup[]): DocumentNode {
	const lookups = keys.map(
		({ lookupKey }, index): AliasedLookup => ({
			alias: `k${index}`,
			argument: { name: lookupKey, type: argumentTypeOf(query, lookupKey) },
		}),
	);
	const document = buildAliasedLookupQuery({
		operationName: operationName('Get', query.resource),
		rootField: query.resource.rootField,
		lookups,
		// Results are only ordered with an offset: sent on every call, as for a single Get.
		constantArguments: { offset: 0 },
		fields: query.fields,
	});
	return checked(query, document);
}

/** One request for a batch of keys; a failure of the whole request is the answer of each of its keys. */
async function fetchBatch(
	query: OrgQuery,
	keys: Lookup[],
	document: DocumentNode,
): Promise<Array<[string, KeyAnswer]>> {
	const variables = Object.fromEntries(keys.map((key, index) => [`k${index}`, key.lookupValue]));
	try {
		const { data, fieldErrors } = await query.client.requestPerRootField(
			{ document, variables },
			query.itemIndex,
		);
		return keys.map((key, index): [string, KeyAnswer] => {
			const error = fieldErrors.get(`k${index}`);
			return [keyOf(key), error ? { error } : { rows: presentRows(rowsOf(data, `k${index}`)) }];
		});
	} catch (error) {
		return keys.map((key): [string, KeyAnswer] => [keyOf(key), { error }]);
	}
}

/**
 * Get for one group of items that share a shape: its distinct keys, KEYS_PER_REQUEST per aliased request and Max
 * Concurrent Requests of them in flight, and each item its rows.
 */
export async function getGroup(
	ctx: IExecuteFunctions,
	resource: OrgResource,
	items: Array<ReadItem<GetParameters>>,
): Promise<GroupResults> {
	const [first] = items;
	const keys = new Map(items.map(({ parameters }) => [keyOf(parameters), parameters]));
	const query = await openQuery(ctx, resource, first.parameters, first.itemIndex);
	// Every document is built and checked before any is sent: one the schema refuses fails the group, unsent.
	const batches = chunk([...keys.values()], KEYS_PER_REQUEST).map((batch) => ({
		batch,
		document: aliasedDocument(query, batch),
	}));
	const answered = await mapWithConcurrency(
		batches,
		first.parameters.request.concurrency,
		async ({ batch, document }) => await fetchBatch(query, batch, document),
	);
	const answers = new Map(answered.flat());
	const results: GroupResults = new Map();
	const notFound = new NotFoundOutputs(ctx);
	for (const { itemIndex, parameters: get } of items) {
		// Every distinct key was asked for, so every key has an answer.
		const answer = answers.get(keyOf(get)) as KeyAnswer;
		if ('error' in answer) {
			results.set(itemIndex, answer.error as Error);
		} else if (answer.rows.length > 0) {
			const rows = shapeRows(answer.rows, get.output).map((row) =>
				markFound(row, get.whenNotFound),
			);
			results.set(itemIndex, rows);
		} else {
			// The API answers `[null]` for an unknown iri and `[]` for an unknown id.
			const lookup = { noun: resource.singular, key: get.lookupKey, value: get.lookupValue };
			results.set(itemIndex, notFound.of(get.whenNotFound, lookup, itemIndex));
		}
	}
	notFound.hint();
	return results;
}
