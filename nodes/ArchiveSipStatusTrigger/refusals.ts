import { NodeOperationError, type IWebhookFunctions } from 'n8n-workflow';

import { setBounded } from '../shared/boundedCache';
import type { DeliveryResult, FilteredOut } from './delivery';

/** Why a delivery was refused, as a user can act on it: what the log and the editor say. */
type RefusalKind = 'signature' | 'timestamp' | 'headers' | 'event';

type Refused = Extract<DeliveryResult, { error: string }>;

function kindOf(refused: Refused): RefusalKind {
	if (refused.status === 400) return 'event';
	if (refused.signatureOnly === true) return 'signature';
	return refused.error.startsWith('webhook-timestamp is too') ? 'timestamp' : 'headers';
}

const WHAT_TO_CHECK: Record<RefusalKind, string> = {
	signature:
		"Check that the credential's Signing Secret is the whsec_… secret the archive shows for this webhook URL, and that nothing between the archive and n8n changes the body.",
	timestamp:
		"Check this server's clock and the sender's, or send the event again: the archive signs every attempt afresh. Timestamp Tolerance (in the node's options) sets how far they may differ.",
	headers:
		"The archive sends webhook-id, webhook-timestamp and webhook-signature with every event; a hand-made request needs all three, signed as in the README's test-event recipe.",
	event:
		"A SIP status event is a JSON object with type, data.correlation_id and data.outcome (success or failure), as in the README's test-event recipe.",
};

const MESSAGES: Record<RefusalKind, string> = {
	signature: 'The test event was refused: its signature matches none of the signing secrets',
	timestamp: 'The test event was refused: its webhook-timestamp is outside the Timestamp Tolerance',
	headers: 'The test event was refused: its Standard Webhooks headers are not valid',
	event: 'The test event was refused: its body is not a SIP status event',
};

/** A refusal at the Test URL fails the test run with what to check: a wrong secret is not an event that never came. */
export function testRefusalError(context: IWebhookFunctions, refused: Refused): NodeOperationError {
	const kind = kindOf(refused);
	// The signature's own reason only repeats the message; the others say which header or field.
	const detail = kind === 'signature' ? '' : ` (${refused.error})`;
	return new NodeOperationError(context.getNode(), `${MESSAGES[kind]}${detail}`, {
		description: WHAT_TO_CHECK[kind],
	});
}

/** Longest event type quoted in a log line or message; the type comes from a signed body, but a line stays short. */
const MAX_QUOTED_TYPE_LENGTH = 200;

const filterOf = (filtered: FilteredOut) =>
	filtered.reason === 'type' ? 'Event Types' : 'Start Workflow On';
const quotedType = (filtered: FilteredOut) =>
	JSON.stringify(filtered.type.slice(0, MAX_QUOTED_TYPE_LENGTH));

/** A test event the filters keep from the workflow: said, rather than waited on in silence. */
export function testFilteredError(
	context: IWebhookFunctions,
	filtered: FilteredOut,
): NodeOperationError {
	const filter = filterOf(filtered);
	return new NodeOperationError(
		context.getNode(),
		`The test event was filtered out by ${filter}: its type is ${quotedType(filtered)}`,
		{
			description: `Change ${filter} to start on it, or turn on Send Filtered-Out Events to Extra Output in the options.`,
		},
	);
}

/** A filtered-out event leaves a trace: its type and webhook-id (never the body), quoted so they stay one line. */
export function logFilteredOut(
	context: IWebhookFunctions,
	filtered: FilteredOut,
	onOutput: boolean,
): void {
	const where = onOutput
		? 'sent to the Filtered Out output'
		: 'acknowledged without starting the workflow';
	context.logger.info(
		`Archive SIP Status Trigger filtered out an event by ${filterOf(filtered)} (type ${quotedType(filtered)}, webhook-id ${JSON.stringify(filtered.webhookId)}): ${where}`,
	);
}

/** When each trigger last logged a refusal of each kind: a flood of forgeries leaves one line a minute. */
const lastLogged = new Map<string, number>();
const MAX_LOGGED_SCOPES = 1_000;
const LOG_INTERVAL_MS = 60_000;

/** Logs a refused production delivery: at most one line per trigger, kind and minute; never a secret or the body. */
export function logRefusal(
	context: IWebhookFunctions,
	scope: string,
	refused: Refused,
	nowMs: number,
): void {
	const kind = kindOf(refused);
	const key = `${scope}\u0000${kind}`;
	if (nowMs - (lastLogged.get(key) ?? -Infinity) < LOG_INTERVAL_MS) return;
	setBounded(lastLogged, key, nowMs, MAX_LOGGED_SCOPES);
	context.logger.info(
		`Archive SIP Status Trigger refused a delivery with ${refused.status} (${refused.error}); more refusals of this kind are not logged for a minute`,
	);
}
