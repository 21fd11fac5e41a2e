import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** What an operation returns for one input item: plain objects, or items when binary data is attached. */
export type OperationResult = IDataObject[] | INodeExecutionData[];

function isExecutionData(entry: IDataObject | INodeExecutionData): entry is INodeExecutionData {
	return (
		typeof (entry as INodeExecutionData).json === 'object' &&
		(entry as INodeExecutionData).json !== null
	);
}

/** Every output item says which input item it came from. */
export function pairResults(result: OperationResult, itemIndex: number): INodeExecutionData[] {
	return result.map((entry) =>
		isExecutionData(entry)
			? { ...entry, pairedItem: { item: itemIndex } }
			: { json: entry, pairedItem: { item: itemIndex } },
	);
}

/** The output item for a failed input item when the node is set to continue on fail. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: (error as Error).message ?? String(error) };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description !== '') json.errorDescription = description;
	const httpCode = (error as { httpCode?: unknown }).httpCode;
	if (typeof httpCode === 'string' && httpCode !== '') json.httpCode = httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/** Errors that are already n8n errors keep their class; anything else becomes a NodeOperationError for the item. */
export function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** Runs `operation` for every input item, pairs each output item with its input, honours Continue On Fail. */
export async function executePerItem(
	ctx: IExecuteFunctions,
	operation: (itemIndex: number) => Promise<OperationResult>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	const itemCount = ctx.getInputData().length;
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			output.push(...pairResults(await operation(itemIndex), itemIndex));
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, itemIndex);
			output.push(errorItem(error, itemIndex));
		}
	}
	return output;
}
