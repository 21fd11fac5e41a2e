import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { parseStatusEvent, type Outcome } from './event';
import type { RateLimiter } from './rateLimit';
import { recordKey, secretFingerprint, type AcceptedIdRecord } from './replay/acceptedIds';
import { typeMatches } from './typeFilter';
import { headerText, verifyDelivery, type HeaderMap } from './verify/signature';

/** One delivery from verification to the items to emit; pure of n8n (webhook.ts reads the request and answers). */

export type OutcomeFilter = 'both' | Outcome;

export type OutputMode = 'single' | 'perOutcome';

export interface TriggerSettings {
	keys: Buffer[];
	toleranceSeconds: number;
	outcomeFilter: OutcomeFilter;
	typePatterns: string[];
	includeRawEvent: boolean;
	/** Filtered-out events start the workflow on the "Filtered Out" output. */
	sendFilteredOut: boolean;
}

/** Which filter kept an event from the workflow's ordinary outputs, its type and id (as in the output item). */
export interface FilteredOut {
	reason: 'type' | 'outcome';
	type: string;
	webhookId: string;
}

interface DeliveryContext {
	record: AcceptedIdRecord;
	/** Absent when the rate limit is off. */
	rateLimiter?: RateLimiter;
	nowMs: number;
	testUrl?: boolean;
	/** True while an earlier delivery of the id still waits for n8n's answer (inFlight.ts). */
	isInFlight?: (recordKeys: string[]) => boolean;
}

export type DeliveryResult =
	| {
			status: 204;
			/** Absent for a replay or a filtered event: answered, but the workflow does not start. */
			workflowData?: INodeExecutionData[][];
			/** The id this delivery recorded, and its replay-record keys (one per secret that signed it). */
			accepted?: { id: string; recordKeys: string[] };
			/** Set for an event the filters kept from the ordinary outputs: logged, and on "Filtered Out" if chosen. */
			filteredOut?: FilteredOut;
	  }
	| {
			status: 400 | 401 | 409 | 429 | 503;
			error: string;
			headers?: Record<string, string>;
			/** A 401 for well-formed, fresh headers whose signature matched none of the keys. */
			signatureOnly?: boolean;
			/** A 503 because the replay record has no room: logged, since it needs an operator. */
			recordFull?: boolean;
			/** A 409: the record keys of the id in flight. */
			inFlightKeys?: string[];
	  };

/** Why the filters keep an event from the ordinary outputs (Event Types first), or undefined when they do not. */
export function filteredOutBy(
	event: { type?: unknown; outcome?: unknown },
	filters: Pick<TriggerSettings, 'outcomeFilter' | 'typePatterns'>,
): FilteredOut['reason'] | undefined {
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
	const verified = verifyDelivery(headers, rawBody, { ...settings, nowMs: context.nowMs });
	if (!verified.ok)
		return { status: 401, error: verified.reason, signatureOnly: verified.signatureOnly === true };
	// The id as text, as the output item and execute() see it: replay and in-flight records agree in both Respond modes.
	const webhookId = headerText(verified.value.id);
	const { record } = context;
	// Until start + tolerance, a copy of a delivery accepted before this process started would pass, unknown to the
	// record: every delivery is refused, the sender retries freshly signed. Not at the Test URL (one event, by hand).
	const refusedUntil = Math.floor(record.startedAtMs / 1000) + settings.toleranceSeconds;
	if (!context.testUrl && Number(verified.value.timestamp) <= refusedUntil) {
		const waitSeconds = Math.max(1, refusedUntil + 1 - Math.floor(context.nowMs / 1000));
		return {
			status: 503,
			error:
				`n8n started less than the Timestamp Tolerance (${settings.toleranceSeconds} s) ago: events signed before ` +
				`${new Date((refusedUntil + 1) * 1000).toISOString()} are refused so that a copy captured before the start ` +
				'cannot run again; retry with a fresh signature then',
			headers: { 'retry-after': String(waitSeconds) },
		};
	}
	// One key per secret that signed it: the signature does not cover the URL, so a delivery accepted at one trigger
	// is a replay at every trigger whose credential holds one of those secrets.
	const recordKeys = verified.matchedKeys.map((key) =>
		recordKey(secretFingerprint(key), webhookId),
	);

	// A 2xx now would end the sender's retries while the first delivery may still fail.
	if (context.isInFlight?.(recordKeys)) {
		return {
			status: 409,
			error: 'an earlier delivery of this webhook-id is still being processed, retry later',
			headers: { 'retry-after': '5' },
			inFlightKeys: recordKeys,
		};
	}

	// A redelivery of an accepted event is answered as a success so the sender stops retrying.
	if (recordKeys.some((key) => record.has(key))) return { status: 204 };

	const allowance = context.rateLimiter?.take();
	if (allowance && !allowance.allowed) {
		return {
			status: 429,
			error: 'too many events, retry later',
			headers: { 'retry-after': String(allowance.retryAfterSeconds) },
		};
	}

	const event = parseStatusEvent(rawBody);
	if (!event.ok) return { status: 400, error: event.reason };

	// Recorded only now, so an unsigned or malformed delivery never blocks a genuine one (nothing awaited since has()).
	if (!record.hasRoomFor(recordKeys.length)) {
		return {
			status: 503,
			error: 'the replay record is full, retry later',
			headers: { 'retry-after': '60' },
			recordFull: true,
		};
	}
	for (const key of recordKeys) record.add(key);

	const accepted = { id: webhookId, recordKeys };
	const reason = filteredOutBy(event.value, settings);
	const filteredOut = reason && { reason, type: event.value.type, webhookId };
	if (filteredOut && !settings.sendFilteredOut) return { status: 204, accepted, filteredOut };
	const json: IDataObject = {
		...event.value.fields,
		webhook_id: webhookId,
		received_at: new Date(context.nowMs).toISOString(),
	};
	if (settings.includeRawEvent) json.event = event.value.raw;
	// One input for every event: the node's execute() puts it on its output (respond.ts).
	return { status: 204, accepted, workflowData: [[{ json }]], filteredOut };
}
