import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError, errorItem, pairResults } from './executePerItem';
import type { OperationResult } from './executePerItem';

/** An input item whose parameters were read. */
export interface ReadItem<P> {
	itemIndex: number;
	parameters: P;
}

/** What a group returns for each of its items: its result, or the error it alone gets. */
export type GroupResults = Map<number, OperationResult | Error>;

interface GroupedOperation<P> {
	/** Reads and checks one item's parameters (before any request); an error fails that item only. */
	read: (itemIndex: number) => P;
	/** Items with the same key are served together; items whose parameters differ land in different groups. */
	groupKey: (parameters: P) => string;
	/** Serves one group, e.g. with one request for all distinct ids; an error thrown fails every item of the group. */
	run: (items: Array<ReadItem<P>>) => Promise<GroupResults>;
}

/**
 * Look-ups batched across input items: every item's parameters are read first, items that ask alike are grouped,
 * each group is served at once, and the output comes back in input order, each item paired with its input. With
 * Continue On Fail each failed item becomes an error item. Without it an item whose parameters fail stops the run
 * before any request, and otherwise the first failure in input order is thrown.
 */
export async function executeGrouped<P>(
	ctx: IExecuteFunctions,
	operation: GroupedOperation<P>,
): Promise<INodeExecutionData[]> {
	const itemCount = ctx.getInputData().length;
	const outcomes = new Array<OperationResult | Error>(itemCount);
	const groups = new Map<string, Array<ReadItem<P>>>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const parameters = operation.read(itemIndex);
			const key = operation.groupKey(parameters);
			const group = groups.get(key) ?? [];
			group.push({ itemIndex, parameters });
			groups.set(key, group);
		} catch (error) {
			// Without Continue On Fail the run fails anyway: before any request is sent.
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, itemIndex);
			outcomes[itemIndex] = asNodeError(ctx, error, itemIndex);
		}
	}
	for (const items of groups.values()) {
		try {
			const results = await operation.run(items);
			for (const { itemIndex } of items) {
				const result = results.get(itemIndex);
				outcomes[itemIndex] =
					result === undefined
						? noResult(ctx, itemIndex)
						: result instanceof Error
							? asNodeError(ctx, result, itemIndex)
							: result;
			}
		} catch (error) {
			for (const { itemIndex } of items) outcomes[itemIndex] = asNodeError(ctx, error, itemIndex);
		}
	}
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome instanceof Error) {
			if (!ctx.continueOnFail()) throw ofItem(outcome, itemIndex);
			output.push(errorItem(outcome, itemIndex));
		} else {
			output.push(...pairResults(outcome, itemIndex));
		}
	}
	return output;
}

/** A group's run that leaves one of its items without a result is a defect: that item fails instead of vanishing. */
function noResult(ctx: IExecuteFunctions, itemIndex: number): Error {
	return new NodeOperationError(
		ctx.getNode(),
		`Internal error: item ${itemIndex} got no result from its group's look-up`,
		{ itemIndex, description: 'This is a defect of the node; please report it.' },
	);
}

/** The error thrown for the first failing item: it names that item, also when its group or key shared the error. */
function ofItem(error: Error, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError)
		error.context.itemIndex = itemIndex;
	return error;
}
