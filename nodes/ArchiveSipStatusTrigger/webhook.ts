import type { IWebhookFunctions, IWebhookResponseData, NodeOperationError } from 'n8n-workflow';

import { handleDelivery, type DeliveryResult } from './delivery';
import {
	readRawBody,
	sendError,
	sendNoContent,
	type RawBodyRequest,
	type ResponseWriter,
} from './http';
import {
	holdUntilAnswered,
	isInFlight,
	releaseOverdue,
	untilAnswered,
	type AnsweredResponse,
} from './inFlight';
import { rateLimiterFor } from './rateLimit';
import { logFilteredOut, logRefusal, testFilteredError, testRefusalError } from './refusals';
import { acceptedIds } from './replay/acceptedIds';
import { triggerScope } from './respond';
import {
	mayRereadSigningKeys,
	readFilters,
	readOptions,
	readSigningKeys,
	TriggerConfigurationError,
} from './settings';
import { checkHeaders } from './verify/signature';

/** Our own messages hold no secrets; a foreign error might quote a connection string, so only its class is logged. */
function describeFailure(error: unknown): string {
	if (error instanceof TriggerConfigurationError) return error.message;
	return error instanceof Error ? `unexpected ${error.name}` : 'unexpected failure';
}

/** One delivery, verified with the credential's signing keys (signingKeyCache.ts). */
async function handleWithSigningKeys(
	context: IWebhookFunctions,
	scope: string,
): Promise<DeliveryResult> {
	const req = context.getRequestObject() as unknown as RawBodyRequest;
	const options = readOptions(context);
	const rawBody = await readRawBody(req, options.maxBodyBytes);
	if (!rawBody.ok) return { status: 400, error: rawBody.reason };
	// Headers that can never verify are refused before the credential or the replay record is touched.
	const nowMs = Date.now();
	const headers = checkHeaders(req.headers, nowMs, options.toleranceSeconds);
	if (!headers.ok) return { status: 401, error: headers.reason };
	const filters = readFilters((name, fallback) => context.getNodeParameter(name, fallback));
	const attempt = async (reuseRecentKeys: boolean) => {
		const { keys, reused } = await readSigningKeys(context, reuseRecentKeys, nowMs);
		const result = await handleDelivery(
			req.headers,
			rawBody.value,
			{ ...options, ...filters, keys },
			{
				record: acceptedIds,
				testUrl: context.getMode() === 'manual',
				rateLimiter:
					options.eventsPerMinute > 0 ? rateLimiterFor(scope, options.eventsPerMinute) : undefined,
				nowMs,
				isInFlight,
			},
		);
		return { result, reused };
	};
	const { result, reused } = await attempt(true);
	// A secret may have been added since the keys were read. Such a 401 touched neither the record nor the rate limit.
	const signatureOnly = result.status === 401 && result.signatureOnly === true;
	if (signatureOnly && reused && mayRereadSigningKeys(context, nowMs))
		return (await attempt(false)).result;
	// A retry of an id n8n has not answered yet: wait for that answer, then look again.
	if (result.status === 409 && result.inFlightKeys) {
		await untilAnswered(result.inFlightKeys);
		return (await attempt(true)).result;
	}
	return result;
}

/** When the record was last reported full: once a minute is enough for an operator to notice. */
let recordFullLoggedAtMs = -Infinity;

function logRecordFull(context: IWebhookFunctions, nowMs: number): void {
	if (nowMs - recordFullLoggedAtMs < 60_000) return;
	recordFullLoggedAtMs = nowMs;
	context.logger.warn(
		`Archive SIP Status Trigger refuses new events (503, the sender retries later): this n8n process holds ${acceptedIds.capacity} accepted webhook-ids of the last 72 hours, its limit. Ids leave the record 72 hours after they were accepted.`,
	);
}

/** The trigger's webhook(): one delivery from the raw request to the answer and the workflow's items. */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = this.getResponseObject() as unknown as ResponseWriter;
	const atTestUrl = this.getMode() === 'manual';
	let recordKeys: string[] | undefined;
	// A refused test event fails the test run (thrown outside the try, so n8n shows it and answers 500).
	let testFailure: NodeOperationError | undefined;
	try {
		// Rate limits are kept per trigger node, and apart for test and production URLs.
		const scope = triggerScope(this);
		releaseOverdue();
		const result = await handleWithSigningKeys(this, scope);
		const refused = result.status === 400 || result.status === 401;
		if (refused && atTestUrl) {
			testFailure = testRefusalError(this, result);
		} else if (result.status !== 204) {
			if (result.recordFull === true) logRecordFull(this, Date.now());
			if (refused) logRefusal(this, scope, result, Date.now());
			sendError(res, result.status, result.error, result.headers);
			return { noWebhookResponse: true };
		} else if (atTestUrl && result.filteredOut && !result.workflowData) {
			// Not run, so not accepted: sent again once the filter lets it through, it runs.
			for (const key of result.accepted?.recordKeys ?? []) acceptedIds.delete(key);
			testFailure = testFilteredError(this, result.filteredOut);
		} else {
			recordKeys = result.accepted?.recordKeys;
			return answerAccepted(this, res, scope, result);
		}
	} catch (error) {
		// Let the sender's retry through: this delivery did not complete.
		for (const key of recordKeys ?? []) acceptedIds.delete(key);
		this.logger.error(
			`Archive SIP Status Trigger could not handle a delivery: ${describeFailure(error)}`,
		);
		sendError(res, 500, 'internal error');
		return { noWebhookResponse: true };
	}
	throw testFailure;
}

/** A 204 delivery: held until n8n answers when it starts the workflow, answered at once otherwise. */
function answerAccepted(
	context: IWebhookFunctions,
	res: ResponseWriter,
	scope: string,
	result: Extract<DeliveryResult, { status: 204 }>,
): IWebhookResponseData {
	const { accepted, workflowData, filteredOut } = result;
	if (filteredOut) logFilteredOut(context, filteredOut, workflowData !== undefined);
	if (workflowData && accepted) {
		// n8n answers "Immediately" with the webhook's 204, "After the Event Is Saved" from execute() (respond.ts).
		holdUntilAnswered(res as unknown as AnsweredResponse, { scope, ...accepted }, acceptedIds);
		return { workflowData };
	}
	sendNoContent(res);
	return { noWebhookResponse: true, workflowData };
}
