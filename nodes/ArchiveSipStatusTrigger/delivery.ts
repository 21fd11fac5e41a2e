import type { INodeExecutionData } from 'n8n-workflow';

import { parseJsonBody, toOutputJson, validateStatusEvent, type Outcome } from './event';
import type { RateLimiter } from './rateLimit';
import { recordKey, secretFingerprint, type AcceptedIdRecord } from './replay/acceptedIds';
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
	/** The ids this process accepted, per secret (replay/acceptedIds.ts). */
	record: AcceptedIdRecord;
	/** Absent when the rate limit is off. */
	rateLimiter?: RateLimiter;
	nowMs: number;
	/** A delivery to the Test URL (the editor listening for a test event). */
	testUrl?: boolean;
	/** True while an earlier delivery of the id is still waiting for its execution ("After the Event Is Saved"). */
	isInFlight?: (recordKeys: string[]) => boolean;
}

export type DeliveryResult =
	| {
			status: 204;
			/** Absent for a replay or a filtered event: answered, but the workflow does not start. */
			workflowData?: INodeExecutionData[][];
			/** The id recorded as accepted by this delivery, so a later failure can release it. */
			acceptedId?: string;
			/** Its keys in the replay record, one per secret that signed it. */
			recordKeys?: string[];
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
			/** A 409: the record keys of the id in flight, whose answer the retry may wait for. */
			inFlightKeys?: string[];
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
	const { record } = context;
	// A copy of a delivery accepted before this process started still passes the timestamp check until start +
	// tolerance (signed up to the tolerance ahead of n8n's clock), and the record does not know it: until then every
	// delivery is refused and the sender retries with a fresh signature. Not at the Test URL: it runs one event for
	// someone listening in the editor, often just after starting n8n.
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
	// One key per secret that signed it: a delivery accepted at one trigger is a replay at every trigger (and the
	// Test URL) whose credential holds one of those secrets, since the signature does not cover the URL.
	const recordKeys = verified.matchedKeys.map((key) =>
		recordKey(secretFingerprint(key), webhookId),
	);

	// Not yet answered: a 2xx now would end the sender's retries while the first delivery may still fail.
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

	const body = parseJsonBody(rawBody);
	if (!body.ok) return { status: 400, error: body.reason };
	const event = validateStatusEvent(body.value);
	if (!event.ok) return { status: 400, error: event.reason };

	// Recorded only now: an unsigned or malformed delivery can never block a later genuine one.
	// Nothing is awaited between the replay check above and here, so no concurrent delivery can have recorded it.
	if (!record.hasRoomFor(recordKeys.length)) {
		return {
			status: 503,
			error: 'the replay record is full, retry later',
			headers: { 'retry-after': '60' },
			recordFull: true,
		};
	}
	for (const key of recordKeys) record.add(key);

	const reason = filteredOutBy(event.value, settings);
	const filteredOut = reason && { reason, type: event.value.type, webhookId };
	if (filteredOut && !settings.sendFilteredOut)
		return { status: 204, acceptedId: webhookId, recordKeys, filteredOut };
	const json = toOutputJson(
		event.value,
		{ webhookId, receivedAt: new Date(context.nowMs) },
		settings.includeRawEvent,
	);
	// One input for every event: the node's execute() puts it on its output (respond.ts).
	return {
		status: 204,
		acceptedId: webhookId,
		recordKeys,
		workflowData: [[{ json }]],
		filteredOut,
	};
}
