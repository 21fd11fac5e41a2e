import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError, errorItem, pairResults } from './executePerItem';

/**
 * Per-item look-ups done in batches: every item's parameters are read first (so a bad parameter fails before any
 * request), items whose request-shaping parameters are equal form a group, each group fetches its distinct keys
 * once, and every item gets back exactly its own rows, paired with it, in input order.
 */

/** What one item asks for, as its parameters say. */
export interface LookupRequest<TShape, TKey> {
	/** Items with the same `shapeId` are answered by the same requests (e.g. output, fields, request method). */
	shapeId: string;
	shape: TShape;
	/** Items with the same `keyId` in one group share one answer. */
	keyId: string;
	key: TKey;
}

/** The answer for one distinct key: what the API returned for it, or the error that belongs to that key only. */
export type KeyAnswer = { value: unknown } | { error: unknown };

export interface GroupedLookup<
	TShape,
	TKey,
	TRequest extends LookupRequest<TShape, TKey> = LookupRequest<TShape, TKey>,
> {
	/** Reads and checks one item's parameters; throws the item's parameter error. */
	read(itemIndex: number): TRequest;
	/**
	 * Fetches the distinct keys of one group (`firstItemIndex` is its first item, for errors that happen before
	 * any key is asked for). Answers by keyId; a throw fails every item of the group.
	 */
	fetch(
		shape: TShape,
		keys: Array<{ keyId: string; key: TKey }>,
		firstItemIndex: number,
	): Promise<Map<string, KeyAnswer>>;
	/** The item's rows from its key's answer; throws the item's error (e.g. not found). */
	present(request: TRequest, value: unknown, itemIndex: number): IDataObject[];
}

type ItemOutcome<TRequest> = { request: TRequest } | { error: unknown };

/** An error that may be shared by several items, as the error of this one (n8n names the item from its context). */
function errorOfItem(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	const nodeError = asNodeError(ctx, error, itemIndex);
	if (nodeError instanceof NodeApiError || nodeError instanceof NodeOperationError) {
		nodeError.context.itemIndex = itemIndex;
	}
	return nodeError;
}

/**
 * Reads every item's parameters. Without Continue On Fail, reading stops at the first bad item: the items after it
 * are never looked up, and the ones before it are (the first failing item in input order is the one reported).
 */
function readRequests<TShape, TKey, TRequest extends LookupRequest<TShape, TKey>>(
	ctx: IExecuteFunctions,
	lookup: GroupedLookup<TShape, TKey, TRequest>,
	continueOnFail: boolean,
): Array<ItemOutcome<TRequest>> {
	const outcomes: Array<ItemOutcome<TRequest>> = [];
	const itemCount = ctx.getInputData().length;
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			outcomes.push({ request: lookup.read(itemIndex) });
		} catch (error) {
			outcomes.push({ error });
			if (!continueOnFail) break;
		}
	}
	return outcomes;
}

/** Item indexes per shape, in input order. */
function groupByShape<TRequest extends LookupRequest<unknown, unknown>>(
	outcomes: Array<ItemOutcome<TRequest>>,
): Map<string, number[]> {
	const groups = new Map<string, number[]>();
	outcomes.forEach((outcome, itemIndex) => {
		if (!('request' in outcome)) return;
		const members = groups.get(outcome.request.shapeId) ?? [];
		members.push(itemIndex);
		groups.set(outcome.request.shapeId, members);
	});
	return groups;
}

function distinctKeys<TKey, TRequest extends LookupRequest<unknown, TKey>>(
	outcomes: Array<ItemOutcome<TRequest>>,
	members: number[],
): Array<{ keyId: string; key: TKey }> {
	const keys = new Map<string, TKey>();
	for (const itemIndex of members) {
		const { request } = outcomes[itemIndex] as { request: TRequest };
		if (!keys.has(request.keyId)) keys.set(request.keyId, request.key);
	}
	return [...keys].map(([keyId, key]) => ({ keyId, key }));
}

/**
 * Runs grouped look-ups and gives each input item its rows. Groups are fetched one after another (each fetch runs
 * its own requests in parallel); an item's error becomes its error item with Continue On Fail, otherwise the first
 * failing item in input order throws.
 */
export async function executeGroupedLookups<
	TShape,
	TKey,
	TRequest extends LookupRequest<TShape, TKey>,
>(
	ctx: IExecuteFunctions,
	lookup: GroupedLookup<TShape, TKey, TRequest>,
): Promise<INodeExecutionData[]> {
	const continueOnFail = ctx.continueOnFail();
	const outcomes = readRequests(ctx, lookup, continueOnFail);
	const answers = new Map<string, Map<string, KeyAnswer> | { groupError: unknown }>();
	for (const [shapeId, members] of groupByShape(outcomes)) {
		const { shape } = (outcomes[members[0]] as { request: TRequest }).request;
		try {
			answers.set(shapeId, await lookup.fetch(shape, distinctKeys(outcomes, members), members[0]));
		} catch (error) {
			answers.set(shapeId, { groupError: error });
		}
	}

	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		try {
			if ('error' in outcome) throw outcome.error;
			const { request } = outcome;
			const groupAnswers = answers.get(request.shapeId);
			if (groupAnswers === undefined) throw new Error('internal: the group was not fetched');
			if ('groupError' in groupAnswers) throw groupAnswers.groupError;
			const answer = groupAnswers.get(request.keyId);
			if (answer === undefined) throw new Error(`internal: no answer for key ${request.keyId}`);
			if ('error' in answer) throw answer.error;
			output.push(...pairResults(lookup.present(request, answer.value, itemIndex), itemIndex));
		} catch (error) {
			if (!continueOnFail) throw errorOfItem(ctx, error, itemIndex);
			output.push(errorItem(error, itemIndex));
		}
	});
	return output;
}

/**
 * Runs `task` for every entry with at most `concurrency` in flight; results keep the entries' order. The first
 * failure rejects after the tasks in flight settle (none is left running unobserved).
 */
export async function mapConcurrently<T, R>(
	entries: T[],
	concurrency: number,
	task: (entry: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(entries.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < entries.length) {
			const index = next++;
			try {
				results[index] = await task(entries[index], index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	const workers = Math.max(1, Math.min(concurrency, entries.length));
	await Promise.all(Array.from({ length: workers }, worker));
	if (failure) throw failure.error;
	return results;
}
