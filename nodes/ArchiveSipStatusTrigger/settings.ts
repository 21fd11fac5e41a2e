import { createHash } from 'node:crypto';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import type { OutcomeFilter, OutputMode, TriggerSettings } from './delivery';
import { parseSigningKeys, type SigningKeys } from './verify/secrets';
import {
	recentSigningKeys,
	rememberSigningKeys,
	secretsChanged,
	takeForcedReread,
} from './verify/signingKeyCache';
import { DEFAULT_EVENT_TYPE_PATTERNS, splitPatterns } from './typeFilter';

export const CREDENTIAL_NAME = 'archiveSipWebhookApi';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * A wider window would let an old signed delivery be replayed after its id left the replay record (72 h): larger
 * values are clamped to this one hour.
 */
export const MAX_TOLERANCE_SECONDS = 3600;

export const DEFAULT_MAX_BODY_KIB = 1024;

/** A setup problem the sender cannot fix: answered 500 so it retries later. Messages hold no secrets. */
export class TriggerConfigurationError extends Error {}

function numberOption(options: IDataObject, name: string, fallback: number): number {
	const value = options[name];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Max Body Size in bytes, from the node's options (read before the body, so a large one is refused unread). */
export function maxBodyBytesOf(options: IDataObject): number {
	return Math.floor(numberOption(options, 'maxBodySizeKib', DEFAULT_MAX_BODY_KIB) * 1024);
}

export interface ResolvedSettings {
	settings: TriggerSettings;
	eventsPerMinute: number;
	/** Problems with some secrets while others are usable; set once per change of the secrets, to be logged, never answered. */
	secretProblems: string[];
	/** True when the keys were read from the credential by an earlier delivery (see signingKeyCache.ts). */
	keysReused: boolean;
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

/**
 * The credential's signing keys. Production deliveries reuse keys this process read a moment ago, unless
 * `reuseRecentKeys` is false; test-URL deliveries always read the credential, so edits show at once there.
 */
async function signingKeys(
	context: IWebhookFunctions,
	reuseRecentKeys: boolean,
	nowMs: number,
): Promise<{ keys: SigningKeys; reused: boolean; problemsAreNew: boolean }> {
	const credentialId = credentialIdOf(context);
	const cacheKey = context.getMode() === 'webhook' && credentialId ? credentialId : undefined;
	const recent = cacheKey && reuseRecentKeys ? recentSigningKeys(cacheKey, nowMs) : undefined;
	if (recent) return { keys: recent, reused: true, problemsAreNew: false };
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const keys = parseSigningKeys(credentials.signingSecret, credentials.additionalSecrets);
	if (cacheKey && keys.keys.length > 0) rememberSigningKeys(cacheKey, keys, nowMs);
	const fingerprint = fingerprintOf(credentials.signingSecret, credentials.additionalSecrets);
	return { keys, reused: false, problemsAreNew: secretsChanged(credentialId ?? '', fingerprint) };
}

/**
 * Whether a refusal with reused keys may read the credential again: once per few seconds per credential, so a
 * stream of forgeries costs no more credential reads than a quiet trigger.
 */
export function mayRereadSigningKeys(context: IWebhookFunctions, nowMs: number): boolean {
	const credentialId = credentialIdOf(context);
	return credentialId !== undefined && takeForcedReread(credentialId, nowMs);
}

export async function readSettings(
	context: IWebhookFunctions,
	{ reuseRecentKeys, nowMs }: { reuseRecentKeys: boolean; nowMs: number },
): Promise<ResolvedSettings> {
	const {
		keys: parsed,
		reused,
		problemsAreNew,
	} = await signingKeys(context, reuseRecentKeys, nowMs);
	if (parsed.keys.length === 0) {
		throw new TriggerConfigurationError(`No usable signing secret: ${parsed.errors.join('; ')}`);
	}
	// n8n resolves every getNodeParameter call afresh: read each parameter once.
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const typePatterns =
		options.eventTypes === undefined ? DEFAULT_EVENT_TYPE_PATTERNS : options.eventTypes;
	return {
		settings: {
			keys: parsed.keys,
			toleranceSeconds: Math.min(
				MAX_TOLERANCE_SECONDS,
				numberOption(options, 'toleranceSeconds', DEFAULT_TOLERANCE_SECONDS),
			),
			maxBodyBytes: maxBodyBytesOf(options),
			outcomeFilter: context.getNodeParameter('outcomes', 'both') as OutcomeFilter,
			typePatterns: splitPatterns(typePatterns),
			outputMode: context.getNodeParameter('outputMode', 'single') as OutputMode,
			includeRawEvent: options.includeRawEvent === true,
		},
		eventsPerMinute: Math.floor(numberOption(options, 'eventsPerMinute', 0)),
		secretProblems: problemsAreNew ? parsed.errors : [],
		keysReused: reused,
	};
}
