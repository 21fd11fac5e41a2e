import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { OutcomeFilter } from './delivery';
import { DEFAULT_EVENT_TYPE_CHOICE, EVENT_TYPE_CHOICES, splitPatterns } from './typeFilter';
import { parseSigningKeys } from './verify/secrets';
import {
	recentSigningKeys,
	rememberSigningKeys,
	secretsChanged,
	sharedRead,
	takeForcedReread,
} from './verify/signingKeyCache';

const CREDENTIAL_NAME = 'archiveSipWebhookApi';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A wider window would let an old signed delivery be replayed after its id left the 72 h replay record. */
export const MAX_TOLERANCE_SECONDS = 3600;

export const DEFAULT_MAX_BODY_KIB = 1024;

/** A setup problem the sender cannot fix: answered 500 so it retries later. Messages hold no secrets. */
export class TriggerConfigurationError extends Error {}

function numberOption(options: IDataObject, name: string, fallback: number): number {
	const value = options[name];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The node's Options collection, read once per delivery, before the body (so a large one is refused unread). */
export function readOptions(context: IWebhookFunctions) {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const tolerance = numberOption(options, 'toleranceSeconds', DEFAULT_TOLERANCE_SECONDS);
	return {
		maxBodyBytes: Math.floor(numberOption(options, 'maxBodySizeKib', DEFAULT_MAX_BODY_KIB) * 1024),
		toleranceSeconds: Math.min(MAX_TOLERANCE_SECONDS, tolerance),
		eventsPerMinute: Math.floor(numberOption(options, 'eventsPerMinute', 0)),
		includeRawEvent: options.includeRawEvent === true,
		sendFilteredOut: options.sendFilteredOut === true,
	};
}

/** Start Workflow On, and the patterns of Event Types: a known set, or the Custom Patterns typed (empty: any). */
export function readFilters(readParameter: (name: string, fallback: unknown) => unknown) {
	const outcomeFilter = readParameter('outcomes', 'both') as OutcomeFilter;
	const choice = readParameter('eventTypes', DEFAULT_EVENT_TYPE_CHOICE);
	if (choice === 'custom')
		return { outcomeFilter, typePatterns: splitPatterns(readParameter('customEventTypes', '')) };
	const patterns = EVENT_TYPE_CHOICES[choice as keyof typeof EVENT_TYPE_CHOICES];
	return { outcomeFilter, typePatterns: [...(patterns ?? EVENT_TYPE_CHOICES.any)] };
}

function credentialIdOf(context: IWebhookFunctions): string | undefined {
	return context.getNode().credentials?.[CREDENTIAL_NAME]?.id ?? undefined;
}

/** Identifies the secrets' values without keeping them: the unusable-secret warning is logged once per change. */
function fingerprintOf(signingSecret: unknown, additionalSecrets: unknown): string {
	return createHash('sha256')
		.update(`${String(signingSecret)}\0${String(additionalSecrets)}`)
		.digest('base64');
}

/** The credential's keys, reused briefly in production; keyed by mode and workflow so n8n checks each's access. */
export async function readSigningKeys(
	context: IWebhookFunctions,
	reuseRecentKeys: boolean,
	nowMs: number,
): Promise<{ keys: Buffer[]; reused: boolean }> {
	const credentialId = credentialIdOf(context);
	const readKey =
		credentialId === undefined
			? undefined
			: [context.getMode(), context.getWorkflow().id ?? '', credentialId].join('\u0000');
	const cacheKey = context.getMode() === 'webhook' ? readKey : undefined;
	const recent = cacheKey && reuseRecentKeys ? recentSigningKeys(cacheKey, nowMs) : undefined;
	if (recent) return { keys: recent.keys, reused: true };
	const read = async () => {
		const credentials = await context.getCredentials(CREDENTIAL_NAME);
		const keys = parseSigningKeys(credentials.signingSecret, credentials.additionalSecrets);
		if (cacheKey && keys.keys.length > 0) rememberSigningKeys(cacheKey, keys, nowMs);
		const fingerprint = fingerprintOf(credentials.signingSecret, credentials.additionalSecrets);
		return { keys, problemsAreNew: secretsChanged(credentialId ?? '', fingerprint) };
	};
	const { value, joined } =
		readKey === undefined
			? { value: await read(), joined: false }
			: await sharedRead(readKey, read);
	const { keys, errors } = value.keys;
	if (keys.length === 0) {
		throw new TriggerConfigurationError(`No usable signing secret: ${errors.join('; ')}`);
	}
	// Logged, never answered: by the delivery that read them, once per change of the secrets.
	if (value.problemsAreNew && !joined && errors.length > 0) {
		context.logger.warn(
			`Archive SIP Status Trigger ignores unusable secrets: ${errors.join('; ')}`,
		);
	}
	return { keys, reused: false };
}

/** Whether a refusal with reused keys may read the credential again (a few seconds apart, whatever forgeries come). */
export function mayRereadSigningKeys(context: IWebhookFunctions, nowMs: number): boolean {
	const credentialId = credentialIdOf(context);
	return credentialId !== undefined && takeForcedReread(credentialId, nowMs);
}
