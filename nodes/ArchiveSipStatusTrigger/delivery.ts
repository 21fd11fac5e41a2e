import type { INodeExecutionData } from 'n8n-workflow';

import { parseJsonBody, toOutputJson, validateStatusEvent, type Outcome } from './event';
import type { RateLimiter } from './rateLimit';
import { REPLAY_WINDOW_MS, type ReplayStore } from './replay/replayStore';
import { typeMatches } from './typeFilter';
import { headerText, verifyDelivery, type HeaderMap } from './verify/signature';

/**
 * One delivery from verification to the items to emit. Pure of n8n: the node reads the request and
 * its settings, calls this, and writes the answer.
 */

export type OutcomeFilter = 'both' | Outcome;

export type OutputMode = 'single' | 'perOutcome';

export interface TriggerSettings {
	keys: Buffer[];
	toleranceSeconds: number;
	maxBodyBytes: number;
	outcomeFilter: OutcomeFilter;
	typePatterns: string[];
	outputMode: OutputMode;
	includeRawEvent: boolean;
	/** Events filtered out by type or outcome start the workflow on the "Filtered Out" output. */
	sendFilteredOut: boolean;
}

/** Which filter kept an event from the workflow's ordinary outputs. */
type FilterReason = 'type' | 'outcome';

export interface FilteredOut {
	reason: FilterReason;
	type: string;
	/** As in the output item (headerText). */
	webhookId: string;
}

interface DeliveryContext {
	replayStore: ReplayStore;
	/** Absent when the rate limit is off. */
	rateLimiter?: RateLimiter;
	nowMs: number;
	/** True while an earlier delivery of the id is still waiting for its execution ("After the Event Is Saved"). */
	isInFlight?: (id: string) => boolean;
}

export type DeliveryResult =
	| {
			status: 204;
			/** Absent for a replay or a filtered event: answered, but the workflow does not start. */
			workflowData?: INodeExecutionData[][];
			/** The id recorded as accepted by this delivery, so a later failure can release it. */
			acceptedId?: string;
			/** Set for an event the filters kept from the ordinary outputs: logged, and on "Filtered Out" if chosen. */
			filteredOut?: FilteredOut;
	  }
	| {
			status: 400 | 401 | 409 | 429;
			error: string;
			headers?: Record<string, string>;
			/** A 401 for well-formed, fresh headers whose signature matched none of the keys. */
			signatureOnly?: boolean;
	  };

/** Why the filters keep an event from the ordinary outputs (Event Types first), or undefined when they do not. */
export function filteredOutBy(
	event: { type?: unknown; outcome?: unknown },
	filters: Pick<TriggerSettings, 'outcomeFilter' | 'typePatterns'>,
): FilterReason | undefined {
	if (typeof event.type !== 'string' || !typeMatches(event.type, filters.typePatterns))
		return 'type';
	if (filters.outcomeFilter !== 'both' && filters.outcomeFilter !== event.outcome) return 'outcome';
	return undefined;
}

export async function handleDelivery(
	headers: HeaderMap,
	rawBody: Buffer,
	settings: TriggerSettings,
	context: DeliveryContext,
): Promise<DeliveryResult> {
	if (rawBody.length > settings.maxBodyBytes) {
		return {
			status: 400,
			error: `body exceeds the maximum size of ${settings.maxBodyBytes} bytes`,
		};
	}
	const verified = verifyDelivery(headers, rawBody, {
		keys: settings.keys,
		nowMs: context.nowMs,
		toleranceSeconds: settings.toleranceSeconds,
	});
	if (!verified.ok)
		return { status: 401, error: verified.reason, signatureOnly: verified.signatureOnly === true };
	// The id as text (UTF-8 when its bytes are), the same form the output item and the trigger's execute() see: replay
	// and in-flight records then agree in both Respond modes. The signature was checked over the bytes as they came.
	const webhookId = headerText(verified.value.id);

	// Not yet answered: a 2xx now would end the sender's retries while the first delivery may still fail.
	if (context.isInFlight?.(webhookId)) {
		return {
			status: 409,
			error: 'an earlier delivery of this webhook-id is still being processed, retry later',
			headers: { 'retry-after': '5' },
		};
	}

	// A redelivery of an accepted event is answered as a success so the sender stops retrying.
	if (await context.replayStore.seen(webhookId)) return { status: 204 };

	const allowance = context.rateLimiter?.take();
	if (allowance && !allowance.allowed) {
		return {
			status: 429,
			error: 'too many events, retry later',
			headers: { 'retry-after': String(allowance.retryAfterSeconds) },
		};
	}

	const body = parseJsonBody(rawBody);
	if (!body.ok) return { status: 400, error: body.reason };
	const event = validateStatusEvent(body.value);
	if (!event.ok) return { status: 400, error: event.reason };

	// Recorded only now: an unsigned or malformed delivery can never block a later genuine one.
	const recorded = await context.replayStore.remember(webhookId, context.nowMs + REPLAY_WINDOW_MS);
	if (!recorded) return { status: 204 };

	const reason = filteredOutBy(event.value, settings);
	const filteredOut = reason && { reason, type: event.value.type, webhookId };
	if (filteredOut && !settings.sendFilteredOut)
		return { status: 204, acceptedId: webhookId, filteredOut };
	const json = toOutputJson(
		event.value,
		{ webhookId, receivedAt: new Date(context.nowMs) },
		settings.includeRawEvent,
	);
	// One input for every event: the node's execute() puts it on its output (respond.ts).
	return { status: 204, acceptedId: webhookId, workflowData: [[{ json }]], filteredOut };
}
