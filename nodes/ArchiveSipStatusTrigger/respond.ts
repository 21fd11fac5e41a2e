import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { filteredOutBy, type OutputMode } from './delivery';
import { eventsSaved } from './inFlight';
import { readFilters } from './settings';

/** "After the Event Is Saved": n8n saves (in queue mode: queues) the execution before execute() sends the 2xx. */
export const RESPOND_PARAMETER = 'respond';

/** The answer sent from the execution: 204 with no body, as in "Immediately" mode. */
const SAVED_RESPONSE = { body: '', headers: {}, statusCode: 204 } as const;

/** One trigger's records in this process: workflow, node and mode (test deliveries are kept apart). */
export function triggerScope(
	context: Pick<IExecuteFunctions, 'getNode' | 'getWorkflow' | 'getMode'>,
) {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}:${context.getMode()}`;
}

/** The items on their outputs, chosen here: n8n's legacy execution order skips a node whose first input is empty. */
function routeItems(
	items: INodeExecutionData[],
	mode: OutputMode,
	isFilteredOut?: (item: INodeExecutionData) => boolean,
): INodeExecutionData[][] {
	const paired = items.map((item, index) => ({ ...item, pairedItem: { item: index } }));
	const wanted = isFilteredOut ? paired.filter((item) => !isFilteredOut(item)) : paired;
	const main =
		mode === 'single'
			? [wanted]
			: [
					wanted.filter((item) => item.json.outcome !== 'failure'),
					wanted.filter((item) => item.json.outcome === 'failure'),
				];
	return isFilteredOut ? [...main, paired.filter(isFilteredOut)] : main;
}

/** Which items the webhook's filters sent to "Filtered Out"; undefined when that output is off. */
function filteredOutTest(context: IExecuteFunctions) {
	const options: IDataObject = context.getNodeParameter('options', 0, {});
	if (options.sendFilteredOut !== true) return undefined;
	const filters = readFilters((name, fallback) => context.getNodeParameter(name, 0, fallback));
	return (item: INodeExecutionData) => filteredOutBy(item.json, filters) !== undefined;
}

export async function executeTrigger(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const ids = items
		.map((item) => item.json.webhook_id)
		.filter((id): id is string => typeof id === 'string');
	if (this.getNodeParameter(RESPOND_PARAMETER, 0, 'immediately') === 'afterSaved') {
		// Typed as void, but n8n returns the hook's promise: a failure fails the execution, and n8n answers 500.
		await (this.sendResponse(SAVED_RESPONSE) as unknown as Promise<void> | undefined);
	}
	// The execution exists: ids whose sender left before the answer are accepted (same process only).
	eventsSaved(triggerScope(this), ids);
	const mode = this.getNodeParameter('outputMode', 0, 'single') as OutputMode;
	return routeItems(items, mode, filteredOutTest(this));
}
