import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { filteredOutBy, type OutcomeFilter, type OutputMode } from './delivery';
import { eventsSaved } from './inFlight';
import { sendsFilteredOut, typePatternsOf } from './settings';

/**
 * "Respond: After the Event Is Saved". n8n answers a webhook in `responseNode` mode from the running execution: the
 * execution is saved first (and in queue mode queued and taken by a worker), then its nodes run. The trigger's own
 * `execute()` is the first node to run, so it sends the 2xx there: nothing else is needed in the workflow. Any
 * failure before that point is answered non-2xx by n8n, so the sender retries.
 */
type RespondMode = 'immediately' | 'afterSaved';

export const RESPOND_PARAMETER = 'respond';

/** The answer sent from the execution: 204 with no body, as in "Immediately" mode. */
const SAVED_RESPONSE = { body: '', headers: {}, statusCode: 204 } as const;

function respondModeOf(value: unknown): RespondMode {
	return value === 'afterSaved' ? 'afterSaved' : 'immediately';
}

/** One trigger's records in this process: workflow, node and mode (test deliveries are kept apart). */
export function triggerScope(
	workflowId: string | undefined,
	node: { id?: string; name: string },
	mode: string,
): string {
	return `${workflowId ?? ''}:${node.id ?? node.name}:${mode}`;
}

/** How execute() spreads the items: the node's Output mode, and the filters when "Filtered Out" is an output. */
interface Routing {
	mode: OutputMode;
	/** Set when filtered-out events have their own last output; tells which items are filtered out. */
	isFilteredOut?: (item: INodeExecutionData) => boolean;
}

/**
 * The trigger's items on its outputs. `webhook()` hands every event to the execution on one input; the outcome (and
 * the filters, for "Filtered Out") choose the output here, so no event waits on an empty first input (n8n's legacy
 * execution order skips a node whose first input is empty).
 */
function routeItems(
	items: INodeExecutionData[],
	{ mode, isFilteredOut }: Routing,
): INodeExecutionData[][] {
	const paired = items.map((item, index) => ({ ...item, pairedItem: { item: index } }));
	const filteredOut = isFilteredOut ? paired.filter(isFilteredOut) : [];
	const wanted = isFilteredOut ? paired.filter((item) => !isFilteredOut(item)) : paired;
	const main =
		mode === 'single'
			? [wanted]
			: [
					wanted.filter((item) => item.json.outcome !== 'failure'),
					wanted.filter((item) => item.json.outcome === 'failure'),
				];
	return isFilteredOut ? [...main, filteredOut] : main;
}

/**
 * The filters as the webhook applied them, for items whose event left through "Filtered Out"; undefined when that
 * output is off (an event filtered out then never reaches an execution).
 */
function filteredOutRouting(context: IExecuteFunctions): Routing['isFilteredOut'] {
	const options = context.getNodeParameter('options', 0, {});
	if (!sendsFilteredOut(options)) return undefined;
	const filters = {
		outcomeFilter: context.getNodeParameter('outcomes', 0, 'both') as OutcomeFilter,
		typePatterns: typePatternsOf((name, fallback) => context.getNodeParameter(name, 0, fallback)),
	};
	return (item) => filteredOutBy(item.json, filters) !== undefined;
}

/**
 * The trigger's execute(), the execution's first node: puts each event on its outcome's output and, with "Respond:
 * After the Event Is Saved", answers the delivery now that n8n has saved the execution.
 */
export async function executeTrigger(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const ids = items
		.map((item) => item.json.webhook_id)
		.filter((id): id is string => typeof id === 'string');
	if (respondModeOf(this.getNodeParameter(RESPOND_PARAMETER, 0, 'immediately')) === 'afterSaved') {
		// Typed as void, but n8n's implementation returns the hook's promise: a failure here fails the execution,
		// and n8n then answers 500.
		await (this.sendResponse(SAVED_RESPONSE) as unknown as Promise<void> | undefined);
	}
	// The execution exists: ids whose sender left before the answer are accepted (same process only).
	eventsSaved(triggerScope(this.getWorkflow().id, this.getNode(), this.getMode()), ids);
	return routeItems(items, {
		mode: this.getNodeParameter('outputMode', 0, 'single') as OutputMode,
		isFilteredOut: filteredOutRouting(this),
	});
}
