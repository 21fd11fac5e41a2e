import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { setBounded } from '../shared/boundedCache';
import { filteredOutBy, type OutcomeFilter, type OutputMode } from './delivery';
import type { AcceptedIdRecord } from './replay/acceptedIds';
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

/**
 * Replay-record keys of deliveries this process accepted and is waiting to answer. A retry of one is answered 409
 * (non-2xx, so the sender tries again later): answering it 2xx as a replay would lose the event if the first delivery
 * then fails. Keyed like the record, so a retry to another trigger with the same secret waits too.
 */
const inFlight = new Set<string>();

/** Upper bound: beyond it the oldest entries go (a retry of those may then run twice, never zero times). */
const MAX_IN_FLIGHT_IDS = 10_000;

export function isInFlight(recordKeys: string[]): boolean {
	return recordKeys.some((key) => inFlight.has(key));
}

function markInFlight(recordKeys: string[]): void {
	for (const key of recordKeys) {
		inFlight.add(key);
		if (inFlight.size > MAX_IN_FLIGHT_IDS)
			inFlight.delete(inFlight.values().next().value as string);
	}
}

function settle(recordKeys: string[]): void {
	for (const key of recordKeys) inFlight.delete(key);
}

/** Lets the sender's retry run: the delivery did not end in a 2xx. */
function release(record: AcceptedIdRecord, recordKeys: string[]): void {
	settle(recordKeys);
	for (const key of recordKeys) record.delete(key);
}

/** The `http.ServerResponse` members used to learn how a delivery ended. */
export interface AnsweredResponse {
	statusCode: number;
	readonly headersSent: boolean;
	readonly writableFinished: boolean;
	once(event: 'close', listener: () => void): unknown;
}

function answered2xx(res: AnsweredResponse): boolean {
	return res.writableFinished && res.statusCode >= 200 && res.statusCode < 300;
}

/** How long an id stays in flight after its sender left without an answer, waiting for its execution to report. */
const SENDER_GONE_GRACE_MS = 120_000;

interface AwaitingExecution {
	recordKeys: string[];
	record: AcceptedIdRecord;
	/** After this, the id is released: its execution never reported. */
	releaseAtMs: number;
}

/** Deliveries whose sender left before n8n answered, oldest first, by trigger and id: their execution may still come. */
const awaitingExecution = new Map<string, AwaitingExecution>();

const awaitingKey = (scope: string, id: string) => `${scope}\u0000${id}`;

/**
 * Holds an accepted delivery as "in flight" until it ends. Unless the sender got a 2xx, its id leaves the replay
 * record, so the retry runs (at-least-once).
 *
 * A sender that gives up before any answer (its 15 s timeout while n8n is slow) leaves n8n still saving the
 * execution. Releasing the id then would run every retry again while the first is on its way (a storm of duplicates
 * under load), so the id stays in flight (retries get 409) until that execution reports from the trigger's execute()
 * (`eventsSaved`: the id stays recorded and retries are replays), or for SENDER_GONE_GRACE_MS at most.
 */
export function holdUntilAnswered(
	res: AnsweredResponse,
	{ scope, id, recordKeys }: { scope: string; id: string; recordKeys: string[] },
	record: AcceptedIdRecord,
): void {
	markInFlight(recordKeys);
	res.once('close', () => {
		if (answered2xx(res)) {
			settle(recordKeys);
			return;
		}
		if (res.headersSent) {
			// n8n answered non-2xx: the execution was not saved.
			release(record, recordKeys);
			return;
		}
		const key = awaitingKey(scope, id);
		awaitingExecution.delete(key);
		setBounded(
			awaitingExecution,
			key,
			{ recordKeys, record, releaseAtMs: Date.now() + SENDER_GONE_GRACE_MS },
			MAX_IN_FLIGHT_IDS,
		);
	});
}

/**
 * Releases the ids whose execution did not report within the grace period, so their retries run. Called before a
 * delivery is looked at (no timers in a node); entries are in the order they were held, so this stops at the first
 * that is still within its grace.
 */
export function releaseOverdue(nowMs = Date.now()): void {
	for (const [key, awaiting] of awaitingExecution) {
		if (awaiting.releaseAtMs > nowMs) break;
		awaitingExecution.delete(key);
		release(awaiting.record, awaiting.recordKeys);
	}
}

/** The trigger's execute() ran for these ids: their execution is saved, so an id whose sender left stays accepted. */
function eventsSaved(scope: string, ids: string[]): void {
	for (const id of ids) {
		const key = awaitingKey(scope, id);
		const awaiting = awaitingExecution.get(key);
		if (!awaiting) continue;
		awaitingExecution.delete(key);
		settle(awaiting.recordKeys);
	}
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
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	if (!sendsFilteredOut(options)) return undefined;
	const filters = {
		outcomeFilter: context.getNodeParameter('outcomes', 0, 'both') as OutcomeFilter,
		typePatterns: typePatternsOf(options),
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
