import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { handleDelivery, type DeliveryResult, type FilteredOut } from './delivery';
import {
	readRawBody,
	sendError,
	sendNoContent,
	type RawBodyRequest,
	type ResponseWriter,
} from './http';
import { rateLimiterFor } from './rateLimit';
import { lazyReplayStore, REPLAY_WINDOW_MS, type ReplayStore } from './replay/replayStore';
import { replayStoreForDelivery } from './replay/sharedReplayStore';
import {
	holdUntilAnswered,
	isInFlight,
	releaseOverdue,
	respondModeOf,
	RESPOND_PARAMETER,
	triggerScope,
	type AnsweredResponse,
} from './respond';
import {
	maxBodyBytesOf,
	mayRereadSigningKeys,
	readSettings,
	toleranceSecondsOf,
	TriggerConfigurationError,
} from './settings';
import { checkTimestamp, readWebhookHeaders } from './verify/signature';

/** Replays and rate limits are tracked per trigger node, and apart for test and production URLs. */
function scopeOf(context: IWebhookFunctions): string {
	return triggerScope(context.getWorkflow().id, context.getNode(), context.getMode());
}

/**
 * Our own errors carry messages known to be free of secrets; a foreign error (e.g. from a shared
 * replay store) might quote a connection string, so only its class name is logged.
 */
function describeFailure(error: unknown): string {
	if (error instanceof TriggerConfigurationError) return error.message;
	return error instanceof Error ? `unexpected ${error.name}` : 'unexpected failure';
}

/**
 * One delivery, verified with the credential's signing keys. Keys this process read a moment ago are reused
 * (signingKeyCache.ts); a signature refused with reused keys may be checked once more with the credential read afresh.
 */
async function handleWithSigningKeys(
	context: IWebhookFunctions,
	scope: string,
	replayStore: ReplayStore,
): Promise<DeliveryResult> {
	const req = context.getRequestObject() as unknown as RawBodyRequest;
	// n8n resolves every getNodeParameter call afresh: the options are read once per delivery.
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const maxBodyBytes = maxBodyBytesOf(options);
	const read = await readRawBody(req, maxBodyBytes);
	if (!read.ok) {
		return {
			status: 400,
			error: read.tooLarge ? `body exceeds the maximum size of ${maxBodyBytes} bytes` : read.reason,
		};
	}
	const { rawBody } = read;
	// Headers that can never verify (malformed, oversized, or a timestamp outside the node's tolerance) are refused
	// before the credential, the signing-key cache or the replay record is touched.
	const headers = readWebhookHeaders(req.headers);
	if (!headers.ok) return { status: 401, error: headers.reason };
	const nowMs = Date.now();
	const fresh = checkTimestamp(headers.value.timestamp, nowMs, toleranceSecondsOf(options));
	if (!fresh.ok) return { status: 401, error: fresh.reason };
	const attempt = async (reuseRecentKeys: boolean) => {
		const { settings, eventsPerMinute, secretProblems, keysReused } = await readSettings(context, {
			reuseRecentKeys,
			nowMs,
			options,
		});
		if (secretProblems.length > 0) {
			context.logger.warn(
				`Archive SIP Status Trigger ignores unusable secrets: ${secretProblems.join('; ')}`,
			);
		}
		const result = await handleDelivery(req.headers, rawBody, settings, {
			replayStore,
			rateLimiter: eventsPerMinute > 0 ? rateLimiterFor(scope, eventsPerMinute) : undefined,
			nowMs,
			isInFlight: (id) => isInFlight(scope, id),
		});
		return { result, keysReused };
	};
	const first = await attempt(true);
	// A secret may have been added since the keys were read: worth a second look only when nothing but the
	// signature failed. A 401 comes before the replay record and the rate limit are touched, so it has nothing to undo.
	const { result } = first;
	const signatureOnly = result.status === 401 && result.signatureOnly === true;
	if (signatureOnly && first.keysReused && mayRereadSigningKeys(context, nowMs))
		return (await attempt(false)).result;
	return result;
}

/** Longest event type quoted in a log line; the type comes from a signed body, but a log line stays short. */
const MAX_LOGGED_TYPE_LENGTH = 200;

/**
 * A filtered-out event leaves a trace: its type and webhook-id (never the body), quoted so they stay one line.
 */
function logFilteredOut(
	context: IWebhookFunctions,
	filtered: FilteredOut,
	onOutput: boolean,
): void {
	const filter = filtered.reason === 'type' ? 'Event Types' : 'Start Workflow On';
	const type = filtered.type.slice(0, MAX_LOGGED_TYPE_LENGTH);
	const where = onOutput
		? 'sent to the Filtered Out output'
		: 'acknowledged without starting the workflow';
	context.logger.info(
		`Archive SIP Status Trigger filtered out an event by ${filter} (type ${JSON.stringify(type)}, webhook-id ${JSON.stringify(filtered.webhookId)}): ${where}`,
	);
}

/** The trigger's webhook(): one delivery from the raw request to the answer and the workflow's items. */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = this.getResponseObject() as unknown as ResponseWriter;
	let replayStore: ReplayStore | undefined;
	let acceptedId: string | undefined;
	try {
		const scope = scopeOf(this);
		// Shared through n8n's workflow static data, so replays hold across queue-mode processes. Made on first
		// use, after the signature verified: reading the shared record is work a forgery should not cause.
		const afterSaved =
			respondModeOf(this.getNodeParameter(RESPOND_PARAMETER, 'immediately')) === 'afterSaved';
		const store = lazyReplayStore(() =>
			replayStoreForDelivery(this, scope, {
				repairOnlyConfirmed: true,
				sharedOnlyOnceRun: afterSaved,
			}),
		);
		replayStore = store;
		await releaseOverdue();
		const result = await handleWithSigningKeys(this, scope, store);
		if (result.status !== 204) {
			sendError(res, result.status, result.error, result.headers);
			return { noWebhookResponse: true };
		}
		acceptedId = result.acceptedId;
		if (result.filteredOut)
			logFilteredOut(this, result.filteredOut, result.workflowData !== undefined);
		if (result.workflowData && acceptedId !== undefined) {
			// n8n answers: "Immediately" with the webhook's 204 (n8n 2.x once it has saved and, in queue mode, queued
			// the execution; 1.x before), "After the Event Is Saved" from the trigger's execute() (respond.ts). Until
			// then a retry of the id gets 409; an answer that is not 2xx lets the retry run.
			const expiresAtMs = Date.now() + REPLAY_WINDOW_MS;
			holdUntilAnswered(
				res as unknown as AnsweredResponse,
				{ scope, id: acceptedId, expiresAtMs },
				store,
			);
			return { workflowData: result.workflowData };
		}
		sendNoContent(res);
		return { noWebhookResponse: true, workflowData: result.workflowData };
	} catch (error) {
		// Let the sender's retry through: this delivery did not complete.
		if (acceptedId !== undefined) await replayStore?.forget(acceptedId).catch(() => undefined);
		this.logger.error(
			`Archive SIP Status Trigger could not handle a delivery: ${describeFailure(error)}`,
		);
		sendError(res, 500, 'internal error');
		return { noWebhookResponse: true };
	}
}
